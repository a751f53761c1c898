// btl_sm send path (beyond the inline fast-box case): fragments through the peer's FIFO, the
// fast-box threshold, control messages, and the fast-channel operations reconf drives.
#include <cstring>

#include "sm_module.h"

namespace plexus::btl_sm {

int SmModule::send_slow(Endpoint *ep, uint8_t tag, const Payload &p) {
    if (p.len() > params_.max_send_size || tag >= PLEXUS_BTL_TAG_INTERNAL_FIRST) return PLEXUS_ERR_BAD_PARAM;
    if (ep->deleted) return PLEXUS_ERR_UNREACH;
    if (int rc = send_frag(ep, tag, kFragData, p); rc != PLEXUS_SUCCESS) return rc;
    ++slow_sends_;
    if (++ep->messages > static_cast<uint64_t>(params_.fastbox_threshold) && ep->out.state == OutState::None &&
        !ep->out.no_auto && params_.fastbox_max > 0)
        request_box(ep);
    return PLEXUS_SUCCESS;
}

// One message in a fragment of this process's pool, announced in the peer's FIFO. AGAIN when
// no fragment is free or the FIFO is full; nothing has been sent then.
int SmModule::send_frag(Endpoint *ep, uint8_t tag, uint8_t kind, const Payload &p) {
    const size_t len = p.len();
    FragPool *pool = len <= eager_.data_capacity() ? &eager_ : &max_;
    FragHeader *f = pool->alloc();
    if (!f && pool == &eager_) f = (pool = &max_)->alloc();  // small messages may borrow a big one
    if (!f) {
        note_no_fragment();
        return PLEXUS_ERR_AGAIN;
    }
    stall_since_ns_ = 0;  // a fragment came back: the receivers are draining
    f->len = static_cast<uint32_t>(len);
    f->tag = tag;
    f->kind = kind;
    f->stamp = ++frag_stamp_;
    p.write_to(f->data());  // a packing upper layer copies straight into the shared fragment
    if (!ep->fifo.push(encode(RelPtr{ep->slot_at_peer, pool->offset_of(f)}))) {
        pool->release_unsent(f);
        return PLEXUS_ERR_AGAIN;
    }
    if (kind == kFragData) {
        (void)peer_read_fifo(ep);  // keeps the list as short as what is really unread
        ep->fifo_unread.push_back({f, f->stamp});
    }
    return PLEXUS_SUCCESS;
}

// Read: given back (FREE), or given back and taken again since (another stamp). Only the owner
// writes the stamp, so reading it here races with nothing.
bool SmModule::peer_read_fifo(Endpoint *ep) {
    auto &unread = ep->fifo_unread;
    while (!unread.empty()) {
        const SentFrag &s = unread.front();
        if (load_acquire(s.frag->state) != kFragFree && s.frag->stamp == s.stamp) return false;
        unread.pop_front();
    }
    return true;
}

// Control messages never fail: what finds no room now is queued, in order, for progress.
void SmModule::send_control(Endpoint *ep, uint8_t tag, const void *body, size_t len) {
    if (control_queue_.empty() && send_frag(ep, tag, kFragControl, bytes_payload(body, len, nullptr, 0)) == PLEXUS_SUCCESS)
        return;
    const auto *bytes = static_cast<const uint8_t *>(body);
    control_queue_.push_back(QueuedControl{ep, tag, std::vector<uint8_t>(bytes, bytes + len)});
    housekeeping_ = true;
}

void SmModule::request_box(Endpoint *ep) {
    ep->out.requested();
    send_control(ep, kCtlBoxRequest, nullptr, 0);
}

int SmModule::fast_channel(Endpoint *ep, plexus_btl_fast_op_t op) {
    if (!ep || ep->deleted) return PLEXUS_ERR_BAD_PARAM;
    OutBox &o = ep->out;
    const uint32_t index = o.index;
    sdk::FastStep step;
    const int rc = o.apply(op, &step);
    if (step == sdk::FastStep::Request) {
        // The peer's own count of granted boxes says at once when it is full.
        if (load_acquire(ep->header->boxes_granted) >= ep->header->box_count) return PLEXUS_ERR_NOT_AVAILABLE;
        request_box(ep);
    } else if (step == sdk::FastStep::GiveBack) {
        // Queued behind every message already in the box: the peer drains it, then frees it.
        o.writer = BoxWriter();
        const BoxDrop d{index};
        send_control(ep, kCtlBoxDrop, &d, sizeof d);
    }
    return rc;
}

plexus_btl_fast_state_t SmModule::fast_channel_state(const Endpoint *ep) const {
    return ep ? ep->out.reported() : PLEXUS_BTL_FAST_NONE;
}

int SmModule::fast_channel_stats(plexus_btl_fast_stats_t *out) const {
    if (!out) return PLEXUS_ERR_BAD_PARAM;
    plexus_btl_fast_stats_t s =
        sdk::count_fast_channels(endpoints_, [](const auto &ep) -> const OutBox & { return ep->out; });
    s.incoming = boxes_granted_;
    s.capacity = static_cast<uint32_t>(params_.fastbox_max);
    s.fast_sends = fast_sends_;
    s.slow_sends = slow_sends_;
    *out = s;
    return PLEXUS_SUCCESS;
}

// Data fragments receivers still hold (diagnostics and tests). Not the module's pending(): a
// message is in the receiver's FIFO, where it survives this process, as soon as send returns.
size_t SmModule::fragments_in_flight() const { return eager_.data_in_flight() + max_.data_in_flight(); }

}  // namespace plexus::btl_sm
