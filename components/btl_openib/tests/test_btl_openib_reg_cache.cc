// The registration cache over a fake registrar that records every registration: covering lookups,
// page rounding, LRU eviction within the limits (never of an entry in use), invalidation on free,
// leave_pinned off, and eviction when the registrar runs out of resources.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "components/btl_openib/reg_cache.h"

using namespace plexus::btl_openib;

namespace {

struct FakeRegistrar : Registrar {
    std::map<uint64_t, std::pair<uintptr_t, size_t>> live;  // handle -> range
    uint64_t next = 1;
    int registrations = 0;
    size_t capacity = 1000;  // registrations the "HCA" holds before ENOMEM
    std::vector<uintptr_t> deregistered;

    bool register_range(uintptr_t base, size_t len, uint64_t *handle, uint32_t *lkey, uint32_t *rkey,
                        bool *out_of_resources, std::string *why) override {
        if (live.size() >= capacity) {
            *out_of_resources = true;
            *why = "ENOMEM";
            return false;
        }
        ++registrations;
        *handle = next++;
        *lkey = static_cast<uint32_t>(*handle * 10);
        *rkey = static_cast<uint32_t>(*handle * 10 + 1);
        live[*handle] = {base, len};
        return true;
    }
    void deregister(uint64_t handle) override {
        ASSERT_EQ(live.count(handle), 1u) << "deregistered twice or never registered";
        deregistered.push_back(live[handle].first);
        live.erase(handle);
    }
};

const void *at(uintptr_t a) { return reinterpret_cast<const void *>(a); }

RegCacheLimits limits(size_t entries, size_t bytes, bool leave_pinned = true) {
    RegCacheLimits l;
    l.max_entries = entries;
    l.max_bytes = bytes;
    l.leave_pinned = leave_pinned;
    l.page = 4096;
    return l;
}

TEST(OpenibRegCache, ARangeIsRegisteredPageAlignedAndFoundAgainInsideIt) {
    FakeRegistrar r;
    RegCache c(&r, limits(16, 1 << 30));
    std::string why;
    RegEntry *e = c.acquire(at(0x10010), 0x2000, &why);
    ASSERT_NE(e, nullptr) << why;
    EXPECT_EQ(e->base, 0x10000u);
    EXPECT_EQ(e->len, 0x3000u);  // 0x10010 + 0x2000 ends in the third page
    EXPECT_EQ(r.live.at(e->handle), std::make_pair(uintptr_t(0x10000), size_t(0x3000)));
    c.release(e);
    EXPECT_EQ(c.acquire(at(0x11000), 0x1000, &why), e) << "a sub-range hits";
    EXPECT_EQ(c.acquire(at(0x10000), 0x3000, &why), e) << "the whole range hits";
    RegEntry *f = c.acquire(at(0x12000), 0x2000, &why);
    EXPECT_NE(f, e) << "a range reaching past the entry misses";
    EXPECT_EQ(r.registrations, 2);
    EXPECT_EQ(c.stats().hits, 2u);
    EXPECT_EQ(c.stats().misses, 2u);
    EXPECT_EQ(e->users, 2u);
}

TEST(OpenibRegCache, ALongEntryStartingFarBeforeCoversARequestBehindShorterOnes) {
    FakeRegistrar r;
    RegCache c(&r, limits(16, 1 << 30));
    std::string why;
    RegEntry *big = c.acquire(at(0x100000), 0x100000, &why);  // 1 MiB
    RegEntry *small = c.acquire(at(0x180000), 0x1000, &why);
    EXPECT_EQ(small, big);
    RegEntry *tail = c.acquire(at(0x1ff000), 0x1000, &why);
    EXPECT_EQ(tail, big);
    EXPECT_EQ(r.registrations, 1);
}

TEST(OpenibRegCache, UnusedEntriesAreEvictedLeastRecentlyUsedFirstAndUsedOnesNever) {
    FakeRegistrar r;
    RegCache c(&r, limits(3, 1 << 30));
    std::string why;
    RegEntry *a = c.acquire(at(0x1000), 1, &why);
    RegEntry *b = c.acquire(at(0x3000), 1, &why);
    RegEntry *d = c.acquire(at(0x5000), 1, &why);
    c.release(b);  // b least recently released
    c.release(a);
    // d stays in use; a fourth entry pushes the cache over 3: b goes, then nothing else.
    RegEntry *e = c.acquire(at(0x7000), 1, &why);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(r.deregistered, std::vector<uintptr_t>{0x3000});
    EXPECT_EQ(c.entries(), 3u);
    c.release(e);
    RegEntry *g = c.acquire(at(0x9000), 1, &why);
    EXPECT_EQ(r.deregistered, (std::vector<uintptr_t>{0x3000, 0x1000}));
    EXPECT_EQ(c.acquire(at(0x7000), 1, &why), e) << "e was used more recently than a";
    (void)d;
    (void)g;
}

TEST(OpenibRegCache, TheByteLimitEvictsToo) {
    FakeRegistrar r;
    RegCache c(&r, limits(100, 0x3000));
    std::string why;
    for (uintptr_t base : {0x10000, 0x20000, 0x30000}) c.release(c.acquire(at(base), 0x1000, &why));
    EXPECT_EQ(c.bytes(), 0x3000u);
    c.release(c.acquire(at(0x40000), 0x2000, &why));
    EXPECT_LE(c.bytes(), 0x3000u);
    EXPECT_EQ(r.deregistered, (std::vector<uintptr_t>{0x10000, 0x20000}));
}

TEST(OpenibRegCache, InvalidatedMemoryIsNeverFoundAgainAndGoesWhenItsLastUserIsDone) {
    FakeRegistrar r;
    RegCache c(&r, limits(16, 1 << 30));
    std::string why;
    RegEntry *unused = c.acquire(at(0x10000), 0x1000, &why);
    c.release(unused);
    RegEntry *used = c.acquire(at(0x20000), 0x1000, &why);
    RegEntry *elsewhere = c.acquire(at(0x40000), 0x1000, &why);
    c.invalidate(at(0x10800), 0x10000);  // overlaps both of the first two, not the third
    EXPECT_EQ(r.deregistered, std::vector<uintptr_t>{0x10000}) << "unused: at once";
    RegEntry *fresh = c.acquire(at(0x20000), 0x1000, &why);
    EXPECT_NE(fresh, used) << "an invalidated entry is not handed out again";
    c.release(used);
    EXPECT_EQ(r.deregistered, (std::vector<uintptr_t>{0x10000, 0x20000})) << "in use: at its last release";
    EXPECT_EQ(c.stats().invalidations, 2u);
    EXPECT_EQ(r.live.count(elsewhere->handle), 1u);
}

TEST(OpenibRegCache, WithoutLeavePinnedTheLastReleaseDeregisters) {
    FakeRegistrar r;
    RegCache c(&r, limits(16, 1 << 30, false));
    std::string why;
    RegEntry *a = c.acquire(at(0x1000), 10, &why);
    EXPECT_EQ(c.acquire(at(0x1000), 10, &why), a) << "concurrent users share it";
    c.release(a);
    EXPECT_TRUE(r.deregistered.empty());
    c.release(a);
    EXPECT_EQ(r.deregistered, std::vector<uintptr_t>{0x1000});
    EXPECT_EQ(c.entries(), 0u);
}

TEST(OpenibRegCache, RunningOutOfRegistrationsEvictsUnusedOnesAndFailsOnlyWhenAllAreInUse) {
    FakeRegistrar r;
    r.capacity = 2;
    RegCache c(&r, limits(16, 1 << 30));
    std::string why;
    RegEntry *a = c.acquire(at(0x1000), 1, &why);
    RegEntry *b = c.acquire(at(0x3000), 1, &why);
    c.release(a);
    ASSERT_NE(c.acquire(at(0x5000), 1, &why), nullptr);
    EXPECT_EQ(r.deregistered, std::vector<uintptr_t>{0x1000});
    EXPECT_EQ(c.acquire(at(0x7000), 1, &why), nullptr);
    EXPECT_EQ(why, "ENOMEM");
    (void)b;
}

TEST(OpenibRegCache, ClosingDeregistersEverythingInUseOrNot) {
    FakeRegistrar r;
    {
        RegCache c(&r, limits(16, 1 << 30));
        std::string why;
        c.acquire(at(0x1000), 1, &why);
        c.release(c.acquire(at(0x3000), 1, &why));
    }
    EXPECT_TRUE(r.live.empty());
}

}  // namespace
