// The synchronisation primitives of osc_sm (the fair ticket lock of plexus/sdk/ticket_rwlock.hpp,
// sm_spinlock.h, sm_barrier.h, sm_pscw.h) between forked processes sharing an anonymous mapping, as window members share control blocks:
// counters under the locks end exact, readers never see a writer's half-done update, the barrier
// lets nobody through early, and a post of a later epoch never stands in for an earlier one.
// Every wait is bounded (the tests' wait function gives up after 20 s).
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <new>
#include <vector>

#include "components/osc_sm/sm_barrier.h"
#include "components/osc_sm/sm_control.h"
#include "components/osc_sm/sm_pscw.h"
#include "components/osc_sm/sm_spinlock.h"

using namespace plexus::osc_sm;
using plexus::sdk::TicketRwLock;

namespace {

// The progress engine's shape: poll, yield when it keeps failing, give up at the deadline.
int bounded_wait(plexus_done_fn_t done, void *ctx, int timeout_ms) {
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + std::chrono::milliseconds(timeout_ms < 0 ? 20000 : timeout_ms);
    for (unsigned i = 0;; ++i) {
        if (done(ctx)) return PLEXUS_SUCCESS;
        if (clock::now() > deadline) return PLEXUS_ERR_TIMEOUT;
        if (i > 32) sched_yield();
    }
}

// Shared memory that forked children see: the control block of a window of `members` and room
// for the tests' plain (non-atomic) data after it.
struct Shared {
    explicit Shared(uint32_t members) : bytes(control_bytes(members) + 4096) {
        mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (mem == MAP_FAILED) throw std::bad_alloc();
        ctl = init_control(mem, members, 0);
        data = reinterpret_cast<volatile uint64_t *>(static_cast<char *>(mem) + control_bytes(members));
    }
    ~Shared() { munmap(mem, bytes); }
    size_t bytes;
    void *mem;
    ControlBlock *ctl;
    volatile uint64_t *data;
};

// Runs body(i) in n children; true when every child exited 0.
bool run_forked(int n, const std::function<bool(int)> &body) {
    std::vector<pid_t> kids;
    for (int i = 0; i < n; ++i) {
        const pid_t pid = fork();
        if (pid == 0) _exit(body(i) ? 0 : 1);
        if (pid < 0) return false;
        kids.push_back(pid);
    }
    bool ok = true;
    for (pid_t k : kids) {
        int status = 0;
        if (waitpid(k, &status, 0) != k || !WIFEXITED(status) || WEXITSTATUS(status) != 0) ok = false;
    }
    return ok;
}

// A read-modify-write that loses updates unless serialised: the yield between read and write
// invites another process in.
void slow_increment(volatile uint64_t *x, int i) {
    const uint64_t v = *x;
    if (i % 7 == 0) sched_yield();
    *x = v + 1;
}

constexpr int kProcs = 4;
constexpr int kRounds = 2000;

}  // namespace

namespace {

// The ticket lock's wait of the module's shape (poll, then the bounded progress-like wait).
const auto bounded = [](auto &&turn) { return wait_until(bounded_wait, turn); };

// Nobody holds or waits: every ticket drawn has left.
bool idle(const plexus::sdk::TicketRwWords &w) { return w.next == w.read && w.next == w.write; }

}  // namespace

TEST(OscSmRwLock, ExclusiveCounterIsExact) {
    Shared s(kProcs);
    const bool ok = run_forked(kProcs, [&](int) {
        TicketRwLock l(s.ctl->lock);
        for (int i = 0; i < kRounds; ++i) {
            if (l.lock_exclusive(bounded) != PLEXUS_SUCCESS) return false;
            slow_increment(&s.data[0], i);
            l.unlock_exclusive();
        }
        return true;
    });
    EXPECT_TRUE(ok);
    EXPECT_EQ(s.data[0], uint64_t(kProcs) * kRounds);
    EXPECT_TRUE(idle(s.ctl->lock));
    EXPECT_EQ(s.ctl->lock.next, uint32_t(kProcs * kRounds));
}

