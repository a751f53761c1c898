// Reassembly, duplicate suppression and acknowledgement state of reliable messages.
#include "runtime/dgram/incoming_messages.h"

#include <algorithm>
#include <cstring>

namespace plexus::runtime::dgram {
namespace {

constexpr size_t kMaxAbove = 4096;  // delivered ids remembered above the floor

bool same_shape(const RelData &a, const RelData &b) {
    return a.flags == b.flags && a.reply_to == b.reply_to && a.reply_incarnation == b.reply_incarnation &&
           a.msg_len == b.msg_len && a.frag_count == b.frag_count && a.frag_size == b.frag_size;
}

}  // namespace

void IncomingMessages::Delivered::add(uint64_t id) {
    above.insert(id);
    while (!above.empty() && *above.begin() == floor + 1) {
        floor = *above.begin();
        above.erase(above.begin());
    }
    // A message the sender gave up leaves a gap that never fills: past the bound, the ids
    // below the oldest remembered count as done (a retransmission that late has timed out).
    while (above.size() > kMaxAbove) {
        floor = *above.begin();
        above.erase(above.begin());
    }
}

IncomingMessages::Peer &IncomingMessages::peer_of(const PeerKey &key) {
    auto it = peers_.find(key);
    if (it == peers_.end()) {
        if (peers_.size() >= limits_.max_peers) {
            auto oldest = std::min_element(peers_.begin(), peers_.end(), [](const auto &a, const auto &b) {
                return a.second.last_use < b.second.last_use;
            });
            for (auto &[id, p] : oldest->second.partial) held_ -= p.data.size();
            peers_.erase(oldest);
        }
        it = peers_.emplace(key, Peer{}).first;
    }
    it->second.last_use = ++clock_;
    return it->second;
}

void IncomingMessages::forget_partial(Peer &p, std::map<uint64_t, Partial>::iterator it) {
    held_ -= it->second.data.size();
    p.partial.erase(it);
}

IncomingMessages::Outcome IncomingMessages::add(const PeerKey &key, const RelData &h, const uint8_t *payload,
                                                std::vector<uint8_t> *message, Clock::time_point now) {
    Peer &peer = peer_of(key);
    if (peer.delivered.has(h.msg_id)) return Outcome::duplicate;
    auto it = peer.partial.find(h.msg_id);
    if (it == peer.partial.end()) {
        if (h.msg_len > limits_.memory - std::min(held_, limits_.memory)) {
            expire(now);  // room held by messages that will never complete goes first
            if (h.msg_len > limits_.memory - std::min(held_, limits_.memory)) return Outcome::refused;
        }
        Partial p;
        p.data.resize(h.msg_len);
        p.have.assign(h.frag_count, false);
        p.shape = h;
        held_ += h.msg_len;
        it = peer.partial.emplace(h.msg_id, std::move(p)).first;
    }
    Partial &p = it->second;
    if (!same_shape(p.shape, h)) return Outcome::inconsistent;
    if (p.have[h.frag_index]) return Outcome::duplicate;
    if (h.payload_len()) std::memcpy(p.data.data() + h.offset(), payload, h.payload_len());
    p.have[h.frag_index] = true;
    p.last = now;
    if (++p.received < h.frag_count) return Outcome::partial;
    held_ -= p.data.size();  // before the move empties it
    *message = std::move(p.data);
    peer.partial.erase(it);
    peer.delivered.add(h.msg_id);
    return Outcome::complete;
}

bool IncomingMessages::ack_of(const PeerKey &key, uint64_t msg_id, uint32_t frag_count, size_t max_bitmap,
                              RelAck *ack, std::vector<uint8_t> *bitmap) const {
    ack->incarnation = key.incarnation;
    ack->msg_id = msg_id;
    ack->frag_count = frag_count;
    ack->bitmap_len = 0;
    bitmap->clear();
    auto peer = peers_.find(key);
    if (peer == peers_.end()) return false;
    if (peer->second.delivered.has(msg_id)) {
        ack->base = frag_count;
        return true;
    }
    auto it = peer->second.partial.find(msg_id);
    if (it == peer->second.partial.end()) return false;
    const std::vector<bool> &have = it->second.have;
    uint32_t base = 0;
    while (base < have.size() && have[base]) ++base;
    ack->base = base;
    // The bitmap runs to the last fragment held, within what one datagram carries.
    size_t last = have.size();
    while (last > base && !have[last - 1]) --last;
    const size_t bits = std::min(last - base, max_bitmap * 8);
    bitmap->assign((bits + 7) / 8, 0);
    for (size_t b = 0; b < bits; ++b)
        if (have[base + b]) (*bitmap)[b / 8] |= static_cast<uint8_t>(1u << (b % 8));
    ack->bitmap_len = static_cast<uint16_t>(bitmap->size());
    return true;
}

size_t IncomingMessages::expire(Clock::time_point now) {
    size_t n = 0;
    for (auto &[key, peer] : peers_) {
        for (auto it = peer.partial.begin(); it != peer.partial.end();) {
            auto next = std::next(it);
            if (now - it->second.last >= limits_.idle) {
                forget_partial(peer, it);
                ++n;
            }
            it = next;
        }
    }
    return n;
}

}  // namespace plexus::runtime::dgram
