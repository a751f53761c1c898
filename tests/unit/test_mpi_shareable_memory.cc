// Unit tests of ShareableMemory, the memory behind MPI_Alloc_mem: what it hands out is reachable
// through the memfd find() names (as a peer would map it), never overlaps, is aligned as asked,
// keeps freed pages for reuse up to a limit and then gives them back (but not a page a neighbour
// still uses), refuses pointers it did not hand out, refuses more than the machine has, and
// works from several threads.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "mpi/shareable_memory.h"

using plexus::mpi::ShareableMemory;
using plexus::mpi::SharedRange;

namespace {

void *take(ShareableMemory &m, size_t size, size_t alignment = 1) {
    std::string why;
    void *p = m.allocate(size, alignment, &why);
    EXPECT_NE(p, nullptr) << "allocate(" << size << "): " << why;
    return p;
}

void give(ShareableMemory &m, void *p) {
    std::string why;
    EXPECT_EQ(m.release(p, &why), ShareableMemory::Release::Freed) << why;
}

// Bytes of memory the file behind fd holds.
size_t backed_bytes(int fd) {
    struct stat st;
    EXPECT_EQ(fstat(fd, &st), 0);
    return static_cast<size_t>(st.st_blocks) * 512;
}

TEST(ShareableMemory, APeerMappingTheFdSeesTheBytes) {
    ShareableMemory m;
    const size_t n = 3 * 4096 + 100;
    auto *p = static_cast<unsigned char *>(take(m, n));
    for (size_t i = 0; i < n; ++i) p[i] = static_cast<unsigned char>(i * 7 + 3);
    const auto r = m.find(p + 10);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->bytes, n - 10);
    // A second, independent mapping of the same file, as a peer given the fd would make.
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t at = (r->offset - 10) / page * page, skip = r->offset - 10 - at;
    void *view = mmap(nullptr, n + skip, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, static_cast<off_t>(at));
    ASSERT_NE(view, MAP_FAILED);
    auto *q = static_cast<unsigned char *>(view) + skip;
    EXPECT_EQ(std::memcmp(p, q, n), 0);
    q[5] = 0xee;  // and what the peer writes, the owner sees
    EXPECT_EQ(p[5], 0xee);
    munmap(view, n + skip);
    give(m, p);
    EXPECT_FALSE(m.find(p).has_value());
}

TEST(ShareableMemory, FindKnowsOnlyLiveAllocations) {
    ShareableMemory m;
    auto *p = static_cast<char *>(take(m, 100));
    EXPECT_TRUE(m.find(p + 99).has_value());
    EXPECT_FALSE(m.find(p + 100).has_value());
    int local = 0;
    EXPECT_FALSE(m.find(&local).has_value());
    give(m, p);
}

TEST(ShareableMemory, SizeZeroGivesUniquePointers) {
    ShareableMemory m;
    void *a = take(m, 0), *b = take(m, 0);
    EXPECT_NE(a, b);
    EXPECT_EQ(m.find(a)->bytes, 0u);
    give(m, a);
    give(m, b);
    EXPECT_EQ(m.live_allocations(), 0u);
}

TEST(ShareableMemory, Alignment) {
    ShareableMemory m;
    const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    void *small = take(m, 1), *odd = take(m, 65), *big = take(m, 5000), *mega = take(m, 10, 1 << 20);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(small) % ShareableMemory::kGrain, 0u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(odd) % ShareableMemory::kGrain, 0u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(big) % page, 0u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(mega) % (1 << 20), 0u);
    for (void *p : {small, odd, big, mega}) give(m, p);
}

TEST(ShareableMemory, RefusesWhatItDidNotHandOut) {
    ShareableMemory m;
    std::string why;
    int local = 0;
    EXPECT_EQ(m.release(&local, &why), ShareableMemory::Release::NotAllocated);
    EXPECT_NE(why.find("not returned by MPI_Alloc_mem"), std::string::npos) << why;
    auto *p = static_cast<char *>(take(m, 256));
    EXPECT_EQ(m.release(p + 16, &why), ShareableMemory::Release::NotAllocated);
    EXPECT_NE(why.find("16 bytes into an allocation of 256 bytes"), std::string::npos) << why;
    give(m, p);
    EXPECT_EQ(m.release(p, &why), ShareableMemory::Release::NotAllocated);  // twice
    EXPECT_NE(why.find("freed already"), std::string::npos) << why;
}