TEST(OscSmRwLock, ReadersNeverSeeAHalfWrite) {
    Shared s(kProcs);
    const bool ok = run_forked(kProcs, [&](int me) {
        TicketRwLock l(s.ctl->lock);
        for (int i = 0; i < kRounds / 2; ++i) {
            if (me == 0) {  // the writer keeps data[0] == data[1] outside the lock only
                if (l.lock_exclusive(bounded) != PLEXUS_SUCCESS) return false;
                s.data[0] = s.data[0] + 1;
                if (i % 5 == 0) sched_yield();
                s.data[1] = s.data[1] + 1;
                l.unlock_exclusive();
            } else {
                if (l.lock_shared(bounded) != PLEXUS_SUCCESS) return false;
                const uint64_t a = s.data[0];
                if (i % 5 == 0) sched_yield();
                const uint64_t b = s.data[1];
                l.unlock_shared();
                if (a != b) return false;
            }
        }
        return true;
    });
    EXPECT_TRUE(ok);
    EXPECT_EQ(s.data[0], uint64_t(kRounds / 2));
    EXPECT_TRUE(idle(s.ctl->lock));
}

// Arrival order decides, whatever the kind: shared holders coexist, an exclusive locker waits for
// the ones before it and keeps later shared lockers out, and a shared locker that came before an
// exclusive one is not overtaken by it (the writer-preferring lock this replaced let a waiting
// writer through first, so a stream of writers kept readers out for good).
TEST(OscSmRwLock, TurnsFollowArrivalOrder) {
    Shared s(1);
    TicketRwLock l(s.ctl->lock);
    const uint32_t r1 = l.draw(), r2 = l.draw();
    ASSERT_TRUE(l.shared_turn(r1));
    l.enter_shared();
    ASSERT_TRUE(l.shared_turn(r2));  // shared holders together
    l.enter_shared();
    const uint32_t w1 = l.draw();
    const uint32_t r3 = l.draw();
    const uint32_t w2 = l.draw();
    EXPECT_FALSE(l.exclusive_turn(w1));  // readers hold it
    EXPECT_FALSE(l.shared_turn(r3));     // behind the waiting writer
    l.unlock_shared();
    EXPECT_FALSE(l.exclusive_turn(w1));
    l.unlock_shared();
    ASSERT_TRUE(l.exclusive_turn(w1));
    EXPECT_FALSE(l.shared_turn(r3));
    EXPECT_FALSE(l.exclusive_turn(w2));  // one writer at a time
    l.unlock_exclusive();
    ASSERT_TRUE(l.shared_turn(r3));      // the reader that came before w2 goes first
    EXPECT_FALSE(l.exclusive_turn(w2));
    l.enter_shared();
    EXPECT_FALSE(l.exclusive_turn(w2));
    l.unlock_shared();
    ASSERT_TRUE(l.exclusive_turn(w2));
    l.unlock_exclusive();
    EXPECT_TRUE(idle(s.ctl->lock));
}

// Two processes take the exclusive lock back to back, without a pause, for as long as the readers
// need; each of two readers must still get the shared lock 200 times, every wait bounded at 20 s
// (a reader starved by the stream fails its wait). The writers stop only once both readers are
// done, so every reader's turn is taken while exclusive lockers keep arriving.
TEST(OscSmRwLock, SharedLockersAreNotStarvedByAStreamOfExclusiveOnes) {
    constexpr int kReaders = 2, kWriters = 2, kReads = 200;
    Shared s(kReaders + kWriters);
    // data[0]: the writers' turns; data[1]: readers finished
    const bool ok = run_forked(kReaders + kWriters, [&](int me) {
        TicketRwLock l(s.ctl->lock);
        if (me < kWriters) {
            while (__atomic_load_n(&s.data[1], __ATOMIC_ACQUIRE) < uint64_t(kReaders)) {
                if (l.lock_exclusive(bounded) != PLEXUS_SUCCESS) return false;
                s.data[0] = s.data[0] + 1;
                l.unlock_exclusive();
            }
            return true;
        }
        for (int i = 0; i < kReads; ++i) {
            if (l.lock_shared(bounded) != PLEXUS_SUCCESS) return false;
            l.unlock_shared();
        }
        __atomic_fetch_add(&s.data[1], 1, __ATOMIC_RELEASE);
        return true;
    });
    EXPECT_TRUE(ok);
    EXPECT_TRUE(idle(s.ctl->lock));
    EXPECT_EQ(s.data[1], uint64_t(kReaders));
}

TEST(OscSmSpinLock, AccumulateCounterIsExact) {
    Shared s(kProcs);
    const bool ok = run_forked(kProcs, [&](int) {
        SpinLock l(s.ctl->acc);
        for (int i = 0; i < kRounds; ++i) {
            if (l.lock(bounded_wait) != PLEXUS_SUCCESS) return false;
            slow_increment(&s.data[0], i);
            l.unlock();
        }
        return true;
    });
    EXPECT_TRUE(ok);
    EXPECT_EQ(s.data[0], uint64_t(kProcs) * kRounds);
}

