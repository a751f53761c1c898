// Passive target without the target (osc_rdma_async_progress, rdma_async.h): in a window whose
// members all took part in the shared segment, MPI_Win_lock takes the target's lock word itself,
// put and get move the data by single copy at once, an accumulate reads the target's bytes, applies
// the operation here and writes them back under the target's accumulate lock, and MPI_Win_unlock
// releases the word. Contiguous puts and gets of an epoch are batched into one single copy at
// unlock (or before an accumulate, or every kDirectBatch); everything else moves in its call. The
// target never acts.
#include <atomic>
#include <cstring>
#include <string>

#include <plexus/output.h>

#include "rdma_window.h"

namespace plexus::osc_rdma {
namespace {

// Contiguous puts or gets batched before their single copy goes (the host's call takes up to a
// kernel's IOV_MAX per system call itself).
constexpr size_t kDirectBatch = 1024;

// The target bytes of a plain accumulate up to this size pass through the stack: the short
// accumulate under a lock allocates nothing.
constexpr size_t kStackImage = 2048;

// The bytes [lo, hi) around an item's address that count items of the layout touch.
void touched(const plexus_coll_dtype_info_t &i, int count, __int128 *lo, __int128 *hi) {
    const __int128 step = __int128(count - 1) * i.extent;
    *lo = __int128(i.true_lb) + (step < 0 ? step : 0);
    *hi = __int128(i.true_lb) + i.true_extent + (step > 0 ? step : 0);
}

// The runs of a derived target layout: unpacking 0xff bytes into a zeroed image of [lo, hi) marks
// the bytes it covers, in memory order whatever the order of its type map.
int layout_runs(const plexus_osc_services_t *svc, const PendingOp &op, __int128 lo, size_t span,
                uint64_t at, std::vector<Run> *runs) {
    const size_t bytes = size_t(op.target_count) * op.ti.size;
    std::vector<uint8_t> mask(span, 0), ones(bytes, 0xff);
    if (int rc = svc->unpack(mask.data() - ptrdiff_t(lo), op.target_count, op.target_type, 0,
                             ones.data(), bytes))
        return rc;
    for (size_t i = 0; i < span;) {
        if (!mask[i]) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < span && mask[j]) ++j;
        runs->push_back({at + i, j - i});
        i = j;
    }
    return PLEXUS_OSC_SUCCESS;
}

}  // namespace

int Window::setup_async() {
    async_ = std::make_unique<AsyncPassive>(host_, svc_, comm_, rank_, size_);
    std::string why;
    if (int rc = async_->setup(*table_, &why); rc != PLEXUS_OSC_SUCCESS)
        return fail(rc, "the set-up of the shared lock segment failed");
    if (!async_->ready()) {
        async_.reset();
        trace(PLEXUS_LOG_DECISION, "passive target by messages (the target's progress engine): %s",
              why.c_str());
        return PLEXUS_OSC_SUCCESS;
    }
    trace(PLEXUS_LOG_DECISION,
          "passive target without the target: lock words in a shared segment, data by single copy "
          "(%d members "
          "on this node)",
          size_);
    return PLEXUS_OSC_SUCCESS;
}

int Window::lock_direct(Peer &p, int lock_type, int assert_bits) {
    const bool exclusive = lock_type == PLEXUS_OSC_LOCK_EXCLUSIVE;
    // MPI_MODE_NOCHECK: nobody else holds or asks for a conflicting lock (the program promises),
    // so there is nothing to take.
    const bool take = !(assert_bits & PLEXUS_OSC_MODE_NOCHECK);
    if (take)
        if (int rc = async_->lock(p.rank, exclusive); rc != PLEXUS_SUCCESS)
            return fail(PLEXUS_OSC_ERR_OTHER,
                        "MPI_Win_lock: waiting for rank %d's lock failed (%d)", p.rank, rc);
    p.lock = LockState::kGranted;
    p.lock_type = lock_type;
    p.direct = true;
    p.direct_held = take;
    ++locks_held_;
    trace(PLEXUS_LOG_TRACE, "lock (%s) of rank %d held through the shared segment",
          exclusive ? "exclusive" : "shared", p.rank);
    return PLEXUS_OSC_SUCCESS;
}

int Window::unlock_direct(Peer &p) {
    // The batched transfers go now (single copy returns when the bytes are there); the release
    // orders them before whoever takes the lock next. The lock is released even when they
    // failed: the others must not wait for it forever.
    const int rc = flush_direct(p, "MPI_Win_unlock");
    if (p.direct_held)
        async_->unlock(p.rank, p.lock_type == PLEXUS_OSC_LOCK_EXCLUSIVE);
    else
        std::atomic_thread_fence(std::memory_order_seq_cst);
    p.lock = LockState::kNone;
    p.direct = p.direct_held = false;
    --locks_held_;
    return rc;
}

