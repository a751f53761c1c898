// Unit tests of what coll_basic's auto picks (basic_choice.h): the size thresholds of every
// collective and, on nodes with more ranks than CPUs, the algorithms without relays from 3 ranks
// on. The algorithms themselves are tested in test_coll_basic_intra.cc.
#include <gtest/gtest.h>

#include "components/coll_basic/basic_choice.h"
#include "components/coll_basic/basic_params.h"

using namespace plexus::coll_basic;

namespace {

Params node(bool oversubscribed) {
    Params p = params();  // the registered defaults
    p.oversubscribed = oversubscribed;
    return p;
}

constexpr long kK = 1024;

}  // namespace

TEST(CollBasicChoice, DefaultsAreTheDocumentedOnes) {
    const Params p = params();
    EXPECT_EQ(p.bcast_large, 4 * kK * kK);
    EXPECT_EQ(p.bcast_linear_below, 64 * kK);
    EXPECT_EQ(p.bcast_segment, 8000);
    EXPECT_EQ(p.bcast_pipeline_below, 512 * kK);
    EXPECT_EQ(p.reduce_linear_below, 256 * kK);
    EXPECT_EQ(p.allreduce_large, 16 * kK);
    EXPECT_EQ(p.allreduce_reduce_bcast_below, 32 * kK);
    EXPECT_EQ(p.allreduce_direct_below, 256 * kK);
    EXPECT_EQ(p.alltoall_large, kK);
    EXPECT_EQ(p.allgather_large, 256 * kK);
}

TEST(CollBasicChoice, BarrierIsLinearOnOversubscribedNodesFromThreeRanks) {
    for (int n = 2; n <= 8; ++n) {
        EXPECT_EQ(choose_barrier(node(false), n), kBarrierDissemination) << n;
        EXPECT_EQ(choose_barrier(node(true), n), n > 2 ? kBarrierLinear : kBarrierDissemination) << n;
    }
}

TEST(CollBasicChoice, Bcast) {
    const Params idle = node(false), over = node(true);
    EXPECT_EQ(choose_bcast(idle, 8, 8), kBcastBinomial);
    EXPECT_EQ(choose_bcast(idle, 8, 4 * kK * kK), kBcastScatterAllgather);
    EXPECT_EQ(choose_bcast(idle, 2, 64 * kK * kK), kBcastBinomial);  // one message: nothing to scatter
    EXPECT_EQ(choose_bcast(over, 8, 8), kBcastLinear);
    EXPECT_EQ(choose_bcast(over, 8, 64 * kK - 1), kBcastLinear);
    for (int n = 3; n <= 8; ++n) {
        EXPECT_EQ(choose_bcast(over, n, 64 * kK - 1), kBcastLinear) << n;
        EXPECT_EQ(choose_bcast(over, n, 64 * kK), kBcastPipeline) << n;
        EXPECT_EQ(choose_bcast(over, n, 512 * kK - 1), kBcastPipeline) << n;
        // From there the chains' segments stall on every descheduled relay (osu_bcast, issue 15):
        // every process takes the whole message from the root, up to and past bcast_large.
        EXPECT_EQ(choose_bcast(over, n, 512 * kK), kBcastLinear) << n;
        EXPECT_EQ(choose_bcast(over, n, kK * kK), kBcastLinear) << n;
        EXPECT_EQ(choose_bcast(over, n, 64 * kK * kK), kBcastLinear) << n;
    }
    EXPECT_EQ(choose_bcast(over, 2, 64 * kK), kBcastBinomial);
    EXPECT_EQ(choose_bcast(over, 2, 4 * kK * kK), kBcastBinomial);
}

TEST(CollBasicChoice, BcastPipelineBoundFollowsItsParameter) {
    Params over = node(true);
    over.bcast_pipeline_below = 2 * kK * kK;
    EXPECT_EQ(choose_bcast(over, 8, kK * kK), kBcastPipeline);
    EXPECT_EQ(choose_bcast(over, 8, 2 * kK * kK), kBcastLinear);
    over.bcast_pipeline_below = 0;  // below bcast_linear_bytes: no pipeline at all
    EXPECT_EQ(choose_bcast(over, 8, 64 * kK), kBcastLinear);
}

