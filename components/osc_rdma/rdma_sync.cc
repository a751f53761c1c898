// Synchronisation as in the paper. Fence: every process tells every other how many operations
// it sent it (the count exchange), then waits until that many arrived. PSCW: post messages open
// the origins' access, complete carries the count per target, wait waits for the counts. Lock:
// the request goes out and lock returns; operations start at the grant; unlock sends the count
// and waits for the target's release. A completion message (complete, unlock, the count
// exchange) leaves only after every put/get to that peer completed locally: the BTL promises no
// order between its put/get and its sends.
#include <plexus/output.h>

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

// Every operation to p issued and every put/get to it complete locally: after this a message to
// p may announce the epoch's end (the completion rule).
int Window::complete_rma(Peer &p) {
    if (int rc = issue_queued(p); rc != PLEXUS_OSC_SUCCESS) return rc;
    RDMA_WAIT(p.queued.empty() && p.rma_outstanding == 0 && p.deferred_rma.empty());
    // The epoch's batched gets or puts (rdma_epoch_copy.cc): moved now, or as messages that
    // the closing message follows (a put too large for one message by the BTL's put: waited for).
    if (int rc = flush_copies(p); rc != PLEXUS_OSC_SUCCESS) return rc;
    if (p.rma_outstanding != 0 || !p.deferred_rma.empty()) RDMA_WAIT(p.rma_outstanding == 0 && p.deferred_rma.empty());
    p.sent_writes = p.sent_reads = false;
    if (p.rma_error != 0) {
        const int e = p.rma_error;
        p.rma_error = 0;
        return fail(PLEXUS_OSC_ERR_OTHER, "a transfer to rank %d failed (error %d)", p.rank, e);
    }
    return PLEXUS_OSC_SUCCESS;
}

int Window::finish_access(Peer &p) {
    if (int rc = complete_rma(p); rc != PLEXUS_OSC_SUCCESS) return rc;
    return p.outbox->flush();
}

// The column of this process in the matrix of counts: what every origin sent here, summed by a
// reduce_scatter as in the paper (services 1.1 name an int type and MPI_SUM); a core with older
// services gets an alltoall of the counts and the sum made here, the same numbers.
int Window::exchange_counts(const std::vector<uint32_t> &sent, std::vector<uint32_t> *received) {
    const plexus_coll_services_t *coll = svc_->coll;
    if (PLEXUS_OSC_SERVICES_HAVE(svc_, op_sum) && svc_->int_type && svc_->op_sum && coll->dispatch->reduce_scatter_block) {
        std::vector<int> counts(sent.begin(), sent.end());
        int mine = 0;
        const int rc = coll->dispatch->reduce_scatter_block(nullptr, counts.data(), &mine, 1, svc_->int_type,
                                                            svc_->op_sum, comm_);
        if (rc != PLEXUS_OSC_SUCCESS) return fail(rc, "MPI_Win_fence: the reduce_scatter of operation counts failed");
        received->assign(1, uint32_t(mine));
        return PLEXUS_OSC_SUCCESS;
    }
    received->assign(size_t(size_), 0);
    const int rc = coll->dispatch->alltoall(nullptr, sent.data(), int(sizeof(uint32_t)), coll->byte_type,
                                            received->data(), int(sizeof(uint32_t)), coll->byte_type, comm_);
    return rc == PLEXUS_OSC_SUCCESS ? rc : fail(rc, "MPI_Win_fence: the exchange of operation counts failed");
}

// The last message of an epoch to a process says how many records it carried in all (flag:
// kFlagFenceEnd, kFlagComplete or kFlagUnlock): the last data message when records are waiting in
// the buffer (the count rides along), else a message of its own.
int Window::close_epoch(Peer &p, uint8_t flag) {
    p.closing = flag;
    if (!p.outbox->empty())
        if (int rc = p.outbox->flush(); rc != PLEXUS_OSC_SUCCESS) return rc;
    if (!p.closing) return PLEXUS_OSC_SUCCESS;  // the flush carried it (sink)
    control_.resize(kMsgHeaderBytes);
    return sink(p, control_, 0);
}

