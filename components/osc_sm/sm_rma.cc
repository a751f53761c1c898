// Put, get and accumulate: checked against the epoch and the target's window, then done at once
// as copies between the origin's buffer and the target's memory mapped here, datatypes on both
// sides through the services' typed copy. An accumulate holds the target's accumulate lock while
// it reads and writes the target (MPI's per-element atomicity among accumulates).
#include <cstdio>
#include <cstring>
#include <memory>

#include "sm_spinlock.h"
#include "sm_window.h"

namespace plexus::osc_sm {
namespace {

plexus_coll_dtype_info_t info_of(const plexus_osc_services_t *svc, plexus_coll_dtype_t *type) {
    plexus_coll_dtype_info_t i{};
    i.struct_size = sizeof i;
    svc->coll->dtype_info(type, &i);
    return i;
}

// Bytes [lo, hi) relative to an item's address that count items of the type touch.
void touched(const plexus_coll_dtype_info_t &i, int count, __int128 *lo, __int128 *hi) {
    const __int128 step = __int128(count - 1) * i.extent;
    *lo = __int128(i.true_lb) + (step < 0 ? step : 0);
    *hi = __int128(i.true_lb) + i.true_extent + (step > 0 ? step : 0);
}

// The same contiguous layout on both sides (the common put and get of a predefined type): the
// bytes move by one memmove (a rank may put from its own window into itself), without the
// services' typed copy.
bool same_contiguous(plexus_coll_dtype_t *a, int acount, plexus_coll_dtype_t *b, int bcount,
                     const plexus_coll_dtype_info_t &i) {
    return a == b && acount == bcount && i.contiguous;
}

}  // namespace

int Window::enter(const char *call, int target) {
    if (target < 0 || target >= size_)
        return fail(PLEXUS_OSC_ERR_RANK, "%s: target rank %d is not in the window's group of %d", call, target, size_);
    Peer &p = peers_[size_t(target)];
    if (!fence_open_ && !p.in_access && p.lock == Lock::kNone)
        return fail(PLEXUS_OSC_ERR_RMA_SYNC,
                    "%s to rank %d outside an access epoch (no fence, MPI_Win_start naming it, or lock covers it)",
                    call, target);
    // An access of a start epoch waits for the target's post (start itself never blocks).
    if (p.in_access && !p.post_seen) return wait_posted(p);
    return PLEXUS_OSC_SUCCESS;
}

// Where the target's data of (disp, count, type) starts in this process, after checking that all
// of it lies in the target's window. *empty: nothing to move.
int Window::locate(const char *call, int target, ptrdiff_t disp, int count, plexus_coll_dtype_t *type, uint8_t **addr,
                   plexus_coll_dtype_info_t *info, bool *empty) {
    if (int rc = enter(call, target); rc != PLEXUS_OSC_SUCCESS) return rc;
    const Peer &p = peers_[size_t(target)];
    const plexus_coll_dtype_info_t &ti = *info = info_of(svc_, type);
    *empty = count == 0 || ti.size == 0;
    if (*empty) return PLEXUS_OSC_SUCCESS;
    if (disp < 0)
        return fail(PLEXUS_OSC_ERR_DISP, "%s: target_disp %lld is negative (rank %d's window)", call, (long long)disp,
                    target);
    __int128 lo = 0, hi = 0;
    touched(ti, count, &lo, &hi);
    const __int128 at = __int128(disp) * p.disp_unit;
    if (at + lo < 0 || at + hi > __int128(p.size))
        return fail(PLEXUS_OSC_ERR_DISP,
                    "%s: the access at target_disp %lld (disp_unit %d) covers bytes [%lld, %lld) of rank %d's "
                    "window, which has %llu bytes",
                    call, (long long)disp, p.disp_unit, (long long)(at + lo), (long long)(at + hi), target,
                    (unsigned long long)p.size);
    *addr = p.base + ptrdiff_t(at);
    return PLEXUS_OSC_SUCCESS;
}

int Window::put(const void *origin, int ocount, plexus_coll_dtype_t *otype, int target, ptrdiff_t disp, int tcount,
                plexus_coll_dtype_t *ttype) {
    uint8_t *to = nullptr;
    plexus_coll_dtype_info_t ti;
    bool empty = false;
    if (int rc = locate("MPI_Put", target, disp, tcount, ttype, &to, &ti, &empty); rc != PLEXUS_OSC_SUCCESS || empty)
        return rc;
    if (same_contiguous(otype, ocount, ttype, tcount, ti)) {
        std::memmove(to + ti.true_lb, static_cast<const uint8_t *>(origin) + ti.true_lb, size_t(tcount) * ti.size);
        return PLEXUS_OSC_SUCCESS;
    }
    if (int rc = svc_->coll->copy(origin, ocount, otype, to, tcount, ttype))
        return fail(rc, "MPI_Put: the copy to rank %d failed", target);
    return PLEXUS_OSC_SUCCESS;
}

int Window::get(void *origin, int ocount, plexus_coll_dtype_t *otype, int target, ptrdiff_t disp, int tcount,
                plexus_coll_dtype_t *ttype) {
    uint8_t *from = nullptr;
    plexus_coll_dtype_info_t ti;
    bool empty = false;
    if (int rc = locate("MPI_Get", target, disp, tcount, ttype, &from, &ti, &empty); rc != PLEXUS_OSC_SUCCESS || empty)
        return rc;
    if (same_contiguous(otype, ocount, ttype, tcount, ti)) {
        std::memmove(static_cast<uint8_t *>(origin) + ti.true_lb, from + ti.true_lb, size_t(tcount) * ti.size);
        return PLEXUS_OSC_SUCCESS;
    }
    if (int rc = svc_->coll->copy(from, tcount, ttype, origin, ocount, otype))
        return fail(rc, "MPI_Get: the copy from rank %d failed", target);
    return PLEXUS_OSC_SUCCESS;
}

// The operation applies to the target's layout: an origin laid out differently is first copied
// into that layout, outside the lock.
int Window::accumulate(const void *origin, int ocount, plexus_coll_dtype_t *otype, int target, ptrdiff_t disp,
                       int tcount, plexus_coll_dtype_t *ttype, plexus_coll_op_t *op) {
    uint8_t *to = nullptr;
    plexus_coll_dtype_info_t ti;
    bool empty = false;
    if (int rc = locate("MPI_Accumulate", target, disp, tcount, ttype, &to, &ti, &empty); rc != PLEXUS_OSC_SUCCESS || empty)
        return rc;
    const void *in = origin;
    std::unique_ptr<std::max_align_t[]> staging;
    if (otype != ttype || ocount != tcount) {
        __int128 lo = 0, hi = 0;
        touched(ti, tcount, &lo, &hi);
        const size_t bytes = size_t(hi - lo);
        staging.reset(new (std::nothrow) std::max_align_t[bytes / sizeof(std::max_align_t) + 1]);
        if (!staging) return fail(PLEXUS_OSC_ERR_NO_MEM, "MPI_Accumulate: no memory to stage %zu bytes", bytes);
        auto *item0 = reinterpret_cast<uint8_t *>(staging.get()) - ptrdiff_t(lo);
        if (int rc = svc_->coll->copy(origin, ocount, otype, item0, tcount, ttype))
            return fail(rc, "MPI_Accumulate: staging the origin data in the target's layout failed");
        in = item0;
    }
    SpinLock guard(peers_[size_t(target)].ctl->acc);
    if (int rc = guard.lock(host_->progress_wait); rc != PLEXUS_SUCCESS)
        return fail(PLEXUS_OSC_ERR_OTHER, "MPI_Accumulate: waiting for rank %d's accumulate lock failed (%d)", target, rc);
    const int rc = svc_->coll->op_apply(op, in, to, tcount, ttype);
    guard.unlock();
    return rc == PLEXUS_OSC_SUCCESS ? rc : fail(rc, "MPI_Accumulate: the operation on rank %d's data failed", target);
}

}  // namespace plexus::osc_sm
