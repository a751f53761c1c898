#include "reg_cache.h"

#include <algorithm>

namespace plexus::btl_openib {

RegCache::~RegCache() {
    for (auto &kv : by_base_) reg_->deregister(kv.second->handle);
}

RegEntry *RegCache::find(uintptr_t base, uintptr_t end) {
    // Entries starting after base cannot cover it; those starting more than longest_ before it
    // end before it.
    auto it = by_base_.upper_bound(base);
    while (it != by_base_.begin()) {
        --it;
        RegEntry *e = it->second.get();
        if (base - e->base > longest_) break;
        if (!e->invalid && e->base + e->len >= end) return e;
    }
    return nullptr;
}

RegEntry *RegCache::acquire(const void *addr, size_t len, std::string *why) {
    const auto a = reinterpret_cast<uintptr_t>(addr);
    const uintptr_t base = a & ~(uintptr_t(limits_.page) - 1);
    const uintptr_t end = (a + std::max<size_t>(len, 1) + limits_.page - 1) & ~(uintptr_t(limits_.page) - 1);
    if (RegEntry *e = find(a, a + std::max<size_t>(len, 1))) {
        ++stats_.hits;
        if (e->users++ == 0) lru_.erase(e->lru);
        return e;
    }
    ++stats_.misses;
    RegEntry *e = insert(base, end - base, why);
    if (e) trim();
    return e;
}

RegEntry *RegCache::insert(uintptr_t base, size_t len, std::string *why) {
    auto e = std::make_unique<RegEntry>();
    e->base = base;
    e->len = len;
    for (;;) {
        bool oor = false;
        if (reg_->register_range(base, len, &e->handle, &e->lkey, &e->rkey, &oor, why)) break;
        if (!oor || !evict_one()) return nullptr;  // out of pinned memory: unused ones go first
    }
    e->users = 1;
    RegEntry *raw = e.get();
    by_base_.emplace(base, std::move(e));
    bytes_ += len;
    longest_ = std::max(longest_, len);
    return raw;
}

void RegCache::release(RegEntry *e) {
    if (!e || e->users == 0) return;
    if (--e->users > 0) return;
    if (e->invalid || !limits_.leave_pinned) {
        destroy(e);
        return;
    }
    e->lru = lru_.insert(lru_.end(), e);
    trim();
}

void RegCache::invalidate(const void *addr, size_t len) {
    const auto a = reinterpret_cast<uintptr_t>(addr);
    const uintptr_t end = a + len;
    // Every entry that starts before end and ends after a (the longest bounds the walk back).
    auto it = by_base_.lower_bound(end);
    std::vector<RegEntry *> hit;
    while (it != by_base_.begin()) {
        --it;
        RegEntry *e = it->second.get();
        if (e->base + longest_ < a) break;
        if (e->base + e->len > a && !e->invalid) hit.push_back(e);
    }
    for (RegEntry *e : hit) {
        ++stats_.invalidations;
        e->invalid = true;
        if (e->users == 0) {
            lru_.erase(e->lru);
            destroy(e);
        }
    }
}

void RegCache::clear() {
    while (evict_one()) {
    }
    for (auto &kv : by_base_) kv.second->invalid = true;
}

bool RegCache::evict_one() {
    if (lru_.empty()) return false;
    RegEntry *e = lru_.front();
    lru_.pop_front();
    ++stats_.evictions;
    destroy(e);
    return true;
}

// Unused entries beyond the limits go, least recently used first; entries in use stay whatever
// the limits say (their users hold keys the HCA uses).
void RegCache::trim() {
    while ((by_base_.size() > limits_.max_entries || bytes_ > limits_.max_bytes) && evict_one()) {
    }
}

void RegCache::destroy(RegEntry *e) {
    reg_->deregister(e->handle);
    bytes_ -= e->len;
    auto range = by_base_.equal_range(e->base);
    for (auto it = range.first; it != range.second; ++it) {
        if (it->second.get() == e) {
            by_base_.erase(it);
            break;
        }
    }
}

}  // namespace plexus::btl_openib
