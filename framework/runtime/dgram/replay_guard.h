// Which authenticated datagrams are new: the latest epoch of every sender, and a sliding window
// of the sequences seen from every sending endpoint (sender, salt), so that a replayed,
// duplicated or stale datagram is recognised. Bounded: the least recently heard peers are
// forgotten first.
#pragma once

#include <bitset>
#include <cstdint>
#include <unordered_map>

namespace plexus::runtime::dgram {

class ReplayGuard {
public:
    static constexpr uint64_t kWindow = 1024;  // sequences remembered below the highest seen

    enum class Verdict { fresh, stale, duplicate };

    explicit ReplayGuard(size_t max_peers) : max_peers_(max_peers ? max_peers : 1) {}

    // Everything older than epoch is stale from now on (never lowered).
    void raise_floor(uint32_t epoch) {
        if (epoch > floor_) floor_ = epoch;
    }
    uint32_t floor() const { return floor_; }

    // Checks a datagram and, when fresh, records it.
    Verdict admit(uint32_t sender, uint32_t epoch, uint64_t salt, uint64_t seq);

    size_t peers() const { return windows_.size(); }

private:
    struct Window {
        uint64_t highest = 0;
        std::bitset<kWindow> seen;  // bit i: highest - i was seen
        uint64_t last_use = 0;
    };
    struct SenderEpoch {
        uint32_t epoch = 0;
        uint64_t last_use = 0;
    };
    struct PeerKey {
        uint32_t sender;
        uint64_t salt;
        bool operator==(const PeerKey &) const = default;
    };
    struct PeerHash {
        size_t operator()(const PeerKey &k) const { return std::hash<uint64_t>()(k.salt ^ (uint64_t(k.sender) << 32)); }
    };

    static Verdict slide(Window &w, uint64_t seq);
    template <typename Map>
    void make_room(Map &m);

    size_t max_peers_;
    uint32_t floor_ = 0;
    uint64_t clock_ = 0;
    std::unordered_map<uint32_t, SenderEpoch> epochs_;
    std::unordered_map<PeerKey, Window, PeerHash> windows_;
};

}  // namespace plexus::runtime::dgram
