// The modex: cards put, committed once with the init fence, fetched lazily and cached.
#include "runtime/modex.h"

namespace plexus::runtime {

Modex::Modex(Backend &backend) : backend_(backend), self_(backend.job().self()) {}

std::string Modex::card_key(std::string_view component) {
    return "plexus.card." + std::string(component);
}

Status Modex::put(std::string_view component, const void *data, size_t len) {
    if (component.empty()) return Status::error(PLEXUS_ERR_BAD_PARAM, "modex put without a component name");
    if (!data && len > 0) return Status::error(PLEXUS_ERR_BAD_PARAM, "modex put of NULL data");
    const std::string key = card_key(component);
    std::lock_guard guard(lock_);
    if (Status s = backend_.put(key, data, len); !s) return s;
    const auto *b = static_cast<const uint8_t *>(data);
    own_[key].assign(b, b + len);
    return fenced_ ? backend_.commit() : Status::ok();
}

Status Modex::commit_and_fence(bool collect, int timeout_s) {
    std::lock_guard guard(lock_);
    if (Status s = backend_.commit(); !s) return s;
    if (Status s = backend_.fence({}, collect, timeout_s); !s) return s;
    fenced_ = true;
    return Status::ok();
}

Status Modex::get(const ProcId &peer, std::string_view component, int timeout_s, const Card **out) {
    const std::string key = card_key(component);
    std::lock_guard guard(lock_);
    if (peer == self_) {
        auto it = own_.find(key);
        if (it == own_.end())
            return Status::error(PLEXUS_ERR_NOT_FOUND, "this process put no card for " + std::string(component));
        *out = &it->second;
        return Status::ok();
    }
    auto cached = cache_.find({peer, key});
    if (cached != cache_.end()) {
        *out = &cached->second;
        return Status::ok();
    }
    // Misses are not cached: a peer of another namespace may put its card later.
    Card card;
    if (Status s = backend_.get(peer, key, timeout_s, &card); !s) return s;
    *out = &cache_.emplace(std::make_pair(peer, key), std::move(card)).first->second;
    return Status::ok();
}

std::vector<std::pair<std::string, Modex::Card>> Modex::own_cards() {
    std::lock_guard guard(lock_);
    return {own_.begin(), own_.end()};
}

void Modex::remember(const ProcId &peer, const std::string &key, Card card) {
    std::lock_guard guard(lock_);
    cache_.emplace(std::make_pair(peer, key), std::move(card));
}

size_t Modex::forget(const ProcId &peer) {
    std::lock_guard guard(lock_);
    // Keys are ordered by peer first: its cards are one run from the first key of peer on.
    auto first = cache_.lower_bound({peer, std::string()});
    auto last = first;
    size_t n = 0;
    for (; last != cache_.end() && last->first.first == peer; ++last) ++n;
    cache_.erase(first, last);
    return n;
}

}  // namespace plexus::runtime
