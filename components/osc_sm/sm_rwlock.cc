#include "sm_rwlock.h"

namespace plexus::osc_sm {

bool RwLock::try_lock_shared() {
    uint64_t s = w_.load(std::memory_order_relaxed);
    if (s & (kWriter | kWaitingMask)) return false;
    return w_.compare_exchange_strong(s, s + 1, std::memory_order_acquire, std::memory_order_relaxed);
}

void RwLock::announce_writer() { w_.fetch_add(kWaitingOne, std::memory_order_relaxed); }
void RwLock::withdraw_writer() { w_.fetch_sub(kWaitingOne, std::memory_order_relaxed); }

bool RwLock::try_lock_announced() {
    uint64_t s = w_.load(std::memory_order_relaxed);
    if (s & (kWriter | kReaderMask)) return false;
    return w_.compare_exchange_strong(s, s - kWaitingOne + kWriter, std::memory_order_acquire,
                                      std::memory_order_relaxed);
}

int RwLock::lock_shared(WaitFn wait, int timeout_ms) {
    return wait_until(wait, [this] { return try_lock_shared(); }, timeout_ms);
}

int RwLock::lock_exclusive(WaitFn wait, int timeout_ms) {
    announce_writer();
    const int rc = wait_until(wait, [this] { return try_lock_announced(); }, timeout_ms);
    if (rc != PLEXUS_SUCCESS) withdraw_writer();
    return rc;
}

// Release: every store of the epoch is visible to whoever takes the lock next.
void RwLock::unlock_shared() { w_.fetch_sub(1, std::memory_order_release); }
void RwLock::unlock_exclusive() { w_.fetch_sub(kWriter, std::memory_order_release); }

}  // namespace plexus::osc_sm
