// The origin side of put, get and accumulate: check the epoch and the target range, then issue
// the operation by the protocol chosen for it, or queue it until the epoch lets it start (a lock
// not yet granted, a post not yet arrived) or, under sendrecv, until the closing synchronisation.
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include <plexus/output.h>

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

void Window::trace(int level, const char *fmt, ...) {
    if (verbose_ < level || !host_ || !host_->log) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    host_->log(component_self(), level, "window %u: %s", id_, msg);
}

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
    if (access_open_) return p.in_access_group && (p.posts > 0 || access_nocheck_);
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
    caps.rma_pays = p.rma_path.btl && PLEXUS_BTL_RDMA_PAYS(p.rma_path.btl, op.bytes);
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
    if (p.direct) return direct_op(call, op, target);  // a lock epoch without the target: done now
    if (config_.protocol == Setting::kSendRecv || !epoch_allows_now(p) || !p.queued.empty()) {
        p.queued.push_back(op);  // behind earlier queued ones: operations keep their order
        return PLEXUS_OSC_SUCCESS;
    }
    return issue(target, op);
}

int Window::issue_queued(Peer &p) {
    std::vector<PendingOp> ops;
    ops.swap(p.queued);
    for (size_t i = 0; i < ops.size(); ++i) {
        if (!p.queued.empty()) {  // a put/get waits for the peer's fence: the rest behind it
            p.queued.insert(p.queued.end(), ops.begin() + long(i), ops.end());
            break;
        }
        if (int rc = issue(p.rank, ops[i]); rc != PLEXUS_OSC_SUCCESS) return rc;
    }
    return PLEXUS_OSC_SUCCESS;
}

int Window::issue(int target, const PendingOp &op) {
    Peer &p = peers_[size_t(target)];
    if (copyable(p, op)) {  // moved with the epoch's others by one single copy (rdma_epoch_copy.cc)
        if (!p.await_fence) return defer_copy(p, op);
        // As for rma, the target may not have applied our records of the last fence: an operation
        // worth a single copy on its own asks and waits; a short one goes as a message (held by
        // the target until its fence ended), as the 8-byte get of each epoch does, without the
        // round trip.
        if (copy_pays_alone(op)) {
            query_done(p);
            p.queued.push_back(op);
            return PLEXUS_OSC_SUCCESS;
        }
    }
    // The batch acts first: operations on one target act in the order they were issued.
    if (int rc = flush_copies(p); rc != PLEXUS_OSC_SUCCESS) return rc;
    return issue_message(target, op);
}

// By the protocol chosen for it (buffered, sendrecv, or the BTL's put/get).
int Window::issue_message(int target, const PendingOp &op) {
    Peer &p = peers_[size_t(target)];
    (op.kind == OpKind::kGet ? p.sent_reads : p.sent_writes) = true;
    const plexus_coll_dtype_info_t &oi = op.oi, &ti = op.ti;
    OpShape shape;
    shape.kind = op.kind;
    shape.bytes = size_t(op.target_count) * ti.size;
    shape.contiguous = oi.contiguous && ti.contiguous;
    const Protocol proto = protocol_for(target, shape);
    if (verbose_ >= PLEXUS_LOG_TRACE)
        trace(PLEXUS_LOG_TRACE, "%s of %zu bytes to rank %d: %s", op.kind == OpKind::kPut ? "put" : op.kind == OpKind::kGet ? "get" : "accumulate",
              shape.bytes, target, protocol_name(proto));
    if (proto != Protocol::kRma) return issue_buffered(p, op, proto);
    if (p.await_fence) {  // the target may not have applied our records of the last fence yet
        query_done(p);
        p.queued.push_back(op);
        return PLEXUS_OSC_SUCCESS;
    }
    return issue_rma(p, op, shape.bytes, oi.true_lb, ti.true_lb);
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
        // An item larger than a message: fragments of any size, which the target assembles
        // (by this id) and applies whole, so the item stays atomic.
        if (unit > p.outbox->payload_room(type.size())) {
            r.get_id = next_acc_++;
            if (next_acc_ == 0) next_acc_ = 1;
            unit = 1;
            trace(PLEXUS_LOG_TRACE, "accumulate to rank %d: items of %zu bytes exceed a message: assembled at the target",
                  p.rank, size_t(ti.size));
        }
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
                    "the target datatype's description (%zu bytes) leaves no room for data in one message of "
                    "%zu bytes to rank %d (osc_rdma_buffer_size, or the BTL's eager limit)",
                    type.size(), p.outbox->capacity(), p.rank);
    return rc;
}

// The common small put in an open epoch (contiguous at both ends, buffered by auto or by the
// setting, nothing queued before it): its record goes straight into the coalescing buffer. The
// same checks as start_op's, the same record issue_buffered would write.
int Window::put_small(Peer &p, const void *origin, plexus_coll_dtype_t *otype, ptrdiff_t disp, int tcount,
                      plexus_coll_dtype_t *ttype, bool *done) {
    *done = false;
    const plexus_coll_dtype_info_t oi = info_of(svc_, otype), ti = info_of(svc_, ttype);
    if (!oi.contiguous || !ti.contiguous) return PLEXUS_OSC_SUCCESS;
    const uint64_t bytes = uint64_t(tcount) * ti.size;
    if (bytes > 0xffff || bytes > p.outbox->payload_room(0)) return PLEXUS_OSC_SUCCESS;
    // By single copy with the epoch's others (rdma_epoch_copy.cc), unless issue() would send it
    // as a message anyway (the peer may not have applied our last fence's records).
    if (copy_allowed(p, OpKind::kPut, size_t(bytes)) && (!p.await_fence || bytes >= config_.put_batch_min))
        return PLEXUS_OSC_SUCCESS;
    *done = true;
    size_t checked = 0;
    if (int rc = check_access("MPI_Put", p.rank, disp, tcount, ti, &checked); rc != PLEXUS_OSC_SUCCESS) return rc;
    if (bytes == 0) return PLEXUS_OSC_SUCCESS;
    if (verbose_ >= PLEXUS_LOG_TRACE)
        trace(PLEXUS_LOG_TRACE, "put of %zu bytes to rank %d: buffered", size_t(bytes), p.rank);
    const uint64_t at = table_->byte_disp(p.rank, disp) + uint64_t(ti.true_lb);
    const auto *src = static_cast<const uint8_t *>(origin) + oi.true_lb;
    if (bytes >= kDirectPutBytes && p.rank != rank_) return send_put_direct(p, at, src, size_t(bytes));
    return p.outbox->add_short_put(at, src, size_t(bytes));
}

int Window::put(const void *origin, int ocount, plexus_coll_dtype_t *otype, int target, ptrdiff_t disp, int tcount,
                plexus_coll_dtype_t *ttype) {
    if (target >= 0 && target < size_ &&
        (config_.protocol == Setting::kAuto || config_.protocol == Setting::kBuffered)) {
        Peer &p = peers_[size_t(target)];
        if (!p.direct && p.queued.empty() && p.copies.empty() && in_access_epoch(p) && epoch_allows_now(p)) {
            bool done = false;
            const int rc = put_small(p, origin, otype, disp, tcount, ttype, &done);
            if (done) {
                p.sent_writes = true;  // what follows in the epoch must not overtake it (rdma_epoch_copy.cc)
                return rc;
            }
        }
    }
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
