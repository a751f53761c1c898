// Unit tests of the request pool: requests come fresh and valid, go back invalid, are reused
// without new allocations, and the pool grows by whole chunks.
#include <gtest/gtest.h>

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
