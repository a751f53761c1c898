// btl_openib's fast channels (btl.h): eager RDMA rings, one per peer that this process sends to
// often, in the peer's memory. The peer grants at most btl_openib_eager_rdma_num of them (each is
// memory and a ring it polls: paper 003's maxRDMA); reconf moves them between peers with
// CREATE / QUIESCE / RESUME / DROP, and the eager_rdma_threshold asks for one on its own.
#include <algorithm>
#include <cstring>

#include "openib_module.h"

namespace plexus::btl_openib {
namespace {

template <class T>
bool read_body(const uint8_t *data, size_t len, T *out) {
    if (len != sizeof *out) return false;
    std::memcpy(out, data, sizeof *out);
    return true;
}

}  // namespace

void OpenibModule::request_channel(Endpoint *ep) {
    ep->out.requested();
    send_control(ep, kTagChanRequest, nullptr, 0);
}

int OpenibModule::fast_channel(Endpoint *ep, plexus_btl_fast_op_t op) {
    if (!ep || ep->deleted) return PLEXUS_ERR_BAD_PARAM;
    if (ep->conn.state() == ConnState::Failed) return PLEXUS_ERR_UNREACH;
    OutChannel &o = ep->out;
    const uint32_t generation = o.generation;
    sdk::FastStep step;
    const int rc = o.apply(op, &step);
    if (step == sdk::FastStep::Request) {
        request_channel(ep);  // connects first when needed; PENDING until the peer answers
    } else if (step == sdk::FastStep::GiveBack) {
        // Sent after every write into the ring on the same RC queue pair, so it completes at the
        // peer after they have all landed: the peer drains the ring, then frees it.
        o = OutChannel{};
        o.no_auto = true;
        const ChanDrop d{generation};
        send_control(ep, kTagChanDrop, &d, sizeof d);
    }
    return rc;
}

plexus_btl_fast_state_t OpenibModule::fast_channel_state(const Endpoint *ep) const {
    return ep ? ep->out.reported() : PLEXUS_BTL_FAST_NONE;
}

int OpenibModule::fast_channel_stats(plexus_btl_fast_stats_t *out) const {
    if (!out) return PLEXUS_ERR_BAD_PARAM;
    plexus_btl_fast_stats_t s =
        sdk::count_fast_channels(endpoints_, [](const auto &ep) -> const OutChannel & { return ep->out; });
    s.incoming = channels_granted_;
    s.capacity = static_cast<uint32_t>(params_.eager_rdma_num);
    s.fast_sends = fast_sends_;
    s.slow_sends = slow_sends_;
    *out = s;
    return PLEXUS_SUCCESS;
}

void OpenibModule::handle_control(Endpoint *ep, uint8_t tag, const uint8_t *data, size_t len) {
    ChanGrant grant{};
    ChanDrop drop{};
    switch (tag) {
    case kTagChanRequest:
        grant_or_refuse(ep);
        return;
    case kTagChanGrant:
        if (read_body(data, len, &grant)) on_grant(ep, grant);
        return;
    case kTagChanRefuse:
        if (ep->out.state == OutState::Pending) {
            ep->out = OutChannel{};
            ep->out.no_auto = true;
            host_->log(self_, PLEXUS_LOG_DETAIL, "%s has no eager RDMA channel left for this process",
                       describe(ep).c_str());
        }
        return;
    case kTagChanDrop:
        if (read_body(data, len, &drop)) take_back_channel(ep, drop.generation);
        return;
    default:
        host_->log(self_, PLEXUS_LOG_WARN, "unknown control message 0x%02x from %s", tag, describe(ep).c_str());
    }
}

// A peer asks for a ring: one is made (registered memory, polled from now on) while fewer than
// btl_openib_eager_rdma_num are granted; a second request gets the same ring again.
void OpenibModule::grant_or_refuse(Endpoint *ep) {
    if (ep->deleted) return;
    InChannel &in = ep->in;
    if (!in.mem) {
        if (channels_granted_ >= uint64_t(params_.eager_rdma_num)) {
            send_control(ep, kTagChanRefuse, nullptr, 0);
            return;
        }
        const size_t slot = ring_slot_bytes(params_.eager_limit);
        auto mem = std::make_unique<RegisteredSlab>();
        if (!mem->allocate(pd_.get(), slot * size_t(params_.eager_rdma_slots),
                           IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE)) {
            host_->log(self_, PLEXUS_LOG_DETAIL, "no memory for an eager RDMA channel of %s",
                       describe(ep).c_str());
            send_control(ep, kTagChanRefuse, nullptr, 0);
            return;
        }
        in.ring = RingReceiver(mem->base(), uint32_t(params_.eager_rdma_slots), slot);
        in.mem = std::move(mem);
        if ((next_generation_ & 0xff) == 0) ++next_generation_;  // 0 in a header means "no ring"
        in.generation = next_generation_++;
        ++channels_granted_;
        in_rings_.push_back(ep);
        host_->log(self_, PLEXUS_LOG_DETAIL, "eager RDMA channel %u granted to %s", in.generation,
                   describe(ep).c_str());
    }
    const ChanGrant g{reinterpret_cast<uintptr_t>(in.mem->base()), in.mem->rkey(), in.ring.slots(),
                      static_cast<uint32_t>(in.ring.bytes() / in.ring.slots()), in.generation};
    send_control(ep, kTagChanGrant, &g, sizeof g);
}

// The peer granted a ring: use it as asked in the meantime, or give it straight back.
void OpenibModule::on_grant(Endpoint *ep, const ChanGrant &g) {
    OutChannel &o = ep->out;
    const bool fits = g.slots > 0 && g.slot_bytes > kRingFooterBytes;
    if (o.granted(fits && !ep->deleted)) {
        o.ring = RingSender(g.slots, g.slot_bytes);
        o.remote_addr = g.addr;
        o.rkey = g.rkey;
        o.generation = g.generation;
        host_->log(self_, PLEXUS_LOG_DETAIL, "eager RDMA channel %u to %s in use", g.generation, describe(ep).c_str());
        return;
    }
    if (o.in_use() && o.generation == g.generation) return;  // repeated
    if (o.state == OutState::Pending) {
        o = OutChannel{};
        o.no_auto = true;
    }
    const ChanDrop d{g.generation};
    send_control(ep, kTagChanDrop, &d, sizeof d);
}

// Every write into the ring landed before this DROP completed: deliver what is left, then free it.
void OpenibModule::take_back_channel(Endpoint *ep, uint32_t generation) {
    InChannel &in = ep->in;
    if (!in.mem || in.generation != generation) return;
    drain_in_ring(ep);
    in_rings_.erase(std::remove(in_rings_.begin(), in_rings_.end(), ep), in_rings_.end());
    in.ring = RingReceiver();
    in.mem.reset();
    --channels_granted_;
    host_->log(self_, PLEXUS_LOG_DETAIL, "eager RDMA channel %u of %s taken back", generation, describe(ep).c_str());
}

int OpenibModule::drain_in_ring(Endpoint *ep) {
    int n = 0;
    RingMessage msg;
    while (ep->in.ring.next(&msg)) {
        on_credits(ep, msg.footer.credits, msg.footer.ctl_credits, msg.footer.rdma_credits, msg.footer.rdma_gen);
        deliver(ep, msg.footer.tag, msg.data, msg.footer.len);
        ep->in.ring.release();
        ++n;
    }
    return n;
}

}  // namespace plexus::btl_openib
