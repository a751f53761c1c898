// Unit tests of the per-target counts (rdma_counters.h): a fence at each process waits for
// exactly what the count exchange (the column sums a reduce-scatter delivers) says, no less and
// no more, with the next epoch's early arrivals kept apart; PSCW waits per origin for the count
// its complete message announced.
#include <gtest/gtest.h>

#include <random>

#include "components/osc_rdma/rdma_counters.h"

using namespace plexus::osc_rdma;

TEST(OscRdmaCounters, SentCountsAreTakenPerEpoch) {
    SentCounts s(4);
    s.add(1, 3);
    s.add(3, 1);
    s.add(1, 2);
    EXPECT_EQ(s.of(1), 5u);
    EXPECT_EQ(s.take_all(), (std::vector<uint32_t>{0, 5, 0, 1}));
    EXPECT_EQ(s.take_all(), (std::vector<uint32_t>{0, 0, 0, 0}));
    s.add(2, 7);
    EXPECT_EQ(s.take(2), 7u);
    EXPECT_EQ(s.of(2), 0u);
}

// A random matrix sent[i][j] (process i to j): each process's incoming total is its column sum,
// and its fence completes exactly when that many records arrived.
TEST(OscRdmaCounters, FenceWaitsForExactlyTheColumnSum) {
    std::mt19937 rng(42);
    const int n = 5;
    std::vector<std::vector<uint32_t>> sent(n, std::vector<uint32_t>(n));
    for (auto &row : sent)
        for (auto &c : row) c = rng() % 7;
    for (int me = 0; me < n; ++me) {
        std::vector<uint32_t> column(n);
        for (int i = 0; i < n; ++i) column[size_t(i)] = sent[size_t(i)][size_t(me)];
        const uint64_t expected = incoming_total(column);
        ReceivedCounts rc(n);
        rc.expect_fence(0, expected);
        uint64_t got = 0;
        for (int i = 0; i < n; ++i)
            for (uint32_t k = 0; k < sent[size_t(i)][size_t(me)]; ++k) {
                EXPECT_FALSE(rc.fence_done(0)) << me << " after " << got;
                rc.arrived(EpochTag::kFenceEven, i);
                ++got;
            }
        EXPECT_TRUE(rc.fence_done(0)) << me;
        EXPECT_EQ(got, expected);
    }
}

TEST(OscRdmaCounters, TheNextFenceEpochsArrivalsDoNotEndThisOne) {
    ReceivedCounts rc(2);
    rc.expect_fence(0, 2);
    rc.arrived(EpochTag::kFenceEven, 1);
    rc.arrived(EpochTag::kFenceOdd, 1, 5);  // a peer already one fence ahead
    EXPECT_FALSE(rc.fence_done(0));
    rc.arrived(EpochTag::kFenceEven, 0);
    EXPECT_TRUE(rc.fence_done(0));
    rc.end_fence(0);
    rc.expect_fence(1, 5);
    EXPECT_TRUE(rc.fence_done(1));  // they count for the epoch they belong to
    rc.end_fence(1);
    rc.expect_fence(0, 1);
    EXPECT_FALSE(rc.fence_done(0));  // the parity came round clean
}

TEST(OscRdmaCounters, AnEmptyFenceIsDoneAtOnce) {
    ReceivedCounts rc(3);
    rc.expect_fence(1, incoming_total({0, 0, 0}));
    EXPECT_TRUE(rc.fence_done(1));
}

TEST(OscRdmaCounters, PscwWaitsForTheAnnouncedCountPerOrigin) {
    ReceivedCounts rc(3);
    EXPECT_FALSE(rc.pscw_done(1));  // no complete message yet
    rc.arrived(EpochTag::kPscw, 1, 2);
    EXPECT_FALSE(rc.pscw_done(1));
    rc.announce(1, 3);
    EXPECT_FALSE(rc.pscw_done(1));
    rc.arrived(EpochTag::kPscw, 2);  // another origin's operation does not count for 1
    EXPECT_FALSE(rc.pscw_done(1));
    rc.arrived(EpochTag::kPscw, 1);
    EXPECT_TRUE(rc.pscw_done(1));
    rc.end_pscw(1);
    EXPECT_FALSE(rc.pscw_done(1));
    rc.announce(2, 1);
    EXPECT_TRUE(rc.pscw_done(2));
    rc.announce(0, 0);  // an empty epoch
    EXPECT_TRUE(rc.pscw_done(0));
}
