// btl_openib send path: a message goes into the peer's eager RDMA ring when this process holds an
// active channel with a free slot, else through a pre-posted receive buffer (one data credit);
// what cannot go now (no connection yet, no credit, no send buffer) waits in the peer's queue, in
// order, until progress posts it. Every message carries the credits owed to its receiver.
#include <cerrno>
#include <cstring>

#include "openib_module.h"
#include "work_id.h"

namespace plexus::btl_openib {

int OpenibModule::send(Endpoint *ep, uint8_t tag, const void *hdr, size_t hlen, const void *payload, size_t plen) {
    if (tag >= PLEXUS_BTL_TAG_INTERNAL_FIRST || (hlen && !hdr) || (plen && !payload)) return PLEXUS_ERR_BAD_PARAM;
    return submit(ep, tag, kKindData, Payload{hdr, hlen, payload, plen, nullptr, nullptr, 0}, false);
}

int OpenibModule::send_pack(Endpoint *ep, uint8_t tag, const void *hdr, size_t hlen, plexus_btl_pack_fn_t pack,
                            void *ctx, size_t offset, size_t plen) {
    if (tag >= PLEXUS_BTL_TAG_INTERNAL_FIRST || (hlen && !hdr) || (plen && !pack)) return PLEXUS_ERR_BAD_PARAM;
    return submit(ep, tag, kKindData, Payload{hdr, hlen, nullptr, plen, pack, ctx, offset}, false);
}

int OpenibModule::submit(Endpoint *ep, uint8_t tag, uint8_t kind, const Payload &p, bool internal) {
    if (p.len() > params_.max_send_size) return PLEXUS_ERR_BAD_PARAM;
    if (ep->conn.state() == ConnState::Failed || (ep->deleted && !internal)) return PLEXUS_ERR_UNREACH;
    int rc = PLEXUS_ERR_AGAIN;
    if (ep->conn.can_send() && ep->queue.empty()) rc = try_post(ep, tag, kind, p);
    if (rc == PLEXUS_ERR_AGAIN) {
        // Control messages always queue: they are few, and a refused one would be lost.
        if (!internal && ep->queued_bytes + p.len() > params_.max_queued) return PLEXUS_ERR_AGAIN;
        enqueue(ep, tag, kind, p);
        if (ep->conn.state() == ConnState::Closed) start_connect(ep);
        rc = PLEXUS_SUCCESS;
    }
    // A peer sent to often enough gets a channel asked for (unless refused or dropped before).
    if (rc == PLEXUS_SUCCESS && !internal && ++ep->messages == uint64_t(params_.eager_rdma_threshold) &&
        ep->out.state == OutState::None && !ep->out.no_auto)
        request_channel(ep);
    return rc;
}

int OpenibModule::try_post(Endpoint *ep, uint8_t tag, uint8_t kind, const Payload &p) {
    if (kind == kKindData && ep->out.state == OutState::Active && ep->out.ring.can_write(p.len())) {
        const int rc = post_ring(ep, tag, p);
        if (rc == PLEXUS_SUCCESS) ++fast_sends_;
        if (rc != PLEXUS_ERR_AGAIN) return rc;
    }
    const int rc = post_send(ep, tag, kind, p);
    if (rc == PLEXUS_SUCCESS && kind == kKindData) ++slow_sends_;
    return rc;
}

int32_t OpenibModule::take_send_buffer() {
    if (free_send_.empty()) return -1;
    const int32_t b = free_send_.back();
    free_send_.pop_back();
    return b;
}

// The credits this process owes ep ride along (and are forgotten here until the send fails).
MsgHeader OpenibModule::header_for(Endpoint *ep, uint8_t tag, uint8_t kind) {
    const Piggyback owed = ep->credits.take_owed();
    MsgHeader h{};
    h.tag = tag;
    h.kind = kind;
    h.ctl_credits = owed.ctl;
    h.credits = owed.data;
    if (ep->in.ring.valid()) {
        h.rdma_credits = static_cast<uint16_t>(ep->in.ring.take_to_return());
        h.rdma_gen = static_cast<uint8_t>(ep->in.generation);
    }
    return h;
}

// Through a receive buffer the peer posted: a data credit (a control credit for a credit message).
int OpenibModule::post_send(Endpoint *ep, uint8_t tag, uint8_t kind, const Payload &p) {
    const bool ctl = kind == kKindCredit;
    if (ep->sq_posted >= uint32_t(params_.send_queue_depth)) return PLEXUS_ERR_AGAIN;
    if (!(ctl ? ep->credits.take_ctl() : ep->credits.take_data())) return PLEXUS_ERR_AGAIN;
    const int32_t b = take_send_buffer();
    if (b < 0) {
        ctl ? ep->credits.untake_ctl() : ep->credits.untake_data();
        return PLEXUS_ERR_AGAIN;
    }
    uint8_t *buf = send_slab_->base() + size_t(b) * buf_bytes_;
    const MsgHeader h = header_for(ep, tag, kind);
    std::memcpy(buf, &h, sizeof h);
    p.write_to(buf + sizeof h);  // a packing upper layer writes straight into the registered buffer
    ibv_sge sge{};
    sge.addr = reinterpret_cast<uintptr_t>(buf);
    sge.length = static_cast<uint32_t>(sizeof h + p.len());
    sge.lkey = send_slab_->lkey();
    ibv_send_wr wr{};
    wr.wr_id = wr_id(kWrSend, ep->index, uint32_t(b));
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_SEND;
    wr.send_flags = IBV_SEND_SIGNALED;
    ibv_send_wr *bad = nullptr;
    if (ibv_post_send(ep->qp.get(), &wr, &bad) != 0) {
        free_send_.push_back(b);
        fail_peer(ep, std::string("ibv_post_send: ") + std::strerror(errno));
        return PLEXUS_ERR_UNREACH;
    }
    ++ep->sq_posted;
    return PLEXUS_SUCCESS;
}

// One RDMA write of payload and footer to the end of the next slot of the peer's ring.
int OpenibModule::post_ring(Endpoint *ep, uint8_t tag, const Payload &p) {
    if (ep->sq_posted >= uint32_t(params_.send_queue_depth)) return PLEXUS_ERR_AGAIN;
    const int32_t b = take_send_buffer();
    if (b < 0) return PLEXUS_ERR_AGAIN;
    OutChannel &o = ep->out;
    uint32_t slot = 0;
    RingFooter f{};
    o.ring.claim(&slot, &f.stamp);
    const MsgHeader h = header_for(ep, tag, kKindData);
    f.len = static_cast<uint32_t>(p.len());
    f.tag = tag;
    f.ctl_credits = h.ctl_credits;
    f.credits = h.credits;
    f.rdma_credits = h.rdma_credits;
    f.rdma_gen = h.rdma_gen;
    uint8_t *buf = send_slab_->base() + size_t(b) * buf_bytes_;
    p.write_to(buf);
    RingSender::format(buf, p.len(), f);
    ibv_sge sge{};
    sge.addr = reinterpret_cast<uintptr_t>(buf);
    sge.length = static_cast<uint32_t>(ring_write_bytes(p.len()));
    sge.lkey = send_slab_->lkey();
    ibv_send_wr wr{};
    wr.wr_id = wr_id(kWrSend, ep->index, uint32_t(b));
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_RDMA_WRITE;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.wr.rdma.remote_addr = o.remote_addr + uint64_t(slot) * o.ring.slot_bytes() +
                             ring_write_offset(o.ring.slot_bytes(), p.len());
    wr.wr.rdma.rkey = o.rkey;
    ibv_send_wr *bad = nullptr;
    if (ibv_post_send(ep->qp.get(), &wr, &bad) != 0) {
        free_send_.push_back(b);
        fail_peer(ep, std::string("ibv_post_send (RDMA write to the eager channel): ") + std::strerror(errno));
        return PLEXUS_ERR_UNREACH;
    }
    ++ep->sq_posted;
    return PLEXUS_SUCCESS;
}

void OpenibModule::enqueue(Endpoint *ep, uint8_t tag, uint8_t kind, const Payload &p) {
    Queued q{tag, kind, std::vector<uint8_t>(p.len())};
    p.write_to(q.bytes.data());
    ep->queued_bytes += q.bytes.size();
    ep->queue.push_back(std::move(q));
    ++queued_msgs_;
    if (ep->conn.can_send()) list(ep);
}

// Posts what waits for ep, in order, as far as credits and buffers allow; returns how many went.
int OpenibModule::flush(Endpoint *ep) {
    int sent = 0;
    while (!ep->queue.empty() && ep->conn.can_send()) {
        Queued &q = ep->queue.front();
        const int rc = try_post(ep, q.tag, q.kind, Payload{q.bytes.data(), q.bytes.size(), nullptr, 0, nullptr, nullptr, 0});
        if (rc != PLEXUS_SUCCESS) break;
        ep->queued_bytes -= q.bytes.size();
        ep->queue.pop_front();
        --queued_msgs_;
        ++sent;
    }
    return sent;
}

void OpenibModule::send_control(Endpoint *ep, uint8_t tag, const void *body, size_t len) {
    (void)submit(ep, tag, kKindData, Payload{body, len, nullptr, 0, nullptr, nullptr, 0}, true);
}

// Half a window of receive buffers (or of ring slots) owed and no message about to carry them:
// an explicit credit message, on the control credits kept for it.
int OpenibModule::return_credits(Endpoint *ep) {
    if (!ep->conn.can_send()) return 0;
    // The next queued message carries them, unless it waits for credits itself: then both sides
    // could wait for each other's queue, so they go by credit message.
    if (!ep->queue.empty() && ep->credits.data_credits() > 0) return 0;
    const bool ring_due = ep->in.ring.valid() && ep->in.ring.to_return() * 2 >= ep->in.ring.slots();
    if (!ep->credits.explicit_due() && !ring_due) return 0;
    return post_send(ep, 0, kKindCredit, Payload{nullptr, 0, nullptr, 0, nullptr, nullptr, 0}) == PLEXUS_SUCCESS;
}

}  // namespace plexus::btl_openib
