// The origin side of put, get and accumulate: check the epoch and the target range, then issue
// the operation by the protocol chosen for it, or queue it until the epoch lets it start (a lock
// not yet granted, a post not yet arrived) or, under sendrecv, until the closing synchronisation.
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "rdma_window.h"

namespace plexus::osc_rdma {
namespace {

plexus_coll_dtype_info_t info_of(const plexus_osc_services_t *svc, plexus_coll_dtype_t *type) {
    plexus_coll_dtype_info_t info{};
    info.struct_size = sizeof info;
    svc->coll->dtype_info(type, &info);
    return info;
}

}  // namespace

int Window::fail(int cls, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (svc_ && svc_->set_error) svc_->set_error(win_, "%s", msg);
    return cls;
}

bool Window::in_access_epoch(const Peer &p) const {
    if (p.lock != LockState::kNone) return true;
    if (access_open_) return p.in_access_group;
    return fence_open_;
}

int Window::epoch_allows_now(const Peer &p) const {
    if (p.lock != LockState::kNone) return p.lock == LockState::kGranted;
    if (access_open_) return p.in_access_group && p.posts > 0;
    return fence_open_;
}

int Window::check_access(const char *call, int target, int64_t disp, int tcount, const plexus_coll_dtype_info_t &info,
                         size_t *bytes) {
    Access a;
    a.disp = disp;
    a.lb = info.true_lb;
    a.span = (tcount > 0 && info.size > 0) ? uint64_t(info.true_extent) + uint64_t(tcount - 1) * uint64_t(info.extent) : 0;
    std::string why;
    if (int rc = table_->check(target, a, &why); rc != PLEXUS_OSC_SUCCESS) return fail(rc, "%s: %s", call, why.c_str());
    *bytes = size_t(tcount) * info.size;
    return PLEXUS_OSC_SUCCESS;
}

Protocol Window::protocol_for(int target, const OpShape &op) const {
    const Peer &p = peers_[size_t(target)];
    PathCaps caps;
    const uint32_t c = p.rma_path.btl ? p.rma_path.btl->caps : 0;
    caps.can_put = p.rma_handle && (c & PLEXUS_BTL_CAP_PUT);
    caps.can_get = p.rma_handle && (c & PLEXUS_BTL_CAP_GET);
    caps.buffer_room = p.outbox ? p.outbox->payload_room(0) : 0;
    return choose(config_.protocol, op, caps);
}

int Window::start_op(const char *call, PendingOp op, int target) {
    if (target < 0 || target >= size_) return fail(PLEXUS_OSC_ERR_RANK, "%s: target rank %d is not in the window's group of %d", call, target, size_);
    Peer &p = peers_[size_t(target)];
    if (!in_access_epoch(p))
        return fail(PLEXUS_OSC_ERR_RMA_SYNC,
                    "%s to rank %d outside an access epoch (no fence, MPI_Win_start naming it, or lock covers it)",
                    call, target);
    op.oi = info_of(svc_, op.origin_type);
    op.ti = info_of(svc_, op.target_type);
    size_t bytes = 0;
    if (int rc = check_access(call, target, op.disp, op.target_count, op.ti, &bytes); rc != PLEXUS_OSC_SUCCESS)
        return rc;
    if (bytes == 0) return PLEXUS_OSC_SUCCESS;
    if (config_.protocol == Setting::kSendRecv || !epoch_allows_now(p) || !p.queued.empty()) {
        p.queued.push_back(op);  // behind earlier queued ones: operations keep their order
        return PLEXUS_OSC_SUCCESS;
    }
    return issue(target, op);
}

int Window::issue_queued(Peer &p) {
    std::vector<PendingOp> ops;
    ops.swap(p.queued);
    for (const PendingOp &op : ops)
        if (int rc = issue(p.rank, op); rc != PLEXUS_OSC_SUCCESS) return rc;
    return PLEXUS_OSC_SUCCESS;
}

int Window::issue(int target, const PendingOp &op) {
    Peer &p = peers_[size_t(target)];
    const plexus_coll_dtype_info_t &oi = op.oi, &ti = op.ti;
    OpShape shape;
    shape.kind = op.kind;
    shape.bytes = size_t(op.target_count) * ti.size;
    shape.contiguous = oi.contiguous && ti.contiguous;
    const Protocol proto = protocol_for(target, shape);
    if (proto == Protocol::kRma) return issue_rma(p, op, shape.bytes, oi.true_lb, ti.true_lb);
    return issue_buffered(p, op, proto);
}

int Window::issue_rma(Peer &p, const PendingOp &op, size_t bytes, ptrdiff_t origin_lb, ptrdiff_t target_lb) {
    const bool is_put = op.kind == OpKind::kPut;
    auto *local = static_cast<uint8_t *>(is_put ? const_cast<void *>(op.origin) : op.result) + origin_lb;
    const uint64_t remote = table_->at(p.rank).base + table_->byte_disp(p.rank, op.disp) + uint64_t(target_lb);
    const size_t max = p.rma_path.btl->max_rdma_size ? p.rma_path.btl->max_rdma_size : bytes;
    for (size_t off = 0; off < bytes; off += max) {
        DeferredRma d{is_put, local + off, std::min(max, bytes - off), remote + off};
        if (!p.deferred_rma.empty()) {
            p.deferred_rma.push_back(d);
            continue;
        }
        const int rc = start_rma(p, d);
        if (rc != PLEXUS_OSC_SUCCESS && rc != PLEXUS_ERR_AGAIN) return rc;
    }
    return PLEXUS_OSC_SUCCESS;
}

int Window::encode_type(plexus_coll_dtype_t *type, std::vector<uint8_t> *out) {
    size_t len = 256;
    out->resize(len);
    int rc = svc_->dtype_encode(type, out->data(), &len);
    if (rc == PLEXUS_OSC_ERR_NO_MEM) {
        out->resize(len);
        rc = svc_->dtype_encode(type, out->data(), &len);
    }
    if (rc != PLEXUS_OSC_SUCCESS) return fail(rc, "the target datatype could not be described for the target");
    if (len > 0xffff)
        return fail(PLEXUS_OSC_ERR_UNSUPPORTED, "the target datatype's description takes %zu bytes, more than 65535", len);
    out->resize(len);
    return PLEXUS_OSC_SUCCESS;
}

int Window::issue_buffered(Peer &p, const PendingOp &op, Protocol proto) {
    const plexus_coll_dtype_info_t &oi = op.oi, &ti = op.ti;
    RecordHeader r;
    r.target_count = uint32_t(op.target_count);
    r.total = uint64_t(op.target_count) * ti.size;
    r.disp = table_->byte_disp(p.rank, op.disp);
    std::vector<uint8_t> type;
    // Plain bytes travel without a type (the common case costs nothing); an accumulate always
    // carries its type: the target applies the operation by it.
    if (op.kind == OpKind::kAccumulate || !ti.contiguous) {
        if (int rc = encode_type(op.target_type, &type); rc != PLEXUS_OSC_SUCCESS) return rc;
    } else {
        r.disp += uint64_t(ti.true_lb);
    }
    size_t unit = 1;
    if (op.kind == OpKind::kPut) {
        r.kind = RecordKind::kPut;
    } else if (op.kind == OpKind::kAccumulate) {
        r.kind = RecordKind::kAccumulate;
        r.op = svc_->op_id(op.op);
        if (r.op < 0) return fail(PLEXUS_OSC_ERR_OTHER, "MPI_Accumulate: the operation is not a predefined one");
        unit = ti.size;
    } else {
        r.kind = RecordKind::kGetRequest;
        r.get_id = next_get_++;
        gets_[r.get_id] = PendingGet{p.rank, op.result, op.origin_count, op.origin_type, bool(oi.contiguous), oi.true_lb,
                                     r.total};
        ++p.gets_outstanding;
    }
    const void *origin = op.origin;
    const int ocount = op.origin_count;
    plexus_coll_dtype_t *otype = op.origin_type;
    const bool contiguous = oi.contiguous;
    const ptrdiff_t lb = oi.true_lb;
    const plexus_osc_services_t *svc = svc_;
    auto pack = [=](size_t offset, size_t len, uint8_t *dst) {
        if (contiguous) {
            std::memcpy(dst, static_cast<const uint8_t *>(origin) + lb + offset, len);
            return 0;
        }
        return svc->pack(origin, ocount, otype, offset, dst, len);
    };
    int rc = p.outbox->add(r, type, unit, pack);
    if (rc == PLEXUS_OSC_SUCCESS && proto == Protocol::kSendRecv) rc = p.outbox->flush();
    if (rc == PLEXUS_OSC_ERR_UNSUPPORTED)
        return fail(rc,
                    "MPI_Accumulate: one item of the target datatype (%zu bytes) does not fit in one message of "
                    "%zu bytes to rank %d (osc_rdma_buffer_size, or the BTL's eager limit)",
                    unit, p.outbox->capacity(), p.rank);
    return rc;
}

int Window::put(const void *origin, int ocount, plexus_coll_dtype_t *otype, int target, ptrdiff_t disp, int tcount,
                plexus_coll_dtype_t *ttype) {
    return start_op("MPI_Put", PendingOp{OpKind::kPut, origin, nullptr, ocount, otype, disp, tcount, ttype, nullptr, {}, {}},
                    target);
}

int Window::get(void *origin, int ocount, plexus_coll_dtype_t *otype, int target, ptrdiff_t disp, int tcount,
                plexus_coll_dtype_t *ttype) {
    return start_op("MPI_Get", PendingOp{OpKind::kGet, nullptr, origin, ocount, otype, disp, tcount, ttype, nullptr, {}, {}},
                    target);
}

int Window::accumulate(const void *origin, int ocount, plexus_coll_dtype_t *otype, int target, ptrdiff_t disp,
                       int tcount, plexus_coll_dtype_t *ttype, plexus_coll_op_t *op) {
    return start_op("MPI_Accumulate",
                    PendingOp{OpKind::kAccumulate, origin, nullptr, ocount, otype, disp, tcount, ttype, op, {}, {}}, target);
}

}  // namespace plexus::osc_rdma
