// Unit tests of btl_sm's fragment pools: allocation until exhaustion (then nullptr, which the
// module turns into PLEXUS_ERR_AGAIN), return by the receiver, offsets inside the segment, and
// the in-flight count that fragments_in_flight() reports (data only, never control).
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "components/btl_sm/frag_pool.h"
#include "tests/unit/btl_sm_test_support.h"

using namespace plexus::btl_sm;
using btl_sm_test::SharedMemory;

namespace {

constexpr uint32_t kOffset = 4096, kCount = 8, kCapacity = 100;

class Frags : public ::testing::Test {
protected:
    Frags() : mem(kOffset + kCount * frag_stride(kCapacity)), pool(mem.get(), kOffset, kCount, frag_stride(kCapacity)) {}
    SharedMemory mem;
    FragPool pool;
};

TEST_F(Frags, StrideIsWholeCacheLines) {
    EXPECT_EQ(frag_stride(0), 64u);
    EXPECT_EQ(frag_stride(48), 64u);
    EXPECT_EQ(frag_stride(49), 128u);
    EXPECT_EQ(pool.data_capacity(), frag_stride(kCapacity) - sizeof(FragHeader));
    EXPECT_GE(pool.data_capacity(), kCapacity);
}

TEST_F(Frags, ExhaustionThenReturn) {
    std::vector<FragHeader *> taken;
    std::set<uint32_t> offsets;
    for (uint32_t i = 0; i < kCount; ++i) {
        FragHeader *f = pool.alloc();
        ASSERT_NE(f, nullptr) << i;
        taken.push_back(f);
        const uint32_t off = pool.offset_of(f);
        EXPECT_GE(off, kOffset);
        EXPECT_EQ((off - kOffset) % frag_stride(kCapacity), 0u);
        EXPECT_EQ(reinterpret_cast<uint8_t *>(f), mem.get() + off);
        offsets.insert(off);
    }
    EXPECT_EQ(offsets.size(), kCount) << "a fragment was handed out twice";
    EXPECT_EQ(pool.alloc(), nullptr);
    frag_return(taken[5]);  // the receiver is done with one
    FragHeader *again = pool.alloc();
    EXPECT_EQ(again, taken[5]);
    EXPECT_EQ(pool.alloc(), nullptr);
}

TEST_F(Frags, UnsentFragmentComesBack) {
    for (uint32_t i = 0; i < kCount - 1; ++i) ASSERT_NE(pool.alloc(), nullptr);
    FragHeader *last = pool.alloc();
    ASSERT_NE(last, nullptr);
    pool.release_unsent(last);  // the FIFO was full
    EXPECT_EQ(pool.alloc(), last);
}

TEST_F(Frags, InFlightCountsDataOnly) {
    FragHeader *a = pool.alloc(), *b = pool.alloc(), *c = pool.alloc();
    a->kind = kFragData;
    b->kind = kFragControl;
    c->kind = kFragData;
    EXPECT_EQ(pool.data_in_flight(), 2u);
    frag_return(a);
    EXPECT_EQ(pool.data_in_flight(), 1u);
    frag_return(c);
    frag_return(b);
    EXPECT_EQ(pool.data_in_flight(), 0u);
}

TEST_F(Frags, ManyRoundsOutOfOrderReturns) {
    std::vector<FragHeader *> out;
    for (int round = 0; round < 1000; ++round) {
        while (FragHeader *f = pool.alloc()) out.push_back(f);
        ASSERT_EQ(out.size(), kCount);
        // Return every other one, then the rest: the hand must find them wherever they are.
        for (size_t i = round % 2; i < out.size(); i += 2) frag_return(out[i]);
        std::vector<FragHeader *> kept;
        for (size_t i = 1 - round % 2; i < out.size(); i += 2) kept.push_back(out[i]);
        out = kept;
        while (FragHeader *f = pool.alloc()) out.push_back(f);
        ASSERT_EQ(out.size(), kCount);
        for (FragHeader *f : out) frag_return(f);
        out.clear();
    }
}

}  // namespace
