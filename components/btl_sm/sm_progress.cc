// btl_sm receive path: polling the fast boxes in use and the FIFO, delivery to the upper
// layer's callbacks, the fast-box handshake on the receiving side, and the rare housekeeping.
#include <algorithm>
#include <cstring>

#include "sm_module.h"

namespace plexus::btl_sm {
namespace {

// Bounds per call, so that one busy sender cannot keep progress from returning.
constexpr int kBoxBatch = 64;
constexpr int kFifoBatch = 64;

template <class T>
bool read_body(const uint8_t *data, size_t len, T *out) {
    if (len != sizeof(T)) return false;
    std::memcpy(out, data, sizeof(T));
    return true;
}

}  // namespace

int SmModule::progress() {
    if (in_progress_) return 0;  // a callback that polls again gets nothing: state is mid-update
    in_progress_ = true;
    int events = 0;
    for (size_t i = 0; i < in_boxes_.size(); ++i) events += poll_box(i);
    events += poll_fifo();
    if (housekeeping_) events += housekeep();
    in_progress_ = false;
    return events;
}

int SmModule::poll_box(size_t i) {
    BoxMessage m;
    int n = 0;
    // The reader is re-found each time: a callback may not add or remove boxes (that happens
    // only in poll_fifo and housekeeping), but reading it through the vector costs nothing.
    while (n < kBoxBatch && in_boxes_[i].reader.next(&m)) {
        deliver(in_boxes_[i].from, m.tag, m.data, m.len);
        ++n;
    }
    if (n) in_boxes_[i].reader.publish();  // the callbacks are done with those bytes
    return n;
}

int SmModule::poll_fifo() {
    int n = 0;
    uint64_t word;
    while (n < kFifoBatch && fifo_.pop(&word)) {
        ++n;
        const RelPtr p = decode(word);
        Endpoint *ep = p.segment < by_slot_.size() ? by_slot_[p.segment] : nullptr;
        if (!ep && !(ep = resolve_slot(p.segment))) continue;  // logged; its fragment is lost to us
        const size_t size = ep->segment.size();
        if (p.offset > size || size - p.offset < sizeof(FragHeader)) {
            host_->log(self_, PLEXUS_LOG_ERROR, "descriptor from pid %d points outside its segment", ep->pid);
            continue;
        }
        auto *f = reinterpret_cast<FragHeader *>(ep->segment.base() + p.offset);
        const size_t len = f->len;
        if (len > size - p.offset - sizeof(FragHeader)) {
            host_->log(self_, PLEXUS_LOG_ERROR, "fragment from pid %d is longer than its segment", ep->pid);
        } else if (f->tag >= PLEXUS_BTL_TAG_INTERNAL_FIRST) {
            handle_control(ep, f->tag, f->data(), len);
        } else {
            drain_box_of(ep);
            deliver(ep, f->tag, f->data(), len);
        }
        frag_return(f);  // after the callback: the data pointer was valid until it returned
    }
    return n;
}

// Everything ep's fast box holds was sent before any data fragment of ep's in the FIFO: the
// sender goes back to its box only once this process has read its FIFO messages, and a fragment
// counts as unread until it is returned, after its delivery. So the box goes first, and the
// upper layer gets ep's messages in sending order (the PML would otherwise hold the fragment
// back as an early arrival: a hash-map node, a malloc, per message of a sender running ahead).
size_t SmModule::drain_box_of(Endpoint *ep) {
    if (ep->in_box < 0) return in_boxes_.size();
    auto it = std::find_if(in_boxes_.begin(), in_boxes_.end(), [ep](const InBox &b) { return b.from == ep; });
    const size_t i = static_cast<size_t>(it - in_boxes_.begin());
    if (i < in_boxes_.size()) {
        while (poll_box(i) > 0) {
        }
    }
    return i;
}

void SmModule::deliver(Endpoint *ep, uint8_t tag, const void *data, size_t len) {
    // A sender add_procs has not named yet (it attached first), or one deleted here that meets us
    // again (a process that left connects anew and sends before our add_procs has revived it;
    // by MPI's disconnect nothing of the old meeting comes after it): keep a copy until it does.
    if (!ep->named || ep->deleted) {
        const auto *bytes = static_cast<const uint8_t *>(data);
        ep->deferred.push_back(Deferred{tag, std::vector<uint8_t>(bytes, bytes + len)});
        return;
    }
    const Handler &h = handlers_[tag];
    if (!h.fn) {
        if (!unhandled_warned_[tag])
            host_->log(self_, PLEXUS_LOG_WARN, "dropping messages with tag 0x%02x: no callback registered", tag);
        unhandled_warned_[tag] = true;
        return;
    }
    const plexus_btl_recv_desc_t msg{ep->upper_id, tag, {0, 0, 0}, data, len};
    h.fn(h.ctx, &msg);
}

void SmModule::handle_control(Endpoint *ep, uint8_t tag, const uint8_t *data, size_t len) {
    BoxGrant grant{};
    BoxDrop drop{};
    switch (tag) {
    case kCtlBoxRequest:
        grant_or_refuse(ep);
        return;
    case kCtlBoxGrant:
        if (read_body(data, len, &grant)) on_grant(ep, grant);
        return;
    case kCtlBoxRefuse:
        if (ep->out.state == OutState::Pending) {
            ep->out.state = OutState::None;
            ep->out.no_auto = true;
            host_->log(self_, PLEXUS_LOG_DETAIL, "pid %d has no fast box for this process", ep->pid);
        }
        return;
    case kCtlBoxDrop:
        if (read_body(data, len, &drop)) take_back_box(ep, drop.index);
        return;
    default:
        host_->log(self_, PLEXUS_LOG_WARN, "unknown control message 0x%02x from pid %d", tag, ep->pid);
    }
}

// A sender asks for a fast box: grant one of the free ones (formatted, polled from now on) or
// refuse. A second request from the same sender gets the same box again.
void SmModule::grant_or_refuse(Endpoint *ep) {
    if (ep->deleted) return;
    const SegmentHeader &h = *header_;
    if (ep->in_box < 0) {
        if (free_boxes_.empty() || boxes_granted_ >= static_cast<uint64_t>(params_.fastbox_max)) {
            send_control(ep, kCtlBoxRefuse, nullptr, 0);
            return;
        }
        const uint32_t index = free_boxes_.back();
        free_boxes_.pop_back();
        uint8_t *mem = segment_.base() + h.box_off + size_t{index} * h.box_stride;
        box_format(mem, h.box_ring);
        in_boxes_.push_back(InBox{BoxReader(mem, h.box_ring), ep, index});
        ep->in_box = static_cast<int32_t>(index);
        store_release(header_->boxes_granted, ++boxes_granted_);
        host_->log(self_, PLEXUS_LOG_DETAIL, "fast box %u granted to pid %d", index, ep->pid);
    }
    const auto index = static_cast<uint32_t>(ep->in_box);
    const BoxGrant g{index, static_cast<uint32_t>(h.box_off + size_t{index} * h.box_stride), h.box_ring};
    send_control(ep, kCtlBoxGrant, &g, sizeof g);
}

// The peer granted a box. Use it as asked in the meantime, or give it straight back.
void SmModule::on_grant(Endpoint *ep, const BoxGrant &g) {
    OutBox &o = ep->out;
    const bool fits = is_power_of_two(g.ring) && g.ring >= kBoxMinSize && g.offset <= ep->segment.size() &&
                      box_bytes(g.ring) <= ep->segment.size() - g.offset;
    if (o.granted(fits && !ep->deleted)) {
        o.writer = BoxWriter(ep->segment.base() + g.offset, g.ring);
        o.max_message = std::min<size_t>(params_.eager_limit, box_max_message(g.ring));
        o.index = g.index;
        host_->log(self_, PLEXUS_LOG_DETAIL, "fast box %u to pid %d in use", g.index, ep->pid);
        return;
    }
    if (o.in_use() && o.index == g.index) return;  // repeated
    if (o.state == OutState::Pending) o.state = OutState::None;
    const BoxDrop d{g.index};
    send_control(ep, kCtlBoxDrop, &d, sizeof d);
}

// The sender dropped its box: everything it wrote before the DROP is visible now (it was
// written before the DROP was queued), so deliver the rest, then free the box.
void SmModule::take_back_box(Endpoint *ep, uint32_t index) {
    if (ep->in_box != static_cast<int32_t>(index)) return;
    const size_t i = drain_box_of(ep);
    if (i < in_boxes_.size()) in_boxes_.erase(in_boxes_.begin() + static_cast<std::ptrdiff_t>(i));
    ep->in_box = -1;
    free_boxes_.push_back(index);
    store_release(header_->boxes_granted, --boxes_granted_);
    host_->log(self_, PLEXUS_LOG_DETAIL, "fast box %u of pid %d taken back", index, ep->pid);
}

// Everything that is not the data path: unlinking the segment once every peer is in, control
// messages that found no room earlier, messages from senders add_procs has since named.
int SmModule::housekeep() {
    int events = 0;
    maybe_unlink();
    while (!control_queue_.empty()) {
        QueuedControl &c = control_queue_.front();
        if (send_frag(c.ep, c.tag, kFragControl, bytes_payload(c.body.data(), c.body.size(), nullptr, 0)) != PLEXUS_SUCCESS)
            break;
        control_queue_.pop_front();
        ++events;
    }
    events += release_ended_peers();
    if (deferred_ready_) {
        deferred_ready_ = false;
        for (const auto &ep : endpoints_) {
            while (ep->named && !ep->deleted && !ep->deferred.empty()) {
                Deferred d = std::move(ep->deferred.front());
                ep->deferred.pop_front();
                deliver(ep.get(), d.tag, d.bytes.data(), d.bytes.size());
                ++events;
            }
        }
    }
    update_housekeeping();
    return events;
}

void SmModule::update_housekeeping() {
    housekeeping_ = segment_.named() || !control_queue_.empty() || deferred_ready_ || !released_.empty();
}

}  // namespace plexus::btl_sm
