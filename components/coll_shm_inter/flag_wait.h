// How a process of a node group waits for another's flag in the segment, and how the flag's
// writer wakes it: a few polls of the progress engine (each followed by the engine's idle step, a
// sched_yield on a node with more processes than CPUs), then sleeps in the kernel on the flag word
// itself (a futex), woken by the writer the moment the flag moves, and bounded so that the
// progress engine is still polled (a message may be what the process waits for indirectly).
//
// Why not the engine's own back-off alone: it sleeps in nanosleep, so a waiter notices a flag only
// when its sleep ends (up to its cap plus the timer slack, tens of microseconds at least), and on
// a node with more processes than CPUs every step of a tree waits for such a sleep to end; and
// before sleeping it yields, which under EEVDF pushes the yielder's deadline back by a slice each
// time, behind every other runnable task of the machine. A process asleep on a futex is off the
// run queue until the writer wakes it, which is what the writer's CPU needs.
#pragma once

#include <cstdint>

namespace plexus::coll_shm_inter {

struct FlagWaitPolicy {
    int spin = 0;   // plain loads of the flag first (0 on a node with more processes than CPUs)
    int polls = 4;  // then progress polls, each with the engine's idle step, before sleeping
    uint32_t min_sleep_us = 50;    // the first sleep on the flag; doubles up to max_sleep_us
    uint32_t max_sleep_us = 1000;  // how late a message for this process is noticed while it sleeps
    bool sleep = true;  // false: poll the progress engine only (its own back-off), as before
};

// The polls before sleeping: `set` when >= 0, else by crowdedness: a few where processes outnumber
// CPUs (the flag's writer may need this CPU), enough to cover an exchange's step where every
// process has a CPU of its own (sleeping there only adds a wake-up to each step).
constexpr int kWaitPollsCrowded = 100;
constexpr int kWaitPollsAlone = 2000;
inline int flag_wait_polls(int64_t set, bool oversubscribed) {
    if (set >= 0) return static_cast<int>(set);
    return oversubscribed ? kWaitPollsCrowded : kWaitPollsAlone;
}

// What the wait calls; the unit tests substitute fakes.
struct FlagWaitHooks {
    // One progress poll plus the engine's idle step; true once *word >= target.
    bool (*poll)(void *ctx, const uint64_t *word, uint64_t target) = nullptr;
    // Waits through the progress engine until *word >= target (sleep == false).
    void (*poll_until)(void *ctx, const uint64_t *word, uint64_t target) = nullptr;
    // Sleeps up to us microseconds unless the low half of *word no longer reads `seen`.
    void (*sleep_on)(const uint64_t *word, uint32_t seen, uint32_t us) = nullptr;
    void *ctx = nullptr;
};

struct FlagWaitStats {
    uint64_t polls = 0;
    uint64_t sleeps = 0;
};

// Returns once load_acquire(*word) >= target. sleepers counts the processes asleep on flags of the
// word's writer (its Control's), so that the writer wakes only when someone sleeps.
void wait_flag(const FlagWaitPolicy &policy, const FlagWaitHooks &hooks, const uint64_t *word,
               uint64_t target, uint32_t *sleepers, FlagWaitStats *stats = nullptr);

// The writer's side: stores value into *word (release) and wakes whoever sleeps on it.
void publish_flag(uint64_t *word, uint64_t value, uint32_t *sleepers);

// The real sleep and wake: a futex on the low 32 bits of the word, shared between processes.
void futex_sleep_on(const uint64_t *word, uint32_t seen, uint32_t us);
void futex_wake_all(const uint64_t *word);

}  // namespace plexus::coll_shm_inter
