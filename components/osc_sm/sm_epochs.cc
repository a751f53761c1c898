// The epochs. Fence: the shared barrier (nothing to count: every put, get and accumulate is done
// when its call returns). PSCW: post and complete counters (sm_pscw.h); start only records the
// group, an access waits for its target's post. Lock: the target's reader-writer lock, taken and
// released by the origin alone, granted in arrival order (tickets: shared lockers are not starved
// by a stream of exclusive ones, nor the reverse).
#include <plexus/sdk/ticket_rwlock.hpp>

#include "sm_barrier.h"
#include "sm_pscw.h"
#include "sm_window.h"

namespace plexus::osc_sm {
int Window::fence(int assert_bits) {
    if (access_open_ || exposure_open_ || locks_held_ > 0)
        return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_fence inside a %s epoch",
                    locks_held_ > 0 ? "lock" : access_open_ ? "start/complete" : "post/wait");
    // No epoch before it and none after (both promised): nothing to order, no barrier.
    const int both = PLEXUS_OSC_MODE_NOPRECEDE | PLEXUS_OSC_MODE_NOSUCCEED;
    if ((assert_bits & both) != both) {
        Barrier b(peers_[0].ctl->arrived, peers_[0].ctl->generation, uint32_t(size_));
        if (int rc = b.arrive_and_wait(host_->progress_wait); rc != PLEXUS_SUCCESS)
            return fail(PLEXUS_OSC_ERR_OTHER, "MPI_Win_fence: the barrier failed (%d)", rc);
    }
    fence_open_ = !(assert_bits & PLEXUS_OSC_MODE_NOSUCCEED);
    return PLEXUS_OSC_SUCCESS;
}

int Window::start(int n, const int ranks[], int assert_bits) {
    if (access_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_start while an access epoch of MPI_Win_start is open");
    if (locks_held_ > 0) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_start inside a lock epoch");
    for (int i = 0; i < n; ++i) {
        Peer &p = peers_[size_t(ranks[i])];
        p.in_access = true;
        // NOCHECK: the matching posts (NOCHECK too, MPI says) have completed and counted nothing.
        p.post_seen = assert_bits & PLEXUS_OSC_MODE_NOCHECK;
    }
    access_open_ = true;
    return PLEXUS_OSC_SUCCESS;
}

int Window::wait_posted(Peer &p) {
    const uint32_t t = uint32_t(&p - peers_.data());
    if (int rc = block_until("MPI_Win_start", [&] { return posted(ctl_, t, p.posts_used); }); rc != PLEXUS_OSC_SUCCESS)
        return rc;
    ++p.posts_used;
    p.post_seen = true;
    return PLEXUS_OSC_SUCCESS;
}

int Window::complete() {
    if (!access_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_complete without MPI_Win_start");
    for (Peer &p : peers_) {
        if (!p.in_access) continue;
        if (!p.post_seen)
            if (int rc = wait_posted(p); rc != PLEXUS_OSC_SUCCESS) return rc;
        complete_to(p.ctl);
        p.in_access = p.post_seen = false;
    }
    access_open_ = false;
    return PLEXUS_OSC_SUCCESS;
}

int Window::post(int n, const int ranks[], int assert_bits) {
    if (exposure_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_post while an exposure epoch of MPI_Win_post is open");
    for (int i = 0; i < n; ++i)
        if (!(assert_bits & PLEXUS_OSC_MODE_NOCHECK)) post_to(peers_[size_t(ranks[i])].ctl, uint32_t(rank_));
    completes_expected_ += uint64_t(n);
    exposure_open_ = true;
    return PLEXUS_OSC_SUCCESS;
}

int Window::wait() {
    if (!exposure_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_wait without MPI_Win_post");
    if (int rc = block_until("MPI_Win_wait", [&] { return completed(ctl_, completes_expected_); }); rc != PLEXUS_OSC_SUCCESS)
        return rc;
    exposure_open_ = false;
    return PLEXUS_OSC_SUCCESS;
}

int Window::test(int *flag) {
    if (!exposure_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_test without MPI_Win_post");
    *flag = completed(ctl_, completes_expected_) ? 1 : 0;
    if (*flag) exposure_open_ = false;
    return PLEXUS_OSC_SUCCESS;
}

int Window::lock(int lock_type, int target, int assert_bits) {
    if (target < 0 || target >= size_)
        return fail(PLEXUS_OSC_ERR_RANK, "MPI_Win_lock: rank %d is not in the window's group of %d", target, size_);
    Peer &p = peers_[size_t(target)];
    if (p.lock != Lock::kNone) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_lock: rank %d is already locked by this process", target);
    if (access_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_lock inside a start/complete epoch");
    if (assert_bits & PLEXUS_OSC_MODE_NOCHECK) {
        p.lock = Lock::kNoCheck;  // nobody else holds or asks a conflicting lock: nothing to take
    } else {
        // A ticket is drawn and waited for through the progress engine: no withdrawing from the
        // queue, and none needed (the wait is not bounded).
        plexus::sdk::TicketRwLock l(p.ctl->lock);
        const bool excl = lock_type == PLEXUS_OSC_LOCK_EXCLUSIVE;
        auto wait = [this](auto &&turn) { return block_until("MPI_Win_lock", turn); };
        if (int rc = excl ? l.lock_exclusive(wait) : l.lock_shared(wait); rc != PLEXUS_OSC_SUCCESS) return rc;
        p.lock = excl ? Lock::kExclusive : Lock::kShared;
    }
    ++locks_held_;
    return PLEXUS_OSC_SUCCESS;
}

int Window::unlock(int target) {
    if (target < 0 || target >= size_)
        return fail(PLEXUS_OSC_ERR_RANK, "MPI_Win_unlock: rank %d is not in the window's group of %d", target, size_);
    Peer &p = peers_[size_t(target)];
    if (p.lock == Lock::kNone) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_unlock: rank %d is not locked by this process", target);
    plexus::sdk::TicketRwLock l(p.ctl->lock);
    if (p.lock == Lock::kExclusive) l.unlock_exclusive();
    else if (p.lock == Lock::kShared) l.unlock_shared();
    else std::atomic_thread_fence(std::memory_order_seq_cst);  // NOCHECK: the stores still go out first
    p.lock = Lock::kNone;
    --locks_held_;
    return PLEXUS_OSC_SUCCESS;
}

}  // namespace plexus::osc_sm