// A window of one or two processes: the fence is one message each way (the peer's count, the
// last records riding along), where the collective costs several. Put/get of the next epoch
// need the peer to have applied our records of this one: the first one asks it (kFenceQuery)
// and waits; epochs that send it no records, or do no put/get, never ask.
// This process's own records go round the loopback queue (its count needs no message) and are
// applied before the peer hears our fence end: the peer's get or single copy of the next epoch
// may read what we put into our own window without asking us first.
int Window::fence_direct(int assert_bits) {
    for (Peer &p : peers_)
        if (int rc = complete_rma(p); rc != PLEXUS_OSC_SUCCESS) return rc;
    const int parity = int(fence_epoch_ & 1u);
    Peer &self = peers_[size_t(rank_)];
    if (int rc = self.outbox->flush(); rc != PLEXUS_OSC_SUCCESS) return rc;
    received_.expect_fence(parity, sent_.take(rank_));
    ++fence_ends_[parity];
    if (!in_progress_) {
        in_progress_ = true;
        drain_loopback();
        in_progress_ = false;
    }
    for (Peer &p : peers_)
        if (p.rank != rank_)
            if (int rc = close_epoch(p, kFlagFenceEnd); rc != PLEXUS_OSC_SUCCESS) return rc;
    RDMA_WAIT(fence_ends_[parity] >= uint32_t(size_) && received_.fence_done(parity) && gets_.empty());
    fence_ends_[parity] -= uint32_t(size_);
    received_.end_fence(parity);
    trace(PLEXUS_LOG_TRACE, "fence %u (assert %d): one message to each process", fence_epoch_ + 1, assert_bits);
    return PLEXUS_OSC_SUCCESS;
}

// More processes: the paper's fence, a reduce_scatter of the counts, then waiting for that many.
int Window::fence_collective(int assert_bits) {
    // NOPRECEDE (given by every process, MPI says) promises there is nothing to complete; the
    // fence must still keep the next epoch's operations out of every window until its owner
    // has called it: a barrier does that, unless no epoch follows either.
    if (assert_bits & PLEXUS_OSC_MODE_NOPRECEDE) {
        if (!(assert_bits & PLEXUS_OSC_MODE_NOSUCCEED))
            if (int rc = svc_->coll->dispatch->barrier(nullptr, comm_); rc != PLEXUS_OSC_SUCCESS)
                return fail(rc, "MPI_Win_fence: the barrier failed");
        trace(PLEXUS_LOG_TRACE, "fence %u: MPI_MODE_NOPRECEDE: %s", fence_epoch_ + 1,
              (assert_bits & PLEXUS_OSC_MODE_NOSUCCEED) ? "nothing to do" : "a barrier, no count exchange");
        return PLEXUS_OSC_SUCCESS;
    }
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
    const bool barrier = fence_barrier_ && !(assert_bits & PLEXUS_OSC_MODE_NOSUCCEED);
    if (barrier)
        if (int rc = svc_->coll->dispatch->barrier(nullptr, comm_); rc != PLEXUS_OSC_SUCCESS)
            return fail(rc, "MPI_Win_fence: the closing barrier failed");
    trace(PLEXUS_LOG_TRACE, "fence %u: counts by reduce_scatter, %llu records in%s", fence_epoch_ + 1,
          (unsigned long long)incoming_total(incoming), barrier ? ", then a barrier (put/get may follow)" : "");
    return PLEXUS_OSC_SUCCESS;
}

int Window::fence(int assert_bits) {
    if (access_open_ || exposure_open_ || locks_held_ > 0)
        return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_fence inside a %s epoch",
                    locks_held_ > 0 ? "lock" : access_open_ ? "start/complete" : "post/wait");
    const int rc = direct_fence_ ? fence_direct(assert_bits) : fence_collective(assert_bits);
    if (rc != PLEXUS_OSC_SUCCESS) return rc;
    ++fence_epoch_;
    fence_open_ = !(assert_bits & PLEXUS_OSC_MODE_NOSUCCEED);
    answer_done_queries();
    apply_early();
    return PLEXUS_OSC_SUCCESS;
}

// kFenceQuery: the peer waits for this process to end a fence (its records applied) before a
// put/get into this window.
void Window::answer_done_queries() {
    size_t kept = 0;
    for (const auto &[rank, count] : done_queries_) {
        if (fence_epoch_ >= count) send_control(rank, MsgKind::kFenceDone, 0, 0, count);
        else done_queries_[kept++] = {rank, count};
    }
    done_queries_.resize(kept);
}

void Window::query_done(Peer &p) {
    if (p.done_queried) return;
    p.done_queried = true;
    trace(PLEXUS_LOG_TRACE, "put/get to rank %d waits until it has applied the records of fence epoch %u", p.rank, p.await_fence);
    send_control(p.rank, MsgKind::kFenceQuery, 0, 0, p.await_fence);
}

