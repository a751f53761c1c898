// coll_basic's scratch cache: temporaries are reused across calls (the point of it), within the
// keep limit, and everything cached goes at trim.
#include <gtest/gtest.h>

#include <cstring>

#include "components/coll_basic/basic_buffer.h"
#include "components/coll_basic/basic_scratch.h"

namespace plexus::coll_basic {
namespace {

// Items of 8 data bytes at offset 8 of a 16-byte extent: temporaries are addressed 8 bytes before
// their storage.
Layout gapped_layout() {
    Layout l;
    l.extent = 16;
    l.true_lb = 8;
    l.true_extent = 8;
    l.size = 8;
    return l;
}

class ScratchTest : public ::testing::Test {
protected:
    void SetUp() override {
        scratch_trim();
        set_scratch_keep(1 << 20);
    }
    void TearDown() override {
        scratch_trim();
        set_scratch_keep(64ul << 20);
    }
};

TEST_F(ScratchTest, AReleasedBlockServesTheNextCallOfTheSameSize) {
    ScratchBlock a = scratch_acquire(100000);
    ASSERT_NE(a.data, nullptr);
    EXPECT_GE(a.capacity, 100000u);
    char *first = a.data;
    scratch_release(a);
    EXPECT_EQ(scratch_cached_blocks(), 1);
    ScratchBlock b = scratch_acquire(100000);
    EXPECT_EQ(b.data, first);
    EXPECT_EQ(scratch_cached_blocks(), 0);
    scratch_release(b);
}

TEST_F(ScratchTest, TheSmallestBlockThatFitsIsTaken) {
    ScratchBlock big = scratch_acquire(400000), small = scratch_acquire(50000), mid = scratch_acquire(200000);
    char *mid_data = mid.data, *small_data = small.data;
    scratch_release(big);
    scratch_release(small);
    scratch_release(mid);
    ScratchBlock x = scratch_acquire(60000);
    EXPECT_EQ(x.data, mid_data);  // small is too small, mid fits better than big
    ScratchBlock y = scratch_acquire(10);
    EXPECT_EQ(y.data, small_data);
    scratch_release(x);
    scratch_release(y);
}

TEST_F(ScratchTest, ABlockOverTheLimitIsFreedNotKept) {
    scratch_release(scratch_acquire(2 << 20));
    EXPECT_EQ(scratch_cached_blocks(), 0);
    EXPECT_EQ(scratch_cached_bytes(), 0u);
}

TEST_F(ScratchTest, TheCacheStaysWithinItsLimitAndKeepsTheLargerBlocks) {
    ScratchBlock a = scratch_acquire(300000), b = scratch_acquire(400000), c = scratch_acquire(600000);
    char *c_data = c.data;
    scratch_release(a);
    scratch_release(b);
    scratch_release(c);  // 300k + 400k + 600k > 1 MiB: the smaller ones make room
    EXPECT_LE(scratch_cached_bytes(), size_t{1} << 20);
    ScratchBlock again = scratch_acquire(600000);
    EXPECT_EQ(again.data, c_data);
    scratch_release(again);
}

TEST_F(ScratchTest, KeepZeroCachesNothing) {
    set_scratch_keep(0);
    scratch_release(scratch_acquire(4096));
    EXPECT_EQ(scratch_cached_blocks(), 0);
}

TEST_F(ScratchTest, TrimFreesEverything) {
    scratch_release(scratch_acquire(1000));
    scratch_release(scratch_acquire(100000));
    EXPECT_EQ(scratch_cached_blocks(), 2);
    scratch_trim();
    EXPECT_EQ(scratch_cached_blocks(), 0);
    EXPECT_EQ(scratch_cached_bytes(), 0u);
}

TEST_F(ScratchTest, TempBuffersReturnTheirBlockAndKeepTheTypeShift) {
    const Layout l = gapped_layout();
    char *storage;
    {
        TempBuffer t;
        ASSERT_TRUE(t.allocate(l, 1000));
        storage = t.data() + l.true_lb;  // the first byte of the block
        storage[0] = 1;
        storage[l.span(1000) - 1] = 2;
    }
    EXPECT_EQ(scratch_cached_blocks(), 1);
    TempBuffer again;
    ASSERT_TRUE(again.allocate_bytes(l.span(1000)));
    EXPECT_EQ(again.data(), storage);
    TempBuffer empty;
    EXPECT_TRUE(empty.allocate(l, 0));
    EXPECT_EQ(empty.data(), nullptr);
}

TEST_F(ScratchTest, SmallTempBuffersLiveInTheObjectAndLeaveTheCacheAlone) {
    const Layout l = gapped_layout();
    const long n = (TempBuffer::kInline - 8) / 16 + 1;  // the most items that fit inline
    ASSERT_LE(l.span(n), TempBuffer::kInline);
    {
        TempBuffer t;
        ASSERT_TRUE(t.allocate(l, n));
        char *first = t.data() + l.true_lb;
        EXPECT_GE(first, reinterpret_cast<char *>(&t));  // inside the object
        EXPECT_LE(first + l.span(n), reinterpret_cast<char *>(&t) + sizeof t);
        std::memset(first, 7, l.span(n));
        EXPECT_EQ(scratch_cached_blocks(), 0);
        ASSERT_TRUE(t.allocate(l, n + 1));  // one more item: from the cache
        const char *block = t.data() + l.true_lb, *object = reinterpret_cast<char *>(&t);
        EXPECT_TRUE(block < object || block >= object + sizeof t);
    }
    EXPECT_EQ(scratch_cached_blocks(), 1);  // the block came back, the inline bytes never went there
}

}  // namespace
}  // namespace plexus::coll_basic
