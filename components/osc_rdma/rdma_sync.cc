// Synchronisation as in the paper. Fence: every process tells every other how many operations
// it sent it (the count exchange), then waits until that many arrived. PSCW: post messages open
// the origins' access, complete carries the count per target, wait waits for the counts. Lock:
// the request goes out and lock returns; operations start at the grant; unlock sends the count
// and waits for the target's release. A completion message (complete, unlock, the count
// exchange) leaves only after every put/get to that peer completed locally: the BTL promises no
// order between its put/get and its sends.
#include "rdma_window.h"

namespace plexus::osc_rdma {
namespace {

struct Waiting {
    Window *w;
    bool (*done)(Window *, void *);
    void *ctx;
};

int poll_done(void *ctx) {
    auto *x = static_cast<Waiting *>(ctx);
    x->w->progress();
    return x->done(x->w, x->ctx) ? 1 : 0;
}

template <class F>
bool call(Window *, void *ctx) {
    return (*static_cast<F *>(ctx))();
}

}  // namespace

int Window::wait_for(bool (*done)(Window *, void *), void *ctx) {
    progress();
    if (done(this, ctx)) return PLEXUS_OSC_SUCCESS;
    Waiting x{this, done, ctx};
    const int rc = host_->progress_wait(poll_done, &x, -1);
    return rc == PLEXUS_SUCCESS ? PLEXUS_OSC_SUCCESS : fail(PLEXUS_OSC_ERR_OTHER, "waiting for progress failed (%d)", rc);
}

// One turn of the progress engine: its first look at the condition says no, the second yes.
int Window::poll_once() {
    int looks = 0;
    const int rc = host_->progress_wait([](void *c) { return ++*static_cast<int *>(c) > 1 ? 1 : 0; }, &looks, -1);
    progress();
    return rc == PLEXUS_SUCCESS ? PLEXUS_OSC_SUCCESS : fail(PLEXUS_OSC_ERR_OTHER, "progress failed (%d)", rc);
}

// Waits until pred() holds, polling progress.
#define RDMA_WAIT(pred)                                    \
    do {                                                   \
        auto _pred = [&]() -> bool { return (pred); };     \
        int _rc = wait_for(call<decltype(_pred)>, &_pred); \
        if (_rc != PLEXUS_OSC_SUCCESS) return _rc;         \
    } while (0)

int Window::finish_access(Peer &p) {
    if (int rc = issue_queued(p); rc != PLEXUS_OSC_SUCCESS) return rc;
    if (int rc = p.outbox->flush(); rc != PLEXUS_OSC_SUCCESS) return rc;
    RDMA_WAIT(p.rma_outstanding == 0 && p.deferred_rma.empty());
    if (p.rma_error != 0) {
        const int e = p.rma_error;
        p.rma_error = 0;
        return fail(PLEXUS_OSC_ERR_OTHER, "a transfer to rank %d failed (error %d)", p.rank, e);
    }
    return PLEXUS_OSC_SUCCESS;
}

// The column of this process in the matrix of counts: what every origin sent here. (A
// reduce_scatter of the rows needs an integer type and MPI_SUM, which the services do not name;
// an alltoall of the counts followed by the local sum delivers the same numbers.)
int Window::exchange_counts(const std::vector<uint32_t> &sent, std::vector<uint32_t> *received) {
    received->assign(size_t(size_), 0);
    const plexus_coll_services_t *coll = svc_->coll;
    const int rc = coll->dispatch->alltoall(nullptr, sent.data(), int(sizeof(uint32_t)), coll->byte_type,
                                            received->data(), int(sizeof(uint32_t)), coll->byte_type, comm_);
    return rc == PLEXUS_OSC_SUCCESS ? rc : fail(rc, "MPI_Win_fence: the exchange of operation counts failed");
}

int Window::fence(int assert_bits) {
    if (access_open_ || exposure_open_ || locks_held_ > 0)
        return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_fence inside a %s epoch",
                    locks_held_ > 0 ? "lock" : access_open_ ? "start/complete" : "post/wait");
    // NOPRECEDE (given by every process, MPI says) promises there is nothing to complete; the
    // fence must still keep the next epoch's operations out of every window until its owner
    // has called it: a barrier does that, unless no epoch follows either.
    if (assert_bits & PLEXUS_OSC_MODE_NOPRECEDE) {
        if (!(assert_bits & PLEXUS_OSC_MODE_NOSUCCEED))
            if (int rc = svc_->coll->dispatch->barrier(nullptr, comm_); rc != PLEXUS_OSC_SUCCESS)
                return fail(rc, "MPI_Win_fence: the barrier failed");
    } else {
        for (Peer &p : peers_)
            if (int rc = finish_access(p); rc != PLEXUS_OSC_SUCCESS) return rc;
        std::vector<uint32_t> incoming;
        if (int rc = exchange_counts(sent_.take_all(), &incoming); rc != PLEXUS_OSC_SUCCESS) return rc;
        const int parity = int(fence_epoch_ & 1u);
        received_.expect_fence(parity, incoming_total(incoming));
        RDMA_WAIT(received_.fence_done(parity) && gets_.empty());
        received_.end_fence(parity);
        // A put/get of the next epoch reaches the target's memory without the target: it must
        // not start before every target has applied this epoch's messages.
        if (fence_barrier_ && !(assert_bits & PLEXUS_OSC_MODE_NOSUCCEED))
            if (int rc = svc_->coll->dispatch->barrier(nullptr, comm_); rc != PLEXUS_OSC_SUCCESS)
                return fail(rc, "MPI_Win_fence: the closing barrier failed");
    }
    ++fence_epoch_;
    fence_open_ = !(assert_bits & PLEXUS_OSC_MODE_NOSUCCEED);
    apply_early();
    return PLEXUS_OSC_SUCCESS;
}

