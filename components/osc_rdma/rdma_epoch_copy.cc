// Gets and large puts of fence and PSCW epochs by one single copy. In a window whose members all
// took the shared segment (every member on this node, single copy permitted: rdma_async.h), an
// origin can read and write the target's memory without the target. MPI lets a get's data arrive
// and a put's data leave as late as the epoch's end, so the contiguous gets of an epoch to one
// target are collected and read by one process_vm_readv at the end: 32 gets of 512 bytes cost one
// system call instead of 32 requests the target answers with 32 replies. Puts of at least
// kDirectPutBytes likewise go by one process_vm_writev (one copy, where a message costs two).
// Batches below osc_rdma_get_batch_min / osc_rdma_put_batch_min bytes go as messages after all: a
// short request or put riding on the epoch's closing message costs less than a system call.
//
// Order (an origin's operations on one target act in the order it issued them):
// - a batch holds one direction; an operation the other way, or by message, sends it first;
// - a get is batched only while no put or accumulate went to that target by message in the
//   epoch (it travels behind them on the same stream instead), a put only while nothing did (a
//   message applied later by the target could otherwise act after the put's bytes landed).
// The epoch's start is the rma path's: an operation is batched only when it may start (the post
// arrived; at a fence of two, the peer applied our records of the last epoch: issue()'s query),
// and fences of more processes end with a barrier in such windows. The batch goes before the
// epoch's closing message (complete_rma), so the completion rule holds.
#include <string>

#include <plexus/output.h>

#include "rdma_window.h"

namespace plexus::osc_rdma {
namespace {

// Operations collected before their single copy goes anyway (the host's call takes up to the
// kernel's IOV_MAX per system call itself).
constexpr size_t kCopyBatchMax = 1024;

size_t op_bytes(const PendingOp &op) { return size_t(op.target_count) * op.ti.size; }

}  // namespace

bool Window::copy_allowed(const Peer &p, OpKind kind, size_t bytes) const {
    if (!async_ || p.rank == rank_ || p.lock != LockState::kNone) return false;
    // Above the BTL's own limit its messages stream better than one long single copy.
    if (p.rma_path.btl && PLEXUS_BTL_RDMA_LIMIT(p.rma_path.btl) && bytes > PLEXUS_BTL_RDMA_LIMIT(p.rma_path.btl))
        return false;
    if (kind == OpKind::kGet) return config_.get_batch_min > 0 && !p.sent_writes;
    if (kind == OpKind::kPut)
        return config_.put_batch_min > 0 && bytes >= kDirectPutBytes && !p.sent_writes && !p.sent_reads;
    return false;
}

bool Window::copyable(const Peer &p, const PendingOp &op) const {
    return op.oi.contiguous && op.ti.contiguous && copy_allowed(p, op.kind, op_bytes(op));
}

bool Window::copy_pays_alone(const PendingOp &op) const {
    return op_bytes(op) >= (op.kind == OpKind::kPut ? config_.put_batch_min : config_.get_batch_min);
}

int Window::defer_copy(Peer &p, const PendingOp &op) {
    const bool write = op.kind == OpKind::kPut;
    if (!p.copies.empty() && p.copies_write != write)
        if (int rc = flush_copies(p); rc != PLEXUS_OSC_SUCCESS) return rc;
    p.copies_write = write;
    p.copies.push_back(op);
    p.copy_bytes += op_bytes(op);
    return p.copies.size() < kCopyBatchMax ? PLEXUS_OSC_SUCCESS : flush_copies(p);
}

// A batch too small for a system call: each operation as a message, as it would have gone.
int Window::copies_as_messages(Peer &p, const std::vector<PendingOp> &ops) {
    for (const PendingOp &op : ops) {
        const size_t n = op_bytes(op);
        if (op.kind == OpKind::kPut && n <= 0xffff && n <= p.outbox->payload_room(0)) {
            p.sent_writes = true;
            const uint64_t at = table_->byte_disp(p.rank, op.disp) + uint64_t(op.ti.true_lb);
            const auto *src = static_cast<const uint8_t *>(op.origin) + op.oi.true_lb;
            if (int rc = send_put_direct(p, at, src, n); rc != PLEXUS_OSC_SUCCESS) return rc;
            continue;
        }
        if (int rc = issue_message(p.rank, op); rc != PLEXUS_OSC_SUCCESS) return rc;
    }
    return PLEXUS_OSC_SUCCESS;
}

// A fence epoch's one get: its request rides on the fence's own message and the reply comes
// while the fence waits anyway, so below the BTL's own rma threshold a system call costs more
// (measured: 512 B and 4 KiB slower by single copy under fence, faster under PSCW, whose lone get
// by message costs a round trip of its own after complete).
bool Window::lone_fence_get(const Peer &p, const std::vector<PendingOp> &ops, uint64_t total) const {
    if (p.copies_write || ops.size() != 1 || (access_open_ && p.in_access_group)) return false;
    return p.rma_path.btl && p.rma_path.btl->rdma_threshold > 0 && total < p.rma_path.btl->rdma_threshold;
}

int Window::flush_copies(Peer &p) {
    if (p.copies.empty()) return PLEXUS_OSC_SUCCESS;
    std::vector<PendingOp> ops;
    ops.swap(p.copies);
    const uint64_t total = p.copy_bytes;
    p.copy_bytes = 0;
    const bool write = p.copies_write;
    const char *what = write ? "puts to" : "gets from";
    if (total < (write ? config_.put_batch_min : config_.get_batch_min) || lone_fence_get(p, ops, total)) {
        if (verbose_ >= PLEXUS_LOG_DETAIL)
            trace(PLEXUS_LOG_DETAIL, "%zu %s rank %d (%llu bytes, below osc_rdma_%s_batch_min or a fence's lone get "
                  "below the BTL's rma threshold): as messages", ops.size(), what, p.rank, (unsigned long long)total,
                  write ? "put" : "get");
        return copies_as_messages(p, ops);
    }
    std::vector<plexus_shm_iovec_t> local;
    std::vector<Run> remote;
    local.reserve(ops.size());
    remote.reserve(ops.size());
    const uint64_t base = table_->at(p.rank).base;
    for (const PendingOp &op : ops) {
        auto *own = static_cast<uint8_t *>(write ? const_cast<void *>(op.origin) : op.result) + op.oi.true_lb;
        const size_t n = op_bytes(op);
        const uint64_t at = base + table_->byte_disp(p.rank, op.disp) + uint64_t(op.ti.true_lb);
        // Neighbours at both ends make one run: the kernel pins pages run by run.
        if (!local.empty() && static_cast<uint8_t *>(local.back().base) + local.back().len == own &&
            remote.back().addr + remote.back().len == at) {
            local.back().len += n;
            remote.back().len += n;
            continue;
        }
        local.push_back({own, n});
        remote.push_back({at, n});
    }
    std::string why;
    if (async_->copy(p.rank, local.data(), local.size(), remote.data(), remote.size(), write, &why) != PLEXUS_SUCCESS)
        return fail(PLEXUS_OSC_ERR_OTHER, "single copy of %zu %s rank %d failed: %s", ops.size(), what, p.rank,
                    why.c_str());
    if (verbose_ >= PLEXUS_LOG_DETAIL)
        trace(PLEXUS_LOG_DETAIL, "%zu %s rank %d (%llu bytes in %zu runs) by one single copy", ops.size(), what, p.rank,
              (unsigned long long)total, local.size());
    return PLEXUS_OSC_SUCCESS;
}

}  // namespace plexus::osc_rdma