TEST(ShareableMemory, RefusesMoreThanTheMachineHas) {
    ShareableMemory m;
    std::string why;
    EXPECT_EQ(m.allocate(size_t{1} << 62, 1, &why), nullptr);
    EXPECT_NE(why.find("more than this machine's memory and swap"), std::string::npos) << why;
    EXPECT_EQ(m.live_allocations(), 0u);
}

TEST(ShareableMemory, FreedPagesGoBackAndSharedPagesStay) {
    ShareableMemory m(ShareableMemory::kDefaultSpan, 0);  // nothing kept for reuse
    const size_t big = 8 << 20;
    auto *p = static_cast<char *>(take(m, big));
    const int fd = m.find(p)->fd;
    EXPECT_GE(backed_bytes(fd), big);  // backed at allocation
    give(m, p);
    EXPECT_EQ(backed_bytes(fd), 0u);
    // Two neighbours in one page: freeing one keeps the other's bytes.
    auto *a = static_cast<char *>(take(m, 64)), *b = static_cast<char *>(take(m, 64));
    ASSERT_EQ(m.find(a)->fd, m.find(b)->fd);
    std::memset(b, 0x5a, 64);
    give(m, a);
    EXPECT_GT(backed_bytes(fd), 0u);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(b[i], 0x5a);
    give(m, b);
    EXPECT_EQ(backed_bytes(fd), 0u);
}

TEST(ShareableMemory, FreedMemoryIsKeptForReuseUpToTheLimit) {
    ShareableMemory m(ShareableMemory::kDefaultSpan, 4 << 20);
    auto *p = static_cast<char *>(take(m, 1 << 20));
    const int fd = m.find(p)->fd;
    std::memset(p, 0x33, 1 << 20);
    give(m, p);
    EXPECT_GE(backed_bytes(fd), size_t{1} << 20);  // kept
    EXPECT_EQ(take(m, 1 << 20), p);                // and reused (first fit)
    give(m, p);
    void *big = take(m, 8 << 20);
    give(m, big);  // 10 MiB freed in all: past the limit, everything free goes back
    EXPECT_EQ(backed_bytes(fd), 0u);
}

TEST(ShareableMemory, ManyAllocationsShareOneSegment) {
    ShareableMemory m;
    std::vector<unsigned char *> ps;
    for (int i = 0; i < 5000; ++i) {
        const size_t n = 1 + static_cast<size_t>(i % 300) * 13;
        auto *p = static_cast<unsigned char *>(take(m, n));
        std::memset(p, i & 0xff, n);
        ps.push_back(p);
    }
    EXPECT_EQ(m.segment_count(), 1u);  // one fd, however many allocations
    for (int i = 0; i < 5000; ++i) {
        const size_t n = 1 + static_cast<size_t>(i % 300) * 13;
        for (size_t k = 0; k < n; ++k) ASSERT_EQ(ps[i][k], i & 0xff) << "allocation " << i << " overwritten";
    }
    for (int i = 0; i < 5000; i += 2) give(m, ps[i]);  // holes, then reuse them
    for (int i = 0; i < 5000; i += 2) ps[i] = static_cast<unsigned char *>(take(m, 40));
    for (auto *p : ps) give(m, p);
    EXPECT_EQ(m.live_allocations(), 0u);
}

TEST(ShareableMemory, ALargerRequestGetsASegmentThatGoesWhenFreed) {
    ShareableMemory m(1 << 20);
    void *small = take(m, 100);
    void *large = take(m, 3 << 20);
    EXPECT_EQ(m.segment_count(), 2u);
    std::memset(large, 1, 3 << 20);
    give(m, large);
    EXPECT_EQ(m.segment_count(), 1u);
    give(m, small);
    EXPECT_EQ(m.segment_count(), 1u);  // the last one stays for the next allocation
}

TEST(ShareableMemory, ThreadsAllocateAndFreeConcurrently) {
    ShareableMemory m;
    auto work = [&m](unsigned char mark) {
        for (int i = 0; i < 2000; ++i) {
            auto *p = static_cast<unsigned char *>(take(m, 96));
            std::memset(p, mark, 96);
            for (int k = 0; k < 96; ++k) ASSERT_EQ(p[k], mark);
            give(m, p);
        }
    };
    std::thread a(work, 0x11), b(work, 0x22);
    a.join();
    b.join();
    EXPECT_EQ(m.live_allocations(), 0u);
}

}  // namespace