// Moves the batched contiguous puts (or gets) to p in one single copy of many runs.
int Window::flush_direct(Peer &p, const char *call) {
    if (p.batch_local.empty()) return PLEXUS_OSC_SUCCESS;
    std::string why;
    const int rc = async_->copy(p.rank, p.batch_local.data(), p.batch_local.size(),
                                p.batch_remote.data(), p.batch_remote.size(), p.batch_write, &why);
    const size_t n = p.batch_local.size();
    p.batch_local.clear();
    p.batch_remote.clear();
    if (rc != PLEXUS_SUCCESS)
        return fail(PLEXUS_OSC_ERR_OTHER, "%s: single copy of %zu %s rank %d failed: %s", call, n,
                    p.batch_write ? "puts to" : "gets from", p.rank, why.c_str());
    return PLEXUS_OSC_SUCCESS;
}

// Moves the image's bytes of the runs between here and the target: image is the target's byte at
// address at, as kept here.
int Window::direct_move(const char *call, int target, const std::vector<Run> &runs, uint8_t *image,
                        uint64_t at, bool write) {
    std::vector<plexus_shm_iovec_t> local(runs.size());
    for (size_t i = 0; i < runs.size(); ++i)
        local[i] = {image + (runs[i].addr - at), size_t(runs[i].len)};
    std::string why;
    if (async_->copy(target, local.data(), local.size(), runs.data(), runs.size(), write, &why) !=
        PLEXUS_SUCCESS)
        return fail(PLEXUS_OSC_ERR_OTHER, "%s: single copy %s rank %d failed: %s", call,
                    write ? "to" : "from", target, why.c_str());
    return PLEXUS_OSC_SUCCESS;
}

// One operation of a direct lock epoch (checked by start_op: epoch, range, not empty). Contiguous
// at both ends, a put or get joins the epoch's batch. Otherwise the target's bytes travel through
// an image of [lo, hi) around the access, and a derived target layout as the runs of bytes it
// covers, so holes are never written (another origin may own them under a shared lock).
int Window::direct_op(const char *call, const PendingOp &op, int target) {
    const plexus_coll_dtype_info_t &oi = op.oi, &ti = op.ti;
    const size_t bytes = size_t(op.target_count) * ti.size;
    __int128 lo = 0, hi = 0;
    touched(ti, op.target_count, &lo, &hi);
    const size_t span = size_t(hi - lo);
    const uint64_t at =
        table_->at(target).base + table_->byte_disp(target, op.disp) + uint64_t(int64_t(lo));
    const bool plain =
        ti.contiguous && oi.contiguous;  // the origin's bytes are the target's, as they lie

    Peer &p = peers_[size_t(target)];
    const bool write = op.kind == OpKind::kPut;
    if (op.kind == OpKind::kAccumulate || p.batch_write != write)
        if (int rc = flush_direct(p, call); rc != PLEXUS_OSC_SUCCESS) return rc;
    if (plain && op.kind != OpKind::kAccumulate) {
        // The origin's own bytes: batched, moved with the others of the epoch at unlock (the
        // common lock/put/unlock: no allocation here, one system call at unlock).
        auto *own =
            static_cast<uint8_t *>(write ? const_cast<void *>(op.origin) : op.result) + oi.true_lb;
        p.batch_write = write;
        // Consecutive at both ends (puts of neighbouring elements from neighbouring buffers): one
        // run, since the kernel pins pages run by run.
        if (!p.batch_local.empty()) {
            plexus_shm_iovec_t &l = p.batch_local.back();
            Run &r = p.batch_remote.back();
            if (static_cast<uint8_t *>(l.base) + l.len == own && r.addr + r.len == at) {
                l.len += bytes;
                r.len += bytes;
                return PLEXUS_OSC_SUCCESS;
            }
        }
        p.batch_local.push_back({own, bytes});
        p.batch_remote.push_back({at, bytes});
        return p.batch_local.size() < kDirectBatch ? PLEXUS_OSC_SUCCESS : flush_direct(p, call);
    }
    if (op.kind == OpKind::kAccumulate && plain && op.origin_type == op.target_type &&
        op.origin_count == op.target_count)
        return direct_accumulate_plain(call, op, target, at);
    std::vector<Run> runs;
    if (ti.contiguous)
        runs.push_back({at, bytes});
    else if (int rc = layout_runs(svc_, op, lo, span, at, &runs))
        return fail(rc, "%s: the target layout could not be laid out", call);
    std::vector<uint8_t> image(span, 0);  // the target's bytes [lo, hi) as they travel
    uint8_t *data = image.data();
    uint8_t *item0 = data - ptrdiff_t(lo);  // where the image's first item begins
    const plexus_coll_services_t *coll = svc_->coll;

    if (op.kind == OpKind::kPut) {
        const int rc = ti.contiguous
                           ? svc_->pack(op.origin, op.origin_count, op.origin_type, 0, data, bytes)
                           : coll->copy(op.origin, op.origin_count, op.origin_type, item0,
                                        op.target_count, op.target_type);
        if (rc)
            return fail(rc, "%s: the origin data could not be laid out for rank %d", call, target);
        return direct_move(call, target, runs, data, at, true);
    }
    if (op.kind == OpKind::kGet) {
        if (int rc = direct_move(call, target, runs, data, at, false); rc != PLEXUS_OSC_SUCCESS)
            return rc;
        const int rc =
            ti.contiguous ? svc_->unpack(op.result, op.origin_count, op.origin_type, 0, data, bytes)
                          : coll->copy(item0, op.target_count, op.target_type, op.result,
                                       op.origin_count, op.origin_type);
        return rc ? fail(rc, "%s: the data from rank %d could not be laid out in the origin buffer",
                         call, target)
                  : rc;
    }

    return direct_accumulate(call, op, target, runs, data, at, lo, span);
}

