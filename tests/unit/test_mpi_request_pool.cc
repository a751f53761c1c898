// Unit tests of the request pool: requests come fresh and valid, go back invalid, are reused
// without new allocations, and the pool grows by whole chunks.
#include <gtest/gtest.h>

#include <cstring>
#include <new>
#include <set>
#include <vector>

#include "mpi/request_complete.h"
#include "mpi/request_pool.h"

using namespace plexus::mpi;

TEST(MpiRequestPool, RequestsComeFreshAndValid) {
    RequestPool pool;
    Request *r = pool.get();
    EXPECT_TRUE(request_valid(r));
    EXPECT_EQ(pool.live(), 1u);
    r->complete = true;
    r->persistent = true;
    r->status.bytes = 99;
    r->pml.queued = true;
    r->mpi_flags = 7;
    pool.put(r);
    EXPECT_FALSE(request_valid(r)) << "a returned request is no valid handle";
    EXPECT_EQ(pool.live(), 0u);
    Request *again = pool.get();
    EXPECT_EQ(again, r) << "the last returned is reused first (warm in the cache)";
    EXPECT_FALSE(again->complete);
    EXPECT_FALSE(again->persistent);
    EXPECT_EQ(again->status.bytes, 0u);
    EXPECT_FALSE(again->pml.queued);
    EXPECT_EQ(again->mpi_flags, 0u);
    pool.put(again);
}

TEST(MpiRequestPool, GrowsByChunksAndReusesWithoutAllocating) {
    RequestPool pool;
    std::vector<Request *> taken;
    for (size_t i = 0; i < RequestPool::kChunk + 1; ++i) taken.push_back(pool.get());
    EXPECT_EQ(pool.capacity(), 2 * RequestPool::kChunk);
    EXPECT_EQ(std::set<Request *>(taken.begin(), taken.end()).size(), taken.size());
    for (Request *r : taken) pool.put(r);
    for (int round = 0; round < 100; ++round) {
        Request *a = pool.get(), *b = pool.get();
        pool.put(a);
        pool.put(b);
    }
    EXPECT_EQ(pool.capacity(), 2 * RequestPool::kChunk) << "no growth while requests come back";
    EXPECT_EQ(pool.live(), 0u);
}

TEST(MpiRequestPool, GarbageIsNoRequest) {
    Request on_stack;
    EXPECT_FALSE(request_valid(&on_stack)) << "blocking calls' requests are never handles";
    EXPECT_FALSE(request_valid(nullptr));
}

namespace {

// Every field of a request in its initial state (what `Request r;` and reset_request both give).
void expect_initial(const Request &r) {
    EXPECT_EQ(r.kind, RequestKind::Send);
    EXPECT_EQ(r.mode, SendMode::Standard);
    EXPECT_FALSE(r.typed);
    EXPECT_EQ(r.buf, nullptr);
    EXPECT_EQ(r.bytes, 0u);
    EXPECT_EQ(r.peer, 0);
    EXPECT_EQ(r.tag, 0);
    EXPECT_EQ(r.comm, nullptr);
    EXPECT_FALSE(r.complete);
    EXPECT_EQ(r.status.source, -1);
    EXPECT_EQ(r.status.tag, -1);
    EXPECT_EQ(r.status.error, 0);
    EXPECT_EQ(r.status.bytes, 0u);
    EXPECT_FALSE(r.status.cancelled);
    EXPECT_FALSE(r.persistent);
    EXPECT_FALSE(r.active);
    EXPECT_FALSE(r.user_freed);
    EXPECT_EQ(r.mpi_flags, 0u);
    EXPECT_EQ(r.mpi_data, nullptr);
    EXPECT_EQ(r.count, 0);
    EXPECT_EQ(r.datatype, nullptr);
    EXPECT_EQ(r.user_buf, nullptr);
    EXPECT_EQ(r.mpi_magic, 0u);
    EXPECT_EQ(r.mpi_next, nullptr);
    EXPECT_EQ(r.pml.state, 0);
    EXPECT_FALSE(r.pml.queued);
    EXPECT_EQ(r.pml.proc, 0u);
    EXPECT_EQ(r.pml.seq, 0u);
    EXPECT_EQ(r.pml.peer_cookie, 0u);
    EXPECT_EQ(r.pml.offset, 0u);
    EXPECT_EQ(r.pml.target, 0u);
    EXPECT_EQ(r.pml.next, nullptr);
    EXPECT_EQ(r.pml.prev, nullptr);
    EXPECT_EQ(r.pml.rdma, nullptr);
    EXPECT_EQ(r.pml.staging, nullptr);
}

}  // namespace

// Request's constructor is user-provided (so that g++ does not clear it with rep stos) but must
// still start every field where the blocking calls expect it: built over garbage, and reset over
// garbage, a request is in the initial state.
TEST(MpiRequestPool, ARequestStartsInItsInitialStateOverGarbage) {
    alignas(Request) unsigned char built[sizeof(Request)];
    std::memset(built, 0xA5, sizeof built);
    Request *r = new (built) Request;
    expect_initial(*r);
    r->~Request();

    alignas(Request) unsigned char reset[sizeof(Request)];
    std::memset(reset, 0x5A, sizeof reset);
    Request *again = new (reset) Request;
    std::memset(static_cast<void *>(again), 0x5A, sizeof reset);
    reset_request(again);
    expect_initial(*again);
}
