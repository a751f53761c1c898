// The registration cache: memory registered with the HCA (pinned, with keys) kept for reuse,
// apart from verbs so that it is tested with a fake registrar. Registering costs tens of
// microseconds per call plus pinning every page, so a buffer sent from again and again (the
// PML's rendezvous, osc_rdma's window) is registered once.
//
// Entries cover page-aligned ranges, kept in a map sorted by start; a lookup finds an entry that
// covers the whole request by walking back from the request's start no further than the longest
// entry (an interval search without a tree, exact because no entry is longer than that). Entries
// in use are counted; unused ones sit on an LRU list and are evicted, oldest first, when the
// cache exceeds its limits or the registrar runs out of resources. invalidate() is what a memory
// hook calls when the application frees memory: the range's entries are deregistered at once, or
// when their last user releases them; they are never found again. With leave_pinned off, an entry
// is deregistered as soon as its last user releases it (the cache then only shares concurrent
// uses of one buffer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace plexus::btl_openib {

// What registers memory: the HCA's protection domain in the module, a fake in tests.
class Registrar {
public:
    virtual ~Registrar() = default;
    // Registers [base, base + len); false (with why) when it cannot, *out_of_resources when
    // evicting unused registrations might help (ENOMEM, too many MRs).
    virtual bool register_range(uintptr_t base, size_t len, uint64_t *handle, uint32_t *lkey, uint32_t *rkey,
                                bool *out_of_resources, std::string *why) = 0;
    virtual void deregister(uint64_t handle) = 0;
};

struct RegEntry {
    uintptr_t base = 0;
    size_t len = 0;
    uint64_t handle = 0;  // the registrar's (the MR)
    uint32_t lkey = 0;
    uint32_t rkey = 0;
    uint32_t users = 0;
    bool invalid = false;  // invalidated while in use: deregistered at its last release
    std::list<RegEntry *>::iterator lru;
};

struct RegCacheLimits {
    size_t max_entries = 4096;   // registrations kept at once (in use ones are never evicted)
    size_t max_bytes = size_t{1} << 30;
    bool leave_pinned = true;    // keep unused registrations for later (LRU)
    size_t page = 4096;
};

struct RegCacheStats {
    uint64_t hits = 0, misses = 0, evictions = 0, invalidations = 0;
};

class RegCache {
public:
    RegCache(Registrar *registrar, const RegCacheLimits &limits) : reg_(registrar), limits_(limits) {}
    // Everything is deregistered, in use or not: the module closes.
    ~RegCache();
    RegCache(const RegCache &) = delete;
    RegCache &operator=(const RegCache &) = delete;

    // An entry covering [addr, addr + len), registered now if none is; nullptr with why.
    RegEntry *acquire(const void *addr, size_t len, std::string *why);
    // One user fewer; the entry may be deregistered (leave_pinned off, invalid) or evicted later.
    void release(RegEntry *e);
    // The application gave [addr, addr + len) back: no entry overlapping it is used again.
    void invalidate(const void *addr, size_t len);
    // Deregisters every unused entry (and marks the used ones invalid).
    void clear();

    size_t entries() const { return by_base_.size(); }
    size_t bytes() const { return bytes_; }
    size_t unused() const { return lru_.size(); }
    const RegCacheStats &stats() const { return stats_; }

private:
    RegEntry *find(uintptr_t base, uintptr_t end);
    RegEntry *insert(uintptr_t base, size_t len, std::string *why);
    bool evict_one();
    void trim();
    void destroy(RegEntry *e);

    Registrar *reg_;
    RegCacheLimits limits_;
    std::multimap<uintptr_t, std::unique_ptr<RegEntry>> by_base_;
    std::list<RegEntry *> lru_;  // unused entries, least recently released first
    size_t bytes_ = 0;
    size_t longest_ = 0;  // no entry is longer (the backward search stops there)
    RegCacheStats stats_;
};

}  // namespace plexus::btl_openib
