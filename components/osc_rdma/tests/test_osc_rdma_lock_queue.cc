// Unit tests of the target's lock queue (rdma_lock_queue.h): exclusive and shared grants, strict
// FIFO order (no overtaking, so no starvation), and release only once the count an unlock
// announced has arrived.
#include <gtest/gtest.h>

#include <plexus/osc.h>

#include "components/osc_rdma/rdma_lock_queue.h"

using namespace plexus::osc_rdma;

namespace {
constexpr int X = PLEXUS_OSC_LOCK_EXCLUSIVE;
constexpr int S = PLEXUS_OSC_LOCK_SHARED;
using V = std::vector<int>;
}  // namespace

TEST(OscRdmaLockQueue, ExclusiveIsAlone) {
    LockQueue q;
    EXPECT_EQ(q.request(1, X).granted, V{1});
    EXPECT_EQ(q.request(2, X).granted, V{});
    EXPECT_EQ(q.request(3, S).granted, V{});
    LockEvents ev = q.unlock(1, 0);
    EXPECT_EQ(ev.released, V{1});
    EXPECT_EQ(ev.granted, V{2});
    ev = q.unlock(2, 0);
    EXPECT_EQ(ev.released, V{2});
    EXPECT_EQ(ev.granted, V{3});
}

TEST(OscRdmaLockQueue, SharedHoldersTogetherUntilAnExclusiveWaits) {
    LockQueue q;
    EXPECT_EQ(q.request(0, S).granted, V{0});
    EXPECT_EQ(q.request(1, S).granted, V{1});
    EXPECT_EQ(q.request(2, X).granted, V{});
    // FIFO: a shared request behind the waiting exclusive one waits, though it could share.
    EXPECT_EQ(q.request(3, S).granted, V{});
    EXPECT_EQ(q.holders(), 2u);
    EXPECT_EQ(q.waiting(), 2u);
    EXPECT_EQ(q.unlock(0, 0).granted, V{});  // 1 still holds
    LockEvents ev = q.unlock(1, 0);
    EXPECT_EQ(ev.released, V{1});
    EXPECT_EQ(ev.granted, V{2});
    ev = q.unlock(2, 0);
    EXPECT_EQ(ev.granted, V{3});
}

TEST(OscRdmaLockQueue, SharedRequestsAfterAnExclusiveAreGrantedTogether) {
    LockQueue q;
    q.request(9, X);
    q.request(1, S);
    q.request(2, S);
    q.request(3, X);
    q.request(4, S);
    LockEvents ev = q.unlock(9, 0);
    EXPECT_EQ(ev.granted, (V{1, 2}));
    ev = q.unlock(2, 0);
    EXPECT_EQ(ev.granted, V{});
    ev = q.unlock(1, 0);
    EXPECT_EQ(ev.granted, V{3});
    ev = q.unlock(3, 0);
    EXPECT_EQ(ev.granted, V{4});
}

TEST(OscRdmaLockQueue, ReleaseWaitsForTheAnnouncedCount) {
    LockQueue q;
    q.request(1, X);
    q.request(2, X);
    q.arrived(1, 2);
    LockEvents ev = q.unlock(1, 5);  // 3 still on their way
    EXPECT_EQ(ev.released, V{});
    EXPECT_EQ(ev.granted, V{});
    EXPECT_TRUE(q.holds(1));
    EXPECT_EQ(q.arrived(1, 2).released, V{});
    ev = q.arrived(1);
    EXPECT_EQ(ev.released, V{1});
    EXPECT_EQ(ev.granted, V{2});
    EXPECT_FALSE(q.holds(1));
    EXPECT_TRUE(q.holds(2));
}

TEST(OscRdmaLockQueue, ArrivalsBeforeTheUnlockCount) {
    LockQueue q;
    q.request(4, S);
    q.arrived(4, 3);
    EXPECT_EQ(q.unlock(4, 3).released, V{4});
    EXPECT_EQ(q.holders(), 0u);
}

TEST(OscRdmaLockQueue, EveryRequestIsGrantedInArrivalOrderUnderContention) {
    LockQueue q;
    const int n = 8;
    std::vector<int> order;
    for (int r = 0; r < n; ++r)
        for (int g : q.request(r, r % 3 == 0 ? X : S).granted) order.push_back(g);
    while (q.holders() > 0) {
        std::vector<int> holding;
        for (int r = 0; r < n; ++r)
            if (q.holds(r)) holding.push_back(r);
        for (int r : holding)
            for (int g : q.unlock(r, 0).granted) order.push_back(g);
    }
    EXPECT_EQ(order, (V{0, 1, 2, 3, 4, 5, 6, 7}));
}

// MPI_MODE_NOCHECK: the origin holds the lock from its request on, with no grant; arrivals and
// an unlock that overtook the request count once it comes; others still queue behind it.
TEST(OscRdmaLockQueue, NoCheckHoldsWithoutAGrantAndKeepsWhatCameFirst) {
    LockQueue q;
    EXPECT_EQ(q.arrived(4, 2).released, V{});
    EXPECT_EQ(q.unlock(4, 3).released, V{});
    EXPECT_FALSE(q.holds(4));
    LockEvents ev = q.request(4, X, true);
    EXPECT_EQ(ev.granted, V{});
    EXPECT_EQ(ev.released, V{});
    EXPECT_TRUE(q.holds(4));
    EXPECT_EQ(q.request(5, S).granted, V{});  // behind the exclusive holder
    ev = q.arrived(4, 1);
    EXPECT_EQ(ev.released, V{4});
    EXPECT_EQ(ev.granted, V{5});
    ev = q.request(6, S, true);  // with shared holders too
    EXPECT_EQ(ev.granted, V{});
    EXPECT_EQ(q.holders(), 2u);
}
