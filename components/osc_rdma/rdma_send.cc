// How osc_rdma's messages leave: one ordered stream per peer. A message the BTL has no room for
// waits in the peer's deferred queue (and so does every later one, keeping the order completion
// messages rely on); the progress callback retries. Nothing here ever waits, so it is safe inside
// receive callbacks. Messages to this process go round through a loopback queue, so that a rank
// locking or fencing its own window runs the same code as with any peer.
#include <cstring>

#include "rdma_registry.h"
#include "rdma_window.h"

namespace plexus::osc_rdma {
namespace {

void rma_done(void *ctx, int status) {
    auto *p = static_cast<Peer *>(ctx);
    --p->rma_outstanding;
    if (status != 0) p->rma_error = status;
}

}  // namespace

EpochTag Window::epoch_tag(const Peer &p) const {
    if (p.lock != LockState::kNone) return EpochTag::kLock;
    if (access_open_ && p.in_access_group) return EpochTag::kPscw;
    return (fence_epoch_ & 1u) ? EpochTag::kFenceOdd : EpochTag::kFenceEven;
}

bool Window::try_send(Peer &p, const std::vector<uint8_t> &msg) {
    plexus_btl_module_t *btl = p.send_path.btl;
    const int rc = btl->send(btl, p.send_path.ep, kTag, msg.data(), msg.size(), nullptr, 0);
    if (rc == PLEXUS_ERR_AGAIN) return false;
    if (rc != PLEXUS_SUCCESS) p.rma_error = PLEXUS_OSC_ERR_OTHER;  // reported by the next synchronisation
    return true;
}

// The BTL copies what it accepts; msg is copied here only when it has to wait (or goes round
// the loopback), so the coalescer's buffer is sent in place and reused.
int Window::send_message(Peer &p, const std::vector<uint8_t> &msg) {
    if (p.rank == rank_) {
        loopback_.emplace_back(rank_, msg);
        return PLEXUS_OSC_SUCCESS;
    }
    if (!p.deferred.empty() || !try_send(p, msg)) p.deferred.push_back(msg);
    return PLEXUS_OSC_SUCCESS;
}

void Window::drain_deferred(Peer &p) {
    while (!p.deferred.empty() && try_send(p, p.deferred.front())) p.deferred.pop_front();
    while (!p.deferred_rma.empty()) {
        const DeferredRma op = p.deferred_rma.front();
        p.deferred_rma.pop_front();
        if (start_rma(p, op) != PLEXUS_OSC_SUCCESS || !p.deferred_rma.empty()) break;
    }
}

int Window::start_rma(Peer &p, const DeferredRma &op) {
    plexus_btl_module_t *btl = p.rma_path.btl;
    ++p.rma_outstanding;  // before the call: done may run inside it
    const int rc = op.is_put ? btl->put(btl, p.rma_path.ep, op.local, op.len, p.rma_handle, op.remote_addr, rma_done, &p)
                             : btl->get(btl, p.rma_path.ep, op.local, op.len, p.rma_handle, op.remote_addr, rma_done, &p);
    if (rc == PLEXUS_SUCCESS) return PLEXUS_OSC_SUCCESS;
    --p.rma_outstanding;
    if (rc == PLEXUS_ERR_AGAIN) {
        p.deferred_rma.push_front(op);
        return PLEXUS_ERR_AGAIN;
    }
    return fail(PLEXUS_OSC_ERR_OTHER, "the BTL %s refused a %s of %zu bytes to rank %d (error %d)", btl->name,
                op.is_put ? "put" : "get", op.len, p.rank, rc);
}

int Window::sink(Peer &p, std::vector<uint8_t> &msg, uint32_t records) {
    MsgHeader h;
    h.win = table_->at(p.rank).win_id;
    h.kind = MsgKind::kData;
    h.epoch = epoch_tag(p);
    h.count = records;
    sent_.add(p.rank, records);
    if (p.closing) {  // close_epoch: this message ends the epoch to p and says how many
        h.flags = p.closing;
        h.aux = sent_.take(p.rank);
        p.closing = 0;
        if (h.flags == kFlagFenceEnd) {
            // rma, or the epoch's single copies (rdma_epoch_copy.cc), reach the peer's memory
            // without it.
            const bool may_rma =
                (p.rma_handle && (config_.protocol == Setting::kAuto || config_.protocol == Setting::kRma)) || async_;
            const uint32_t await = (h.aux > 0 && may_rma) ? fence_epoch_ + 1 : 0;
            if (await != p.await_fence) p.done_queried = false;
            p.await_fence = await;
        }
    }
    encode_header(h, msg.data());
    return send_message(p, msg);
}

// A put of kDirectPutBytes or more: a message of its own, whose payload the BTL gathers straight
// from the origin buffer, one copy fewer than through the coalescing buffer (what is buffered
// goes first, keeping the order). Copied only when it has to wait.
int Window::send_put_direct(Peer &p, uint64_t disp, const uint8_t *src, size_t len) {
    if (int rc = p.outbox->flush(); rc != PLEXUS_OSC_SUCCESS) return rc;
    uint8_t hdr[kMsgHeaderBytes + kShortRecordBytes];
    MsgHeader h;
    h.win = table_->at(p.rank).win_id;
    h.kind = MsgKind::kData;
    h.epoch = epoch_tag(p);
    h.count = 1;
    encode_header(h, hdr);
    encode_short_put(disp, len, hdr + kMsgHeaderBytes);
    sent_.add(p.rank, 1);
    if (p.deferred.empty()) {
        plexus_btl_module_t *btl = p.send_path.btl;
        const int rc = btl->send(btl, p.send_path.ep, kTag, hdr, sizeof hdr, src, len);
        if (rc == PLEXUS_SUCCESS) return PLEXUS_OSC_SUCCESS;
        if (rc != PLEXUS_ERR_AGAIN) {
            p.rma_error = PLEXUS_OSC_ERR_OTHER;  // reported by the next synchronisation
            return PLEXUS_OSC_SUCCESS;
        }
    }
    std::vector<uint8_t> msg(hdr, hdr + sizeof hdr);
    msg.insert(msg.end(), src, src + len);
    p.deferred.push_back(std::move(msg));
    return PLEXUS_OSC_SUCCESS;
}

int Window::send_control(int target, MsgKind kind, uint32_t count, uint8_t lock_type, uint32_t aux, uint8_t flags) {
    Peer &p = peers_[size_t(target)];
    MsgHeader h;
    h.win = table_->at(target).win_id;
    h.kind = kind;
    h.epoch = epoch_tag(p);
    h.lock_type = lock_type;
    h.flags = flags;
    h.count = count;
    h.aux = aux;
    control_.resize(kMsgHeaderBytes);  // sends copy what they keep: one buffer serves every control message
    encode_header(h, control_.data());
    return send_message(p, control_);
}

// Messages a message to this process produced (a get's reply) join the queue and go too.
int Window::drain_loopback() {
    int work = 0;
    while (!loopback_.empty()) {
        auto m = std::move(loopback_.front());
        loopback_.pop_front();
        MsgHeader h;
        if (decode_header(m.second.data(), m.second.size(), &h))
            receive(m.first, h, m.second.data() + kMsgHeaderBytes, m.second.size() - kMsgHeaderBytes);
        ++work;
    }
    return work;
}

int Window::progress() {
    if (in_progress_ || peers_.empty()) return 0;
    in_progress_ = true;
    int work = drain_loopback();
    for (Peer &p : peers_) {
        if (!p.deferred.empty() || !p.deferred_rma.empty()) {
            drain_deferred(p);
            ++work;
        }
        // Communication starts at the grant (or the post): what waited for it goes now.
        if (!p.queued.empty() && config_.protocol != Setting::kSendRecv && epoch_allows_now(p) &&
            !(p.await_fence && p.done_queried)) {
            issue_queued(p);
            ++work;
        }
    }
    in_progress_ = false;
    return work;
}

}  // namespace plexus::osc_rdma