int Window::start(int n, const int ranks[], int) {
    if (access_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_start while an access epoch of MPI_Win_start is open");
    if (locks_held_ > 0) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_start inside a lock epoch");
    for (int i = 0; i < n; ++i) peers_[size_t(ranks[i])].in_access_group = true;
    access_open_ = true;
    return PLEXUS_OSC_SUCCESS;
}

int Window::complete() {
    if (!access_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_complete without MPI_Win_start");
    auto posted = [&] {
        for (const Peer &p : peers_)
            if (p.in_access_group && p.posts == 0) return false;
        return true;
    };
    RDMA_WAIT(posted());
    for (Peer &p : peers_)
        if (p.in_access_group)
            if (int rc = finish_access(p); rc != PLEXUS_OSC_SUCCESS) return rc;
    for (Peer &p : peers_) {
        if (!p.in_access_group) continue;
        send_control(p.rank, MsgKind::kComplete, sent_.take(p.rank));
        --p.posts;
    }
    auto gets_done = [&] {
        for (const Peer &p : peers_)
            if (p.in_access_group && p.gets_outstanding > 0) return false;
        return true;
    };
    RDMA_WAIT(gets_done());
    for (Peer &p : peers_) p.in_access_group = false;
    access_open_ = false;
    return PLEXUS_OSC_SUCCESS;
}

int Window::post(int n, const int ranks[], int) {
    if (exposure_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_post while an exposure epoch of MPI_Win_post is open");
    exposure_.assign(ranks, ranks + n);
    exposure_open_ = true;
    for (int r : exposure_) send_control(r, MsgKind::kPost, 0);
    return PLEXUS_OSC_SUCCESS;
}

int Window::end_exposure_if_done(bool *done) {
    for (int r : exposure_)
        if (!received_.pscw_done(r)) {
            *done = false;
            return PLEXUS_OSC_SUCCESS;
        }
    for (int r : exposure_) received_.end_pscw(r);
    exposure_.clear();
    exposure_open_ = false;
    *done = true;
    return PLEXUS_OSC_SUCCESS;
}

int Window::wait() {
    if (!exposure_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_wait without MPI_Win_post");
    auto complete_all = [&] {
        for (int r : exposure_)
            if (!received_.pscw_done(r)) return false;
        return true;
    };
    RDMA_WAIT(complete_all());
    bool done = false;
    return end_exposure_if_done(&done);
}

int Window::test(int *flag) {
    if (!exposure_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_test without MPI_Win_post");
    if (int rc = poll_once(); rc != PLEXUS_OSC_SUCCESS) return rc;
    bool done = false;
    end_exposure_if_done(&done);
    *flag = done ? 1 : 0;
    return PLEXUS_OSC_SUCCESS;
}

int Window::lock(int lock_type, int target, int) {
    if (target < 0 || target >= size_) return fail(PLEXUS_OSC_ERR_RANK, "MPI_Win_lock: rank %d is not in the window's group of %d", target, size_);
    Peer &p = peers_[size_t(target)];
    if (p.lock != LockState::kNone) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_lock: rank %d is already locked by this process", target);
    if (access_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_lock inside a start/complete epoch");
    p.lock = LockState::kRequested;
    p.lock_type = lock_type;
    p.unlock_done = false;
    ++locks_held_;
    // The paper's lock: the request leaves, lock returns; operations wait for the grant.
    return send_control(target, MsgKind::kLockRequest, 0, uint8_t(lock_type));
}

int Window::unlock(int target) {
    if (target < 0 || target >= size_) return fail(PLEXUS_OSC_ERR_RANK, "MPI_Win_unlock: rank %d is not in the window's group of %d", target, size_);
    Peer &p = peers_[size_t(target)];
    if (p.lock == LockState::kNone) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_unlock: rank %d is not locked by this process", target);
    RDMA_WAIT(p.lock == LockState::kGranted);
    if (int rc = finish_access(p); rc != PLEXUS_OSC_SUCCESS) return rc;
    send_control(target, MsgKind::kUnlock, sent_.take(target));
    RDMA_WAIT(p.unlock_done && p.gets_outstanding == 0);
    p.lock = LockState::kNone;
    --locks_held_;
    return PLEXUS_OSC_SUCCESS;
}

}  // namespace plexus::osc_rdma