// Each round every process writes its slot, passes the barrier and reads everybody's: one that
// got through before the last arrival would read a slot of the round before.
TEST(OscSmBarrier, NobodyLeavesBeforeTheLastArrives) {
    constexpr int kBarrierRounds = 300;
    Shared s(kProcs);
    const bool ok = run_forked(kProcs, [&](int me) {
        Barrier b(s.ctl->arrived, s.ctl->generation, kProcs);
        for (int r = 1; r <= kBarrierRounds; ++r) {
            if (r % 3 == me % 3) sched_yield();  // someone is always late
            s.data[me] = uint64_t(r);
            if (b.arrive_and_wait(bounded_wait) != PLEXUS_SUCCESS) return false;
            for (int j = 0; j < kProcs; ++j)
                if (s.data[j] != uint64_t(r)) return false;
            if (b.arrive_and_wait(bounded_wait) != PLEXUS_SUCCESS) return false;  // reads done
        }
        return true;
    });
    EXPECT_TRUE(ok);
    EXPECT_EQ(s.ctl->arrived.load(), 0u);
    EXPECT_EQ(s.ctl->generation.load(), uint64_t(2 * kBarrierRounds));
}

TEST(OscSmBarrier, AloneItNeverWaits) {
    Shared s(1);
    Barrier b(s.ctl->arrived, s.ctl->generation, 1);
    EXPECT_EQ(b.arrive_and_wait(bounded_wait, 0), PLEXUS_SUCCESS);
    EXPECT_EQ(b.arrive_and_wait(bounded_wait, 0), PLEXUS_SUCCESS);
}

// Target 2 posts twice (two epochs with this origin) before target 1 posts once: the origin's
// epoch with 1 must still wait for 1.
TEST(OscSmPscw, APostOfALaterEpochDoesNotStandInForAnother) {
    Shared s(3);
    ControlBlock *origin = s.ctl;
    post_to(origin, 2);
    post_to(origin, 2);
    EXPECT_FALSE(posted(origin, 1, 0));
    EXPECT_TRUE(posted(origin, 2, 0));
    EXPECT_TRUE(posted(origin, 2, 1));
    EXPECT_FALSE(posted(origin, 2, 2));
    post_to(origin, 1);
    EXPECT_TRUE(posted(origin, 1, 0));
}

// Origins put into the target's data between start and complete; the target's wait returns only
// when all of them completed, and then sees all the data; the next epoch's post lets them on.
TEST(OscSmPscw, WaitSeesEveryOriginsData) {
    constexpr int kEpochs = 200;
    constexpr int kOrigins = kProcs - 1;
    constexpr uint32_t kTarget = 0;
    // One block per member, in one mapping: each origin's posts, the target's completes.
    const size_t per = (control_bytes(kProcs) + 63) / 64 * 64;
    Shared s(kProcs);
    void *blocks = mmap(nullptr, per * kProcs, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(blocks, MAP_FAILED);
    auto block = [&](int r) { return reinterpret_cast<ControlBlock *>(static_cast<char *>(blocks) + per * size_t(r)); };
    for (int r = 0; r < kProcs; ++r) init_control(block(r), kProcs, uint32_t(r));
    const bool ok = run_forked(kProcs, [&](int me) {
        if (me == int(kTarget)) {
            uint64_t expected = 0;
            for (int e = 1; e <= kEpochs; ++e) {
                for (int o = 1; o <= kOrigins; ++o) post_to(block(o), kTarget);
                expected += kOrigins;
                if (wait_until(bounded_wait, [&] { return completed(block(kTarget), expected); }) != PLEXUS_SUCCESS)
                    return false;
                for (int o = 1; o <= kOrigins; ++o)
                    if (s.data[o] != uint64_t(e)) return false;
            }
            return true;
        }
        for (int e = 1; e <= kEpochs; ++e) {
            const uint64_t used = uint64_t(e - 1);
            if (wait_until(bounded_wait, [&] { return posted(block(me), kTarget, used); }) != PLEXUS_SUCCESS) return false;
            if (e % 4 == me) sched_yield();
            s.data[me] = uint64_t(e);
            complete_to(block(kTarget));
        }
        return true;
    });
    munmap(blocks, per * kProcs);
    EXPECT_TRUE(ok);
}
