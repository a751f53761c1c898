// Unit tests of the per-message protocol choice (rdma_protocol.h): what auto picks from the
// operation, its size, the layouts and what the path to the target can do, and what a forced
// protocol falls back to.
#include <gtest/gtest.h>

#include "components/osc_rdma/rdma_protocol.h"

using namespace plexus::osc_rdma;

namespace {

PathCaps rdma_path() {
    PathCaps c;
    c.can_put = c.can_get = true;
    c.buffer_room = 4000;
    return c;
}

PathCaps send_only() {
    PathCaps c;
    c.buffer_room = 4000;
    return c;
}

OpShape op(OpKind k, size_t bytes, bool contiguous = true) {
    OpShape s;
    s.kind = k;
    s.bytes = bytes;
    s.contiguous = contiguous;
    return s;
}

}  // namespace

TEST(OscRdmaProtocol, AutoBuffersSmallPutsAndUsesRmaForLargeOnes) {
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kPut, 8), rdma_path()), Protocol::kBuffered);
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kPut, 4000), rdma_path()), Protocol::kBuffered);  // fits one buffer
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kPut, 4001), rdma_path()), Protocol::kRma);
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kPut, 1 << 20), rdma_path()), Protocol::kRma);
}

TEST(OscRdmaProtocol, AutoGetsByRmaAtEverySize) {
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kGet, 8), rdma_path()), Protocol::kRma);
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kGet, 1 << 20), rdma_path()), Protocol::kRma);
}

TEST(OscRdmaProtocol, AutoBuffersAccumulateNonContiguousAndPathsWithoutRma) {
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kAccumulate, 1 << 20), rdma_path()), Protocol::kBuffered);
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kPut, 1 << 20, false), rdma_path()), Protocol::kBuffered);
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kGet, 8, false), rdma_path()), Protocol::kBuffered);
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kGet, 8), send_only()), Protocol::kBuffered);
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kPut, 1 << 20), send_only()), Protocol::kBuffered);
    PathCaps get_only = send_only();
    get_only.can_get = true;
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kPut, 1 << 20), get_only), Protocol::kBuffered);
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kGet, 1 << 20), get_only), Protocol::kRma);
}

TEST(OscRdmaProtocol, ForcedRmaFallsBackToBufferedWhereItCannotServe) {
    EXPECT_EQ(choose(Setting::kRma, op(OpKind::kPut, 8), rdma_path()), Protocol::kRma);
    EXPECT_EQ(choose(Setting::kRma, op(OpKind::kGet, 8), rdma_path()), Protocol::kRma);
    EXPECT_EQ(choose(Setting::kRma, op(OpKind::kAccumulate, 8), rdma_path()), Protocol::kBuffered);
    EXPECT_EQ(choose(Setting::kRma, op(OpKind::kPut, 8, false), rdma_path()), Protocol::kBuffered);
    EXPECT_EQ(choose(Setting::kRma, op(OpKind::kPut, 8), send_only()), Protocol::kBuffered);
}

TEST(OscRdmaProtocol, ForcedSendrecvAndBufferedAreTakenAsTheyAre) {
    for (OpKind k : {OpKind::kPut, OpKind::kGet, OpKind::kAccumulate}) {
        EXPECT_EQ(choose(Setting::kSendRecv, op(k, 1 << 20), rdma_path()), Protocol::kSendRecv);
        EXPECT_EQ(choose(Setting::kBuffered, op(k, 1 << 20), rdma_path()), Protocol::kBuffered);
    }
}

TEST(OscRdmaProtocol, Names) {
    EXPECT_STREQ(protocol_name(Protocol::kSendRecv), "sendrecv");
    EXPECT_STREQ(protocol_name(Protocol::kBuffered), "buffered");
    EXPECT_STREQ(protocol_name(Protocol::kRma), "rma");
}

// Where the BTL says its put/get do not pay for a size (below rdma_threshold, above rdma_limit),
// auto moves puts and gets by messages; a forced rma still uses them.
TEST(OscRdmaProtocol, AutoFollowsTheBtlsOwnMeasure) {
    PathCaps c = rdma_path();
    c.rma_pays = false;
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kGet, 8), c), Protocol::kBuffered);
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kPut, 1 << 20), c), Protocol::kBuffered);
    EXPECT_EQ(choose(Setting::kRma, op(OpKind::kGet, 8), c), Protocol::kRma);
    c.rma_pays = true;
    EXPECT_EQ(choose(Setting::kAuto, op(OpKind::kGet, 8), c), Protocol::kRma);
}
