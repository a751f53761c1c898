// The progress engine: the callbacks of active components, polled by whoever waits for
// communication to complete, with a wait loop that backs off when nothing happens.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <vector>

#include <plexus/component.h>

#include "runtime/backoff.h"

namespace plexus::runtime {

class ProgressEngine {
public:
    int add(plexus_progress_fn_t fn, void *ctx);     // PLEXUS_ERR_EXISTS when already there
    int remove(plexus_progress_fn_t fn, void *ctx);  // PLEXUS_ERR_NOT_FOUND when absent
    // Calls every callback once; returns the events they reported. Inline: it runs between a
    // message's arrival and its receiver noticing it. Registration happens at open/close and
    // polling all the time, from the one thread the MPI layer (FUNNELED) calls from.
    int poll() {
        int events = 0;
        ++stats_.polls;
        for (size_t i = 0; i < callbacks_.size(); ++i) events += callbacks_[i].fn(callbacks_[i].ctx);
        return events;
    }
    size_t size() const;

    // Polls until done() is true: PLEXUS_SUCCESS, or PLEXUS_ERR_TIMEOUT once timeout has passed
    // (checked only while idle, so a busy wait never reads the clock). done() is asked before
    // every poll, so a condition that already holds costs no poll at all.
    template <class Done>
    int wait_until(Done &&done, std::optional<std::chrono::nanoseconds> timeout = std::nullopt) {
        Waiter w(*this, timeout);
        while (!done()) {
            if (!w.step()) return PLEXUS_ERR_TIMEOUT;
        }
        return PLEXUS_SUCCESS;
    }
    // Anything with bool complete() const: a request, a fence, a flag wrapper.
    template <class Request>
    int wait(const Request &r, std::optional<std::chrono::nanoseconds> timeout = std::nullopt) {
        return wait_until([&r] { return r.complete(); }, timeout);
    }

    void set_policy(const BackoffPolicy &policy) { policy_ = policy; }
    const BackoffPolicy &policy() const { return policy_; }
    // Accumulated over every wait of this engine.
    const BackoffStats &stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }
    void set_idle_hooks(const IdleHooks &hooks) { hooks_ = hooks; }  // tests

private:
    // One wait in progress: a poll, then a back-off step when it found nothing.
    class Waiter {
    public:
        // Inline: every blocking call makes one, and out of line it cost a call through the PLT
        // plus a store-forwarding stall on the optional passed by value.
        Waiter(ProgressEngine &engine, std::optional<std::chrono::nanoseconds> timeout)
            : engine_(engine), backoff_(engine.policy_, engine.hooks_, &engine.stats_) {
            if (timeout) deadline_ = std::chrono::steady_clock::now() + *timeout;
        }
        // A poll, then a back-off step when it found nothing; false once the deadline has passed
        // (the clock is read only while idle).
        bool step() {
            if (engine_.poll() > 0) {
                backoff_.reset();
                return true;
            }
            backoff_.idle();
            return !deadline_ || std::chrono::steady_clock::now() < *deadline_;
        }

    private:
        ProgressEngine &engine_;
        Backoff backoff_;
        std::optional<std::chrono::steady_clock::time_point> deadline_;
    };

    struct Callback {
        plexus_progress_fn_t fn;
        void *ctx;
    };
    mutable std::mutex lock_;  // guards registration; poll copies nothing on the hot path
    std::vector<Callback> callbacks_;
    BackoffPolicy policy_;
    BackoffStats stats_;
    IdleHooks hooks_;
};

}  // namespace plexus::runtime
