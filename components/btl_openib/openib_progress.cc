// btl_openib progress: the eager RDMA rings peers write into, then the completion queue
// (receives, send and RDMA completions), then the peers that owe credits or have queued sends;
// now and then the connections still being made.
#include <cerrno>
#include <cstring>

#include "openib_module.h"
#include "work_id.h"

namespace plexus::btl_openib {

int OpenibModule::progress() {
    if (in_progress_) return 0;  // a callback that waits must not deliver behind its own message
    in_progress_ = true;
    int events = poll_rings() + poll_cq();
    // The list may grow while it is walked (a flush that frees credits for another peer).
    for (size_t i = 0; i < owing_.size(); ++i) {
        Endpoint *ep = owing_[i];
        events += flush(ep);
        events += return_credits(ep);
    }
    size_t keep = 0;
    for (Endpoint *ep : owing_) {
        const bool again = ep->conn.can_send() && (!ep->queue.empty() || ep->credits.explicit_due());
        if (again)
            owing_[keep++] = ep;
        else
            ep->listed = false;
    }
    owing_.resize(keep);
    if ((++polls_ & 255) == 0) events += check_connects();
    in_progress_ = false;
    return events;
}

void OpenibModule::list(Endpoint *ep) {
    if (ep->listed) return;
    ep->listed = true;
    owing_.push_back(ep);
}

int OpenibModule::poll_rings() {
    int events = 0;
    for (size_t i = 0; i < in_rings_.size(); ++i) {
        Endpoint *ep = in_rings_[i];
        RingMessage msg;
        bool corrupt = false;
        while (ep->in.ring.next(&msg, &corrupt)) {
            on_credits(ep, msg.footer.credits, msg.footer.ctl_credits, msg.footer.rdma_credits, msg.footer.rdma_gen);
            deliver(ep, msg.footer.tag, msg.data, msg.footer.len);
            ep->in.ring.release();
            ++events;
            list(ep);
        }
        if (corrupt) fail_peer(ep, "a message in its eager RDMA channel claims more bytes than a slot holds");
    }
    return events;
}

int OpenibModule::poll_cq() {
    ibv_wc wc[16];
    const int n = ibv_poll_cq(cq_.get(), 16, wc);
    for (int i = 0; i < n; ++i) {
        const uint64_t id = wc[i].wr_id;
        if (wc[i].status != IBV_WC_SUCCESS) {
            on_completion_error(id, wc[i].status, ibv_wc_status_str(wc[i].status));
            continue;
        }
        const uint32_t e = wr_ep(id), slot = wr_slot(id);
        switch (wr_kind(id)) {
        case kWrRecv:
            if (e < endpoints_.size()) on_recv(endpoints_[e].get(), slot, wc[i].byte_len);
            break;
        case kWrSend:
            free_send_.push_back(static_cast<int32_t>(slot));
            if (e < endpoints_.size()) {
                --endpoints_[e]->sq_posted;
                if (!endpoints_[e]->queue.empty()) list(endpoints_[e].get());
            }
            break;
        case kWrRdma: {
            RdmaOp op = ops_[slot];
            ops_[slot] = RdmaOp{};
            free_ops_.push_back(slot);
            --op.ep->sq_posted;
            reg_cache_->release(op.local);
            if (op.done) op.done(op.ctx, PLEXUS_SUCCESS);
            break;
        }
        }
    }
    return n > 0 ? n : 0;
}

// The buffer is read in place by the callback, then posted again: only then is the credit owed.
void OpenibModule::on_recv(Endpoint *ep, uint32_t slot, size_t bytes) {
    const uint8_t *buf = ep->recv->base() + size_t(slot) * buf_bytes_;
    MsgHeader h{};
    if (bytes >= sizeof h) std::memcpy(&h, buf, sizeof h);
    run(ep, ep->conn.on_receive());  // the initiator's first message can overtake its READY
    if (bytes < sizeof h) {
        host_->log(self_, PLEXUS_LOG_WARN, "dropped a %zu-byte message from %s: shorter than the header", bytes,
                   describe(ep).c_str());
    } else {
        on_credits(ep, h.credits, h.ctl_credits, h.rdma_credits, h.rdma_gen);
        if (h.kind == kKindData) deliver(ep, h.tag, buf + sizeof h, bytes - sizeof h);
    }
    if (!post_recv(ep, slot)) {
        fail_peer(ep, std::string("ibv_post_recv: ") + std::strerror(errno));
        return;
    }
    ep->credits.consumed(h.kind == kKindCredit);
    list(ep);
}

void OpenibModule::on_credits(Endpoint *ep, uint16_t data, uint8_t ctl, uint16_t rdma, uint8_t rdma_gen) {
    if (data || ctl) ep->credits.returned(Piggyback{data, ctl, 0});
    OutChannel &o = ep->out;
    if (rdma && o.in_use() && static_cast<uint8_t>(o.generation) == rdma_gen)
        o.ring.returned(rdma);
    if ((data || rdma) && !ep->queue.empty()) list(ep);
}

void OpenibModule::deliver(Endpoint *ep, uint8_t tag, const uint8_t *data, size_t len) {
    if (tag >= PLEXUS_BTL_TAG_INTERNAL_FIRST) {
        handle_control(ep, tag, data, len);
        return;
    }
    // Connected and sent before add_procs named it here, or deleted here (del_procs unnames it)
    // and meeting us again before our add_procs revived it: kept until add_procs.
    if (!ep->named) {
        ep->deferred.push_back(Deferred{tag, std::vector<uint8_t>(data, data + len)});
        return;
    }
    recv_.deliver(host_, self_, ep->upper_id, tag, data, len);
}

// A failed work request: its resources come back, and the peer is lost (a flushed request is the
// echo of an error already reported).
void OpenibModule::on_completion_error(uint64_t id, int status, const char *status_text) {
    const uint32_t e = wr_ep(id), slot = wr_slot(id);
    Endpoint *ep = nullptr;
    const char *what = "receive";
    switch (wr_kind(id)) {
    case kWrRecv:
        ep = e < endpoints_.size() ? endpoints_[e].get() : nullptr;
        break;
    case kWrSend:
        what = "send";
        free_send_.push_back(static_cast<int32_t>(slot));
        ep = e < endpoints_.size() ? endpoints_[e].get() : nullptr;
        if (ep) --ep->sq_posted;
        break;
    case kWrRdma: {
        what = "RDMA read/write";
        RdmaOp op = ops_[slot];
        ops_[slot] = RdmaOp{};
        free_ops_.push_back(slot);
        ep = op.ep;
        if (ep) --ep->sq_posted;
        reg_cache_->release(op.local);
        if (op.done) op.done(op.ctx, PLEXUS_ERR_UNREACH);
        break;
    }
    }
    if (!ep || status == IBV_WC_WR_FLUSH_ERR || ep->conn.state() == ConnState::Failed) return;
    fail_peer(ep, std::string(what) + " completed with " + status_text);
}

}  // namespace plexus::btl_openib
