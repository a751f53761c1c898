// The replay guard's epoch check and sliding window.
#include "runtime/dgram/replay_guard.h"

#include <algorithm>

namespace plexus::runtime::dgram {

template <typename Map>
void ReplayGuard::make_room(Map &m) {
    if (m.size() < max_peers_) return;
    auto oldest = std::min_element(m.begin(), m.end(), [](const auto &a, const auto &b) {
        return a.second.last_use < b.second.last_use;
    });
    m.erase(oldest);
}

ReplayGuard::Verdict ReplayGuard::slide(Window &w, uint64_t seq) {
    if (seq > w.highest) {
        const uint64_t shift = seq - w.highest;
        w.seen = shift >= kWindow ? std::bitset<kWindow>() : w.seen << shift;
        w.seen.set(0);
        w.highest = seq;
        return Verdict::fresh;
    }
    const uint64_t age = w.highest - seq;
    if (age >= kWindow || w.seen.test(age)) return Verdict::duplicate;
    w.seen.set(age);
    return Verdict::fresh;
}

ReplayGuard::Verdict ReplayGuard::admit(uint32_t sender, uint32_t epoch, uint64_t salt, uint64_t seq) {
    if (epoch < floor_) return Verdict::stale;
    ++clock_;
    auto e = epochs_.find(sender);
    if (e == epochs_.end()) {
        make_room(epochs_);
        e = epochs_.emplace(sender, SenderEpoch{epoch, clock_}).first;
    }
    if (epoch < e->second.epoch) return Verdict::stale;
    e->second.epoch = epoch;
    e->second.last_use = clock_;

    const PeerKey key{sender, salt};
    auto w = windows_.find(key);
    if (w == windows_.end()) {
        make_room(windows_);
        w = windows_.emplace(key, Window{}).first;
    }
    w->second.last_use = clock_;
    return slide(w->second, seq);
}

}  // namespace plexus::runtime::dgram
