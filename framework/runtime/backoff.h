// How a waiter that finds nothing to do gives the CPU away: spin a few polls, then sched_yield,
// then sleep for growing short intervals up to a cap; any progress starts over. With more ranks
// than cores this is what lets the rank holding the work run.
#pragma once

#include <cstdint>
#include <limits>

namespace plexus::runtime {

struct BackoffPolicy {
    uint32_t spin_count = 1000;  // idle polls before the first yield (a few microseconds)
    uint32_t yield_count = 1000; // idle polls each followed by sched_yield before sleeping
    uint32_t min_sleep_us = 1;   // first sleep; doubles each idle poll after that
    uint32_t max_sleep_us = 100; // cap: the longest a waiter can miss an event by
    // A wait that has already slept long_after_us (in requested sleeps since its last event) is
    // a long one, waiting for another process to arrive rather than for a step of an exchange:
    // its cap rises to long_sleep_us, so that it wakes less often. 0: the cap never rises.
    uint32_t long_sleep_us = 0;
    uint32_t long_after_us = 20000;

    // Never yields or sleeps: what the benchmark compares against.
    static BackoffPolicy pure_spin();
    // For a node with more processes than CPUs: the same, but the first idle poll already yields
    // (what Open MPI's mpi_yield_when_idle does), since spinning only delays the process that
    // holds the work.
    BackoffPolicy yielding_at_once() const;
    // What an oversubscribed node gets unless the user chose: no spinning, and at most
    // kOversubscribedYields yields before the sleeps. sched_yield does not reliably hand the CPU
    // over (Linux's fair scheduler often hands it straight back to the yielder: a waiting rank
    // was seen keeping its CPU for 50-500 us of yields while the rank it waited for sat runnable
    // on the same CPU, bench/dpm/README.md); a sleeping waiter leaves the run queue.
    static constexpr uint32_t kOversubscribedYields = 10;
    BackoffPolicy for_oversubscribed_node(bool keep_yield_count) const;
    bool spins_forever() const { return spin_count == std::numeric_limits<uint32_t>::max(); }
};

// Counted by every wait, so tests and the benchmark can see what waiting cost.
struct BackoffStats {
    uint64_t polls = 0;     // calls of the callbacks
    uint64_t spins = 0;     // idle polls that only spun
    uint64_t yields = 0;    // sched_yield calls
    uint64_t sleeps = 0;    // sleeps taken
    uint64_t slept_us = 0;  // their requested total
    uint64_t resets = 0;    // progress seen after backing off
};

// What the idle steps call; tests substitute counting fakes so that nothing really sleeps.
struct IdleHooks {
    void (*yield)() = nullptr;               // default: sched_yield
    void (*sleep_us)(uint32_t us) = nullptr; // default: nanosleep
};

// The state of one wait: which step comes next.
class Backoff {
public:
    Backoff(const BackoffPolicy &policy, const IdleHooks &hooks, BackoffStats *stats)
        : policy_(policy), hooks_(hooks), stats_(stats) {}
    // A poll found nothing: take the next step. The spinning step is inline because it sits on
    // the latency path of every wait; giving the CPU away costs far more than a call anyway.
    void idle() {
        if (++idle_polls_ <= policy_.spin_count || policy_.spins_forever()) {
            ++stats_->spins;
            return;
        }
        give_away();
    }
    void reset();  // a poll made progress: start again with spinning

private:
    void give_away();  // yield or sleep, by how long nothing has happened

    const BackoffPolicy &policy_;
    const IdleHooks &hooks_;
    BackoffStats *stats_;
    uint64_t idle_polls_ = 0;
    uint32_t sleep_us_ = 0;
    uint64_t asleep_us_ = 0;  // requested since the last event
};

}  // namespace plexus::runtime
