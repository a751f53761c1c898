// The receiving side of reliable messages: fragments placed by index into their message within
// a memory budget, messages already delivered remembered per sending layer (sender, incarnation)
// so that a retransmitted fragment or message is dropped rather than delivered twice, and the
// selective acknowledgement of any message (what has arrived of it).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "runtime/dgram/reliable_wire.h"

namespace plexus::runtime::dgram {

class IncomingMessages {
public:
    using Clock = std::chrono::steady_clock;
    struct Limits {
        size_t memory = 32u << 20;              // bytes of partial messages held at most
        std::chrono::milliseconds idle{2000};   // a partial message with no new fragment this long is given up
        size_t max_peers = 4096;                // sending layers remembered
    };
    enum class Outcome {
        partial,     // placed; more to come
        complete,    // *message holds the whole message: deliver it
        duplicate,   // had already (fragment, or the whole message was delivered): drop, ack again
        refused,     // no memory for it now: drop, no ack, the sender will retransmit
        inconsistent // disagrees with the message's earlier fragments: drop
    };
    struct PeerKey {
        uint32_t sender;
        uint64_t incarnation;
        bool operator<(const PeerKey &o) const {
            return sender != o.sender ? sender < o.sender : incarnation < o.incarnation;
        }
    };

    explicit IncomingMessages(Limits limits) : limits_(limits) {}

    Outcome add(const PeerKey &peer, const RelData &h, const uint8_t *payload,
                std::vector<uint8_t> *message, Clock::time_point now = Clock::now());
    // The acknowledgement of msg_id as things stand, its bitmap at most max_bitmap bytes; false
    // when nothing of it is held (never seen, or refused).
    bool ack_of(const PeerKey &peer, uint64_t msg_id, uint32_t frag_count, size_t max_bitmap,
                RelAck *ack, std::vector<uint8_t> *bitmap) const;
    // Gives up partial messages idle too long; returns how many.
    size_t expire(Clock::time_point now = Clock::now());

    size_t bytes_held() const { return held_; }
    size_t peers() const { return peers_.size(); }

private:
    struct Partial {
        std::vector<uint8_t> data;
        std::vector<bool> have;
        uint32_t received = 0;
        RelData shape;  // what every fragment must agree with
        Clock::time_point last{};
    };
    // Which message ids of one sending layer were delivered: every id up to floor, and the set
    // above it (ids complete out of order); bounded by moving the floor up.
    struct Delivered {
        uint64_t floor = 0;
        std::set<uint64_t> above;
        bool has(uint64_t id) const { return id <= floor || above.count(id) != 0; }
        void add(uint64_t id);
    };
    struct Peer {
        Delivered delivered;
        std::map<uint64_t, Partial> partial;
        uint64_t last_use = 0;
    };
    Peer &peer_of(const PeerKey &key);
    void forget_partial(Peer &p, std::map<uint64_t, Partial>::iterator it);

    Limits limits_;
    size_t held_ = 0;
    uint64_t clock_ = 0;
    std::map<PeerKey, Peer> peers_;
};

}  // namespace plexus::runtime::dgram
