// Unit tests of the MPI_Buffer_attach allocator: a buffer sized as the sum of (message +
// MPI_BSEND_OVERHEAD) holds those messages whatever its alignment, a full buffer refuses, freed
// blocks merge with their neighbours, only completed sends give their blocks back, and draining
// (MPI_Buffer_detach) waits until every send has completed.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "mpi/bsend_buffer.h"

using namespace plexus::mpi;

namespace {

// Requests that complete when told to; they own blocks like buffered sends do.
struct Sends {
    std::vector<Request> requests = std::vector<Request>(64);
    int next = 0;
    Request *take() { return &requests[next++]; }
};

}  // namespace

TEST(MpiBsendBuffer, MessagesPlusOverheadAlwaysFit) {
    std::vector<char> memory(16 * 1024 + 64);
    for (size_t misalign = 0; misalign < 16; ++misalign) {
        for (size_t n : {0, 1, 7, 15, 16, 17, 31, 33, 100, 1000}) {
            for (int messages = 1; messages <= 5; ++messages) {
                BsendBuffer b;
                Sends s;
                b.attach(memory.data() + misalign, messages * (n + MPI_BSEND_OVERHEAD));
                for (int m = 0; m < messages; ++m) {
                    void *p = b.allocate(n, s.take());
                    ASSERT_NE(p, nullptr) << "message " << m << " of " << messages << " x " << n << " bytes, misaligned by "
                                          << misalign;
                    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % BsendBuffer::kAlign, 0u);
                    std::memset(p, 0x5A, n);  // the block is really n bytes of this buffer
                    EXPECT_GE(static_cast<char *>(p), memory.data() + misalign);
                    EXPECT_LE(static_cast<char *>(p) + n, memory.data() + misalign + messages * (n + MPI_BSEND_OVERHEAD));
                }
                EXPECT_EQ(b.used_blocks(), static_cast<size_t>(messages));
            }
        }
    }
}

TEST(MpiBsendBuffer, AFullBufferRefuses) {
    std::vector<char> memory(2 * (100 + MPI_BSEND_OVERHEAD));
    BsendBuffer b;
    Sends s;
    b.attach(memory.data(), memory.size());
    EXPECT_EQ(b.capacity(), memory.size());
    ASSERT_NE(b.allocate(100, s.take()), nullptr);
    ASSERT_NE(b.allocate(100, s.take()), nullptr);
    EXPECT_EQ(b.allocate(100, s.take()), nullptr);
    EXPECT_LT(b.largest_free(), 100u);
    EXPECT_EQ(b.allocate(memory.size() * 2, s.take()), nullptr);
}

TEST(MpiBsendBuffer, TooSmallABufferHoldsNothing) {
    char memory[MPI_BSEND_OVERHEAD / 2];
    BsendBuffer b;
    Sends s;
    b.attach(memory, sizeof memory);
    EXPECT_TRUE(b.attached());
    EXPECT_EQ(b.allocate(0, s.take()), nullptr);
    EXPECT_EQ(b.largest_free(), 0u);
}

TEST(MpiBsendBuffer, FreedBlocksMergeWithFreeNeighbours) {
    std::vector<char> memory(3 * (256 + MPI_BSEND_OVERHEAD));
    BsendBuffer b;
    Sends s;
    b.attach(memory.data(), memory.size());
    void *a = b.allocate(256, s.take());
    void *m = b.allocate(256, s.take());
    void *c = b.allocate(256, s.take());
    ASSERT_TRUE(a && m && c);
    b.release(m);
    EXPECT_EQ(b.allocate(300, s.take()), nullptr) << "the hole of 256 does not take 300";
    void *small = b.allocate(128, s.take());
    EXPECT_EQ(small, m) << "first fit reuses the hole";
    b.release(small);
    b.release(a);  // merges with the hole after it
    EXPECT_GE(b.largest_free(), 512u);
    void *big = b.allocate(512, s.take());
    EXPECT_EQ(big, a);
    b.release(big);
    b.release(c);  // everything free again: one block
    EXPECT_EQ(b.used_blocks(), 0u);
    EXPECT_EQ(b.used_bytes(), 0u);
    EXPECT_NE(b.allocate(3 * 256 + 2 * MPI_BSEND_OVERHEAD, s.take()), nullptr) << "all of it in one piece";
}

TEST(MpiBsendBuffer, ReapReleasesOnlyCompletedSends) {
    std::vector<char> memory(4 * (64 + MPI_BSEND_OVERHEAD));
    BsendBuffer b;
    Sends s;
    b.attach(memory.data(), memory.size());
    Request *r[4];
    for (auto &x : r) {
        x = s.take();
        ASSERT_NE(b.allocate(64, x), nullptr);
    }
    r[1]->complete = r[2]->complete = true;
    std::vector<Request *> done;
    EXPECT_EQ(b.reap([&](Request *x) { done.push_back(x); }), 2u);
    EXPECT_EQ(done, (std::vector<Request *>{r[1], r[2]}));
    EXPECT_EQ(b.used_blocks(), 2u);
    EXPECT_GE(b.largest_free(), 2 * 64u) << "the two freed neighbours merged";
    EXPECT_EQ(b.reap([&](Request *x) { done.push_back(x); }), 0u) << "each only once";
}

TEST(MpiBsendBuffer, DrainWaitsForEverySend) {
    std::vector<char> memory(8 * (32 + MPI_BSEND_OVERHEAD));
    BsendBuffer b;
    Sends s;
    b.attach(memory.data(), memory.size());
    std::vector<Request *> pending;
    for (int i = 0; i < 8; ++i) {
        pending.push_back(s.take());
        ASSERT_NE(b.allocate(32, pending.back()), nullptr);
    }
    // A progress engine that completes one send per poll, last first.
    int polls = 0;
    auto wait_until = [&](auto &&done) {
        while (!done()) {
            ++polls;
            ASSERT_FALSE(pending.empty()) << "waiting with nothing left to complete";
            pending.back()->complete = true;
            pending.pop_back();
        }
    };
    int released = 0;
    b.drain(wait_until, [&](Request *) { ++released; });
    EXPECT_EQ(polls, 8) << "drain returned before every send completed";
    EXPECT_EQ(released, 8);
    EXPECT_EQ(b.used_blocks(), 0u);
    void *buf = nullptr;
    size_t size = 0;
    b.detach(&buf, &size);
    EXPECT_EQ(buf, memory.data());
    EXPECT_EQ(size, memory.size());
    EXPECT_FALSE(b.attached());
}
