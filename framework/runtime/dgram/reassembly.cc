// Placing fragments, and the memory and time limits of partial messages.
#include "runtime/dgram/reassembly.h"

#include <cstring>

namespace plexus::runtime::dgram {

void Reassembly::forget(std::map<Key, Partial>::iterator it) {
    held_ -= it->second.data.size();
    partial_.erase(it);
}

Reassembly::Outcome Reassembly::add(const Header &h, const uint8_t *payload,
                                    std::vector<uint8_t> *message, Clock::time_point now) {
    const Key key{h.sender, h.salt, h.message_seq()};
    auto it = partial_.find(key);
    if (it == partial_.end()) {
        expire(now);  // room held by messages that will never complete is reclaimed first
        if (h.msg_len > limits_.memory || held_ + h.msg_len > limits_.memory) return Outcome::no_memory;
        Partial p;
        p.data.resize(h.msg_len);
        p.have.assign(h.frag_count, false);
        p.count = h.frag_count;
        p.started = now;
        held_ += h.msg_len;
        it = partial_.emplace(key, std::move(p)).first;
    }
    Partial &p = it->second;
    // The sender's fragments all agree on the message; anything else is a broken sender.
    if (p.count != h.frag_count || p.data.size() != h.msg_len || p.have[h.frag_index]) {
        forget(it);
        return Outcome::inconsistent;
    }
    std::memcpy(p.data.data() + h.frag_offset, payload, h.frag_len);
    p.have[h.frag_index] = true;
    ++p.received;
    p.bytes += h.frag_len;
    if (p.received < p.count) return Outcome::partial;
    const bool whole = p.bytes == p.data.size();
    held_ -= p.data.size();
    if (whole) *message = std::move(p.data);
    partial_.erase(it);
    return whole ? Outcome::complete : Outcome::inconsistent;
}

uint64_t Reassembly::expire(Clock::time_point now) {
    uint64_t fragments = 0;
    for (auto it = partial_.begin(); it != partial_.end();) {
        auto next = std::next(it);
        if (now - it->second.started >= limits_.timeout) {
            fragments += it->second.received;
            forget(it);
        }
        it = next;
    }
    return fragments;
}

}  // namespace plexus::runtime::dgram
