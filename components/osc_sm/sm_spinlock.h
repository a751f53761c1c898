// The accumulate lock of one window (its owner's control block): MPI makes every element of an
// accumulate atomic with respect to other accumulates on the same location, whichever process
// issues them, so the origin updates the target's memory with this lock held. Held for one
// operation's copy only; waiters back off through the wait function (the holder may be descheduled
// on an oversubscribed node).
#pragma once

#include <atomic>
#include <cstdint>

#include "sm_wait.h"

namespace plexus::osc_sm {

class SpinLock {
public:
    explicit SpinLock(std::atomic<uint32_t> &word) : w_(word) {}
    bool try_lock() {
        return w_.load(std::memory_order_relaxed) == 0 && w_.exchange(1, std::memory_order_acquire) == 0;
    }
    int lock(WaitFn wait, int timeout_ms = -1) {
        return wait_until(wait, [this] { return try_lock(); }, timeout_ms);
    }
    void unlock() { w_.store(0, std::memory_order_release); }

private:
    std::atomic<uint32_t> &w_;
};

}  // namespace plexus::osc_sm