// MPI_MODE_NOCHECK (given to the matching post too, MPI says): the posts are known to have
// happened, so no post message travels and operations start at once.
int Window::start(int n, const int ranks[], int assert_bits) {
    if (access_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_start while an access epoch of MPI_Win_start is open");
    if (locks_held_ > 0) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_start inside a lock epoch");
    for (int i = 0; i < n; ++i) peers_[size_t(ranks[i])].in_access_group = true;
    access_open_ = true;
    access_nocheck_ = (assert_bits & PLEXUS_OSC_MODE_NOCHECK) != 0;
    trace(PLEXUS_LOG_TRACE, "start: %d targets%s", n, access_nocheck_ ? ", MPI_MODE_NOCHECK: no waiting for posts" : "");
    return PLEXUS_OSC_SUCCESS;
}

int Window::complete() {
    if (!access_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_complete without MPI_Win_start");
    auto posted = [&] {
        for (const Peer &p : peers_)
            if (p.in_access_group && p.posts == 0) return false;
        return true;
    };
    if (!access_nocheck_) RDMA_WAIT(posted());
    for (Peer &p : peers_)
        if (p.in_access_group)
            if (int rc = complete_rma(p); rc != PLEXUS_OSC_SUCCESS) return rc;
    for (Peer &p : peers_) {
        if (!p.in_access_group) continue;
        if (int rc = close_epoch(p, kFlagComplete); rc != PLEXUS_OSC_SUCCESS) return rc;
        if (!access_nocheck_) --p.posts;
    }
    auto gets_done = [&] {
        for (const Peer &p : peers_)
            if (p.in_access_group && p.gets_outstanding > 0) return false;
        return true;
    };
    RDMA_WAIT(gets_done());
    for (Peer &p : peers_) p.in_access_group = false;
    access_open_ = false;
    access_nocheck_ = false;
    return PLEXUS_OSC_SUCCESS;
}

int Window::post(int n, const int ranks[], int assert_bits) {
    if (exposure_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_post while an exposure epoch of MPI_Win_post is open");
    exposure_.assign(ranks, ranks + n);
    exposure_open_ = true;
    // MPI_MODE_NOCHECK: the matching starts were told the same and wait for no post message.
    if (!(assert_bits & PLEXUS_OSC_MODE_NOCHECK))
        for (int r : exposure_) send_control(r, MsgKind::kPost, 0);
    trace(PLEXUS_LOG_TRACE, "post: %d origins%s", n, (assert_bits & PLEXUS_OSC_MODE_NOCHECK) ? ", MPI_MODE_NOCHECK: no post messages" : "");
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

int Window::lock(int lock_type, int target, int assert_bits) {
    if (target < 0 || target >= size_) return fail(PLEXUS_OSC_ERR_RANK, "MPI_Win_lock: rank %d is not in the window's group of %d", target, size_);
    Peer &p = peers_[size_t(target)];
    if (p.lock != LockState::kNone) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_lock: rank %d is already locked by this process", target);
    if (access_open_) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_lock inside a start/complete epoch");
    if (async_) return lock_direct(p, lock_type, assert_bits);  // the target takes no part
    p.lock_type = lock_type;
    p.unlock_done = false;
    ++locks_held_;
    // MPI_MODE_NOCHECK: no other process holds or asks for a conflicting lock (the program
    // promises), so the lock is ours at once: the request only tells the target, no grant comes.
    if (assert_bits & PLEXUS_OSC_MODE_NOCHECK) {
        p.lock = LockState::kGranted;
        trace(PLEXUS_LOG_TRACE, "lock of rank %d with MPI_MODE_NOCHECK: operations start at once", target);
        return send_control(target, MsgKind::kLockRequest, 0, uint8_t(lock_type), 0, kFlagNoCheck);
    }
    // The paper's lock: the request leaves, lock returns; operations wait for the grant.
    p.lock = LockState::kRequested;
    return send_control(target, MsgKind::kLockRequest, 0, uint8_t(lock_type));
}

int Window::unlock(int target) {
    if (target < 0 || target >= size_) return fail(PLEXUS_OSC_ERR_RANK, "MPI_Win_unlock: rank %d is not in the window's group of %d", target, size_);
    Peer &p = peers_[size_t(target)];
    if (p.lock == LockState::kNone) return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_unlock: rank %d is not locked by this process", target);
    if (p.direct) return unlock_direct(p);
    RDMA_WAIT(p.lock == LockState::kGranted);
    if (int rc = complete_rma(p); rc != PLEXUS_OSC_SUCCESS) return rc;
    if (int rc = close_epoch(p, kFlagUnlock); rc != PLEXUS_OSC_SUCCESS) return rc;
    RDMA_WAIT(p.unlock_done && p.gets_outstanding == 0);
    p.lock = LockState::kNone;
    --locks_held_;
    return PLEXUS_OSC_SUCCESS;
}

}  // namespace plexus::osc_rdma