// The common accumulate: the same contiguous type and count at both ends, so the origin's bytes
// are already laid out as the target's. The target's bytes travel through the stack when short
// (the general path allocates a run list, an image and an iovec list). An exclusive lock keeps
// every other accumulate to this target out already (another process reaches it only through the
// lock word: MPI forbids exposing a window while it is locked), so the accumulate lock is taken
// only under a shared lock. MPI_REPLACE reads nothing: one system call.
int Window::direct_accumulate_plain(const char *call, const PendingOp &op, int target, uint64_t at) {
    const size_t bytes = size_t(op.target_count) * op.ti.size;
    const bool alone = peers_[size_t(target)].lock_type == PLEXUS_OSC_LOCK_EXCLUSIVE;
    const bool replace = svc_->op_id(op.op) == PLEXUS_OSC_OP_REPLACE;
    uint8_t stack[kStackImage];
    std::vector<uint8_t> heap;
    uint8_t *image = stack;
    if (replace)  // the origin's own bytes go as they lie
        image = static_cast<uint8_t *>(const_cast<void *>(op.origin)) + op.oi.true_lb;
    else if (bytes > sizeof stack) {
        heap.resize(bytes);
        image = heap.data();
    }
    if (!alone)
        if (int rc = async_->lock_accumulate(target); rc != PLEXUS_SUCCESS)
            return fail(PLEXUS_OSC_ERR_OTHER,
                        "%s: waiting for rank %d's accumulate lock failed (%d)", call, target, rc);
    const plexus_shm_iovec_t local{image, bytes};
    const Run remote{at, bytes};
    std::string why;
    const char *step = "to";
    int rc = PLEXUS_OSC_SUCCESS;
    if (!replace) {
        step = "from";
        rc = async_->copy(target, &local, 1, &remote, 1, false, &why);
        if (rc == PLEXUS_SUCCESS) {
            step = "to";
            if (int arc = svc_->coll->op_apply(op.op, op.origin, image - op.ti.true_lb,
                                               op.target_count, op.target_type)) {
                if (!alone) async_->unlock_accumulate(target);
                return fail(arc, "%s: the operation on rank %d's data failed", call, target);
            }
        }
    }
    if (rc == PLEXUS_SUCCESS) rc = async_->copy(target, &local, 1, &remote, 1, true, &why);
    if (!alone) async_->unlock_accumulate(target);
    return rc == PLEXUS_SUCCESS ? PLEXUS_OSC_SUCCESS
                                : fail(PLEXUS_OSC_ERR_OTHER, "%s: single copy %s rank %d failed: %s",
                                       call, step, target, why.c_str());
}

// Accumulate: the origin in the target's layout (staged outside the lock when it differs), then
// read, apply, write back with the target's accumulate lock held.
int Window::direct_accumulate(const char *call, const PendingOp &op, int target,
                              const std::vector<Run> &runs, uint8_t *image, uint64_t at,
                              __int128 lo, size_t span) {
    const plexus_coll_services_t *coll = svc_->coll;
    const void *in = op.origin;
    std::vector<uint8_t> staging;
    if (op.origin_type != op.target_type || op.origin_count != op.target_count) {
        staging.assign(span, 0);
        uint8_t *s0 = staging.data() - ptrdiff_t(lo);
        if (int rc = coll->copy(op.origin, op.origin_count, op.origin_type, s0, op.target_count,
                                op.target_type))
            return fail(rc, "%s: staging the origin data in the target's layout failed", call);
        in = s0;
    }
    if (int rc = async_->lock_accumulate(target); rc != PLEXUS_SUCCESS)
        return fail(PLEXUS_OSC_ERR_OTHER, "%s: waiting for rank %d's accumulate lock failed (%d)",
                    call, target, rc);
    int rc = direct_move(call, target, runs, image, at, false);
    if (rc == PLEXUS_OSC_SUCCESS) {
        rc = coll->op_apply(op.op, in, image - ptrdiff_t(lo), op.target_count, op.target_type);
        if (rc) rc = fail(rc, "%s: the operation on rank %d's data failed", call, target);
    }
    if (rc == PLEXUS_OSC_SUCCESS) rc = direct_move(call, target, runs, image, at, true);
    async_->unlock_accumulate(target);
    return rc;
}

}  // namespace plexus::osc_rdma
