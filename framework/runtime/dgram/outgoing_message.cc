// The sending side's bookkeeping of one reliable message.
#include "runtime/dgram/outgoing_message.h"

#include <algorithm>

#include "runtime/dgram/reliable_wire.h"

namespace plexus::runtime::dgram {

OutgoingMessage::OutgoingMessage(size_t len, size_t frag_size, const Timing &timing)
    : len_(len), frag_size_(frag_size), timing_(timing), frags_(fragment_count(len, frag_size)),
      rto_(timing.rto) {}

size_t OutgoingMessage::len_of(uint32_t i) const {
    return i + 1 < frags_.size() ? frag_size_ : len_ - size_t(i) * frag_size_;
}

OutgoingMessage::Cause OutgoingMessage::due(Clock::time_point now, std::vector<uint32_t> *out) {
    out->clear();
    if (in_flight_ && now >= timer_) {
        // Silence for a whole timeout: the oldest unacknowledged fragments go again, at most
        // kTimerBurst, and the next timeout is twice as long, so that a slow or absent peer is
        // not flooded with a whole window each time; the acks of this burst show what else was
        // lost (everything sent before an acked fragment: presumed lost, below). A small
        // message is thus resent whole, which heavy loss needs.
        for (uint32_t i = 0; i < next_fresh_ && out->size() < kTimerBurst; ++i)
            if (!frags_[i].acked) out->push_back(i);
        rto_ = std::min(rto_ * 2, timing_.rto_max);
        timer_ = now + rto_;
        return Cause::timer;
    }
    // A fragment sent before one that has arrived was lost (datagrams rarely overtake each
    // other on one path), so it goes again without waiting for the timer.
    for (uint32_t i = 0; i < next_fresh_; ++i)
        if (!frags_[i].acked && frags_[i].order < acked_order_) out->push_back(i);
    if (!out->empty()) return Cause::presumed_lost;
    size_t bytes = in_flight_bytes_;
    for (uint32_t i = next_fresh_; i < frags_.size(); ++i) {
        if (bytes > 0 && bytes + len_of(i) > timing_.window) break;
        bytes += len_of(i);
        out->push_back(i);
    }
    return out->empty() ? Cause::none : Cause::fresh;
}

bool OutgoingMessage::sent(uint32_t i, Clock::time_point now) {
    Fragment &f = frags_[i];
    const bool again = f.sends > 0;
    if (!again) {
        ++in_flight_;
        in_flight_bytes_ += len_of(i);
        next_fresh_ = std::max(next_fresh_, i + 1);
    }
    if (in_flight_ == 1 && !again) timer_ = now + rto_;  // the first in flight arms the timer
    f.order = ++order_;
    ++f.sends;
    f.sent_at = now;
    ++transmissions_;
    return again;
}

bool OutgoingMessage::set_acked(uint32_t i, Clock::time_point now, int64_t *rtt_us, uint64_t *rtt_order) {
    Fragment &f = frags_[i];
    if (f.acked || f.sends == 0) return false;
    f.acked = true;
    ++acked_;
    --in_flight_;
    in_flight_bytes_ -= len_of(i);
    acked_order_ = std::max(acked_order_, f.order);
    if (f.sends == 1 && f.order > *rtt_order) {
        *rtt_order = f.order;
        *rtt_us = std::chrono::duration_cast<std::chrono::microseconds>(now - f.sent_at).count();
    }
    return true;
}

uint32_t OutgoingMessage::ack(uint32_t base, const uint8_t *bitmap, size_t bitmap_len, Clock::time_point now,
                              int64_t *rtt_us) {
    uint32_t news = 0;
    uint64_t rtt_order = 0;
    const uint32_t n = count();
    for (uint32_t i = 0; i < std::min(base, n); ++i) news += set_acked(i, now, rtt_us, &rtt_order);
    for (size_t b = 0; b < bitmap_len * 8; ++b) {
        const uint64_t i = uint64_t(base) + b;
        if (i >= n) break;
        if (bitmap[b / 8] & (1u << (b % 8))) news += set_acked(static_cast<uint32_t>(i), now, rtt_us, &rtt_order);
    }
    if (news > 0) {
        // The peer is alive and taking data: back to the first timeout.
        rto_ = timing_.rto;
        timer_ = now + rto_;
    }
    return news;
}

void OutgoingMessage::ack_all() {
    for (Fragment &f : frags_) f.acked = true;
    acked_ = count();
    in_flight_ = 0;
    in_flight_bytes_ = 0;
    next_fresh_ = count();
}

}  // namespace plexus::runtime::dgram