TEST(CollBasicChoice, Reduce) {
    EXPECT_EQ(choose_reduce(node(false), 8, 8), kReduceBinomial);
    EXPECT_EQ(choose_reduce(node(false), 8, 16 * kK * kK - 4), kReduceBinomial);
    EXPECT_EQ(choose_reduce(node(false), 8, 16 * kK * kK), kReduceScatterGather);
    for (int n = 2; n <= 8; ++n) {
        EXPECT_EQ(choose_reduce(node(true), n, 256 * kK - 4), kReduceLinear) << n;
        EXPECT_EQ(choose_reduce(node(true), n, 256 * kK), n > 2 ? kReduceDirect : kReduceBinomial) << n;
        EXPECT_EQ(choose_reduce(node(true), n, 16 * kK * kK), n > 2 ? kReduceDirect : kReduceScatterGather) << n;
    }
}

TEST(CollBasicChoice, Allreduce) {
    for (int n = 2; n <= 8; ++n) {
        EXPECT_EQ(choose_allreduce(node(false), n, 8), kAllreduceRecursiveDoubling) << n;
        EXPECT_EQ(choose_allreduce(node(false), n, 16 * kK - 4), kAllreduceRecursiveDoubling) << n;
        EXPECT_EQ(choose_allreduce(node(false), n, 16 * kK), kAllreduceRabenseifner) << n;
        EXPECT_EQ(choose_allreduce(node(false), n, 64 * kK), kAllreduceRabenseifner) << n;
        const bool relay_free = n > 2;
        EXPECT_EQ(choose_allreduce(node(true), n, 8), relay_free ? kAllreduceReduceBcast : kAllreduceRecursiveDoubling)
            << n;
        EXPECT_EQ(choose_allreduce(node(true), n, 32 * kK - 4),
                  relay_free ? kAllreduceReduceBcast : kAllreduceRabenseifner)
            << n;
        EXPECT_EQ(choose_allreduce(node(true), n, 32 * kK), relay_free ? kAllreduceDirect : kAllreduceRabenseifner)
            << n;
        EXPECT_EQ(choose_allreduce(node(true), n, 256 * kK - 4),
                  relay_free ? kAllreduceDirect : kAllreduceRabenseifner)
            << n;
        EXPECT_EQ(choose_allreduce(node(true), n, 256 * kK), kAllreduceRabenseifner) << n;
    }
}

TEST(CollBasicChoice, AllgatherWithoutRelaysOnOversubscribedNodes) {
    EXPECT_EQ(choose_allgather(node(false), 8, 8 * 8), kAllgatherRecursiveDoubling);
    EXPECT_EQ(choose_allgather(node(false), 6, 6 * 8), kAllgatherBruck);
    EXPECT_EQ(choose_allgather(node(false), 8, 256 * kK), kAllgatherRing);
    for (int n = 3; n <= 8; ++n) {
        EXPECT_EQ(choose_allgather(node(true), n, n * 8), kAllgatherLinear) << n;
        EXPECT_EQ(choose_allgather(node(true), n, 256 * kK), kAllgatherLinear) << n;
    }
    EXPECT_EQ(choose_allgather(node(true), 2, 16), kAllgatherRecursiveDoubling);
}

TEST(CollBasicChoice, AlltoallWithoutRelaysOnOversubscribedNodes) {
    EXPECT_EQ(choose_alltoall(node(false), 8, 8), kAlltoallBruck);
    EXPECT_EQ(choose_alltoall(node(false), 8, kK), kAlltoallPairwise);
    EXPECT_EQ(choose_alltoall(node(false), 2, 8), kAlltoallPairwise);
    for (int n = 3; n <= 8; ++n) {
        EXPECT_EQ(choose_alltoall(node(true), n, 8), kAlltoallLinear) << n;
        EXPECT_EQ(choose_alltoall(node(true), n, 64 * kK), kAlltoallLinear) << n;
    }
}
