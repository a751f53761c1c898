#include "rdma_protocol.h"

namespace plexus::osc_rdma {
namespace {

// rma moves contiguous puts and gets only: the BTL's put/get know nothing of datatypes, and an
// accumulate needs the target to apply the operation (the paper's fallback to buffered).
bool rma_possible(const OpShape &op, const PathCaps &caps) {
    if (!op.contiguous || op.bytes == 0) return false;
    if (op.kind == OpKind::kPut) return caps.can_put;
    if (op.kind == OpKind::kGet) return caps.can_get;
    return false;
}

// The paper's results: get by rma wins latency (the target does no MPI work) where the BTL's
// put/get are cheap; small puts win by coalescing (one message carries many), which rma cannot
// do; a put too large for one buffer gains nothing from coalescing and goes by rma when it can.
// Where the BTL says its get/put do not pay for this size (rma_pays: below rdma_threshold, as
// shared memory's single copy costs a system call that a short message does not), buffered.
Protocol automatic(const OpShape &op, const PathCaps &caps) {
    if (!rma_possible(op, caps) || !caps.rma_pays) return Protocol::kBuffered;
    if (op.kind == OpKind::kGet) return Protocol::kRma;
    return op.bytes > caps.buffer_room ? Protocol::kRma : Protocol::kBuffered;
}

}  // namespace

Protocol choose(Setting setting, const OpShape &op, const PathCaps &caps) {
    switch (setting) {
    case Setting::kSendRecv: return Protocol::kSendRecv;
    case Setting::kBuffered: return Protocol::kBuffered;
    case Setting::kRma: return rma_possible(op, caps) ? Protocol::kRma : Protocol::kBuffered;
    case Setting::kAuto: break;
    }
    return automatic(op, caps);
}

const char *protocol_name(Protocol p) {
    switch (p) {
    case Protocol::kSendRecv: return "sendrecv";
    case Protocol::kBuffered: return "buffered";
    case Protocol::kRma: return "rma";
    }
    return "?";
}

}  // namespace plexus::osc_rdma
