// The table of secrets shared with other jobs' processes.
#include "runtime/peer_secrets.h"

#include <algorithm>

namespace plexus::runtime {
namespace {

// Not optimised away like a memset of memory about to be freed.
void wipe(PeerSecrets::Secret &s) {
    volatile uint8_t *p = s.data();
    for (size_t i = 0; i < s.size(); ++i) p[i] = 0;
}

void wipe_all(std::vector<PeerSecrets::Secret> &v) {
    for (auto &s : v) wipe(s);
}

}  // namespace

PeerSecrets::~PeerSecrets() {
    for (auto &[peer, secrets] : by_peer_) wipe_all(secrets);
}

void PeerSecrets::add(const ProcId &peer, const Secret &s) {
    std::lock_guard<std::mutex> g(lock_);
    std::vector<Secret> &v = by_peer_[peer];
    if (auto it = std::find(v.begin(), v.end(), s); it != v.end()) v.erase(it);
    v.insert(v.begin(), s);
    while (v.size() > kMaxPerPeer) {
        wipe(v.back());
        v.pop_back();
    }
}

std::vector<PeerSecrets::Secret> PeerSecrets::of(const ProcId &peer) const {
    std::lock_guard<std::mutex> g(lock_);
    auto it = by_peer_.find(peer);
    return it == by_peer_.end() ? std::vector<Secret>{} : it->second;
}

size_t PeerSecrets::forget(const ProcId &peer) {
    std::lock_guard<std::mutex> g(lock_);
    auto it = by_peer_.find(peer);
    if (it == by_peer_.end()) return 0;
    const size_t n = it->second.size();
    wipe_all(it->second);
    by_peer_.erase(it);
    return n;
}

size_t PeerSecrets::peers() const {
    std::lock_guard<std::mutex> g(lock_);
    return by_peer_.size();
}

}  // namespace plexus::runtime
