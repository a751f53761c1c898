// The flag wait's steps (spin, progress polls, futex sleeps growing to a cap) and the writer's
// wake-up.
#include "flag_wait.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <climits>

#include <plexus/sdk/shared_word.hpp>

namespace plexus::coll_shm_inter {
namespace {

using sdk::load_acquire;

bool reached(const uint64_t *word, uint64_t target) {
    return load_acquire(*const_cast<uint64_t *>(word)) >= target;
}

// The futex word: the half of the flag that changes with every new value.
const uint32_t *low_half(const uint64_t *word) {
    const auto *halves = reinterpret_cast<const uint32_t *>(word);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return halves + 1;
#else
    return halves;
#endif
}

// Sleeps on the flag once: registered as a sleeper first, then the flag read again, so that a
// writer either sees the registration (and wakes this process) or wrote before the read here
// (and this process does not sleep). Both sides order their write before their read with a full
// fence: neither read may pass the other side's write.
void sleep_once(const FlagWaitHooks &hooks, const uint64_t *word, uint64_t target,
                uint32_t *sleepers, uint32_t us) {
    __atomic_fetch_add(sleepers, 1u, __ATOMIC_SEQ_CST);
    const uint64_t seen = __atomic_load_n(word, __ATOMIC_SEQ_CST);
    if (seen < target) hooks.sleep_on(word, static_cast<uint32_t>(seen), us);
    __atomic_fetch_sub(sleepers, 1u, __ATOMIC_SEQ_CST);
}

}  // namespace

void wait_flag(const FlagWaitPolicy &policy, const FlagWaitHooks &hooks, const uint64_t *word,
               uint64_t target, uint32_t *sleepers, FlagWaitStats *stats) {
    FlagWaitStats local;
    FlagWaitStats &st = stats ? *stats : local;
    for (int i = 0; i < policy.spin; ++i)
        if (reached(word, target)) return;
    if (!policy.sleep) {
        hooks.poll_until(hooks.ctx, word, target);
        return;
    }
    for (int i = 0; i < policy.polls; ++i) {
        ++st.polls;
        if (hooks.poll(hooks.ctx, word, target)) return;
    }
    uint32_t us = std::max<uint32_t>(1, policy.min_sleep_us);
    const uint32_t cap = std::max(us, policy.max_sleep_us);
    for (;;) {
        ++st.sleeps;
        sleep_once(hooks, word, target, sleepers, us);
        us = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{us} * 2, cap));
        // A poll after every sleep: the progress engine's events (messages) are noticed at most
        // one sleep late.
        ++st.polls;
        if (hooks.poll(hooks.ctx, word, target)) return;
    }
}

void publish_flag(uint64_t *word, uint64_t value, uint32_t *sleepers) {
    __atomic_store_n(word, value, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(sleepers, __ATOMIC_SEQ_CST) != 0) futex_wake_all(word);
}

void futex_sleep_on(const uint64_t *word, uint32_t seen, uint32_t us) {
    timespec ts{static_cast<time_t>(us / 1000000), static_cast<long>(us % 1000000) * 1000};
    // Not FUTEX_PRIVATE: the word is in a segment other processes mapped. EAGAIN (the flag moved),
    // EINTR and ETIMEDOUT all mean the same to the caller: look again.
    syscall(SYS_futex, low_half(word), FUTEX_WAIT, seen, &ts, nullptr, 0);
}

void futex_wake_all(const uint64_t *word) {
    syscall(SYS_futex, low_half(word), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

}  // namespace plexus::coll_shm_inter
