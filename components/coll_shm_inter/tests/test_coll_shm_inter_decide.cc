// The size table (shm_decide.h): which path serves a call of a given size, and which calls are
// handed over (declined) to the next component: at the edges of every band, for the defaults the
// README's decision table documents and for tables that move the edges, force every size or
// switch single copy off.
#include <gtest/gtest.h>

#include <cstddef>


#include "components/coll_shm_inter/shm_decide.h"

using namespace plexus::coll_shm_inter;

namespace {

constexpr size_t KiB = 1024;

// The registered defaults (shm_params.cc), as the README's decision table lists them.
Params defaults() {
    Params p;
    p.chunk = 16 * KiB;
    p.single_copy_from = 16 * KiB;
    p.bcast_max = 16 * KiB;
    p.reduce_max = 16 * KiB;
    p.allreduce_max = 16 * KiB;
    p.gather_max = 4 * KiB;
    p.allgather_max = 16 * KiB;
    p.reduce_single_copy_from = 4096 * KiB;
    p.allreduce_single_copy_from = 256 * KiB;
    p.gather_single_copy_from = 32 * KiB;
    p.allgather_single_copy_from = 32 * KiB;
    p.reduce_root_copy_from = 16 * KiB;
    return p;
}

Path allreduce(const Params &p, size_t bytes, bool copies = true, bool fits = true) {
    return decide_reduce(p, bytes, true, copies, fits, 4);
}
Path reduce(const Params &p, size_t bytes, bool copies = true, bool fits = true, int procs = 4) {
    return decide_reduce(p, bytes, false, copies, fits, procs);
}

}  // namespace

// The band between the segment's limit and the single-copy threshold belongs to the next
// component: the 64 KiB Allreduce of bench/coll's table is declined, not served slowly.
TEST(CollShmInterDecide, AllreduceHandsTheMiddleBandOver) {
    const Params p = defaults();
    EXPECT_EQ(allreduce(p, 8), Path::Segment);
    EXPECT_EQ(allreduce(p, 16 * KiB), Path::Segment);
    EXPECT_EQ(allreduce(p, 16 * KiB + 4), Path::Decline);
    EXPECT_EQ(allreduce(p, 64 * KiB), Path::Decline);
    EXPECT_EQ(allreduce(p, 256 * KiB - 4), Path::Decline);
    EXPECT_EQ(allreduce(p, 256 * KiB), Path::SingleCopy);
    EXPECT_EQ(allreduce(p, 4096 * KiB), Path::SingleCopy);
}

// A rooted Reduce is written into the root from reduce_root_copy_bytes (16 KiB) up to the
// striped single copy (4 MiB): nothing of it is handed over.
TEST(CollShmInterDecide, ReduceWritesTheMiddleBandIntoTheRoot) {
    Params p = defaults();
    EXPECT_EQ(reduce(p, 16 * KiB - 4), Path::Segment);
    EXPECT_EQ(reduce(p, 16 * KiB), Path::RootCombines);
    EXPECT_EQ(reduce(p, 64 * KiB), Path::RootCombines);
    EXPECT_EQ(reduce(p, 4096 * KiB - 4), Path::RootCombines);
    EXPECT_EQ(reduce(p, 4096 * KiB), Path::SingleCopy);
    // Any item size: the root combines in its own memory, not in slots.
    EXPECT_EQ(reduce(p, 64 * KiB, true, false), Path::RootCombines);
    EXPECT_EQ(reduce(p, 64 * KiB, false), Path::Decline);
    p.reduce_root_copy_from = 0;  // never
    EXPECT_EQ(reduce(p, 64 * KiB), Path::Decline);
    p.reduce_root_copy_from = 1;  // from the first byte, but the segment's sizes included
    EXPECT_EQ(reduce(p, 8), Path::RootCombines);
    p.reduce_single_copy_from = 1;  // the striped reduction wins where both would take it
    EXPECT_EQ(reduce(p, 8), Path::SingleCopy);
}

// A pair hands the middle band to coll_basic (one message to the root was faster there); the
// segment's band and the striped single copy stay, and from 3 processes the root combines.
TEST(CollShmInterDecide, APairHandsTheRootCombinedBandOver) {
    const Params p = defaults();
    EXPECT_EQ(reduce(p, 16 * KiB, true, true, 2), Path::Segment);  // the segment's own edge
    EXPECT_EQ(reduce(p, 16 * KiB + 4, true, true, 2), Path::Decline);
    EXPECT_EQ(reduce(p, 1024 * KiB, true, true, 2), Path::Decline);
    EXPECT_EQ(reduce(p, 4096 * KiB - 4, true, true, 2), Path::Decline);
    EXPECT_EQ(reduce(p, 4096 * KiB, true, true, 2), Path::SingleCopy);
    EXPECT_EQ(reduce(p, 16 * KiB, true, true, kRootCombinesFrom), Path::RootCombines);
    EXPECT_EQ(reduce(p, 16 * KiB + 4, true, true, 1), Path::Decline);
    // Allreduce never combines at a root: the pair changes nothing there.
    EXPECT_EQ(decide_reduce(p, 256 * KiB, true, true, true, 2), Path::SingleCopy);
    EXPECT_EQ(decide_reduce(p, 16 * KiB, true, true, true, 2), Path::Segment);
}

TEST(CollShmInterDecide, ZeroBytesAreServedBySegment) {
    const Params p = defaults();
    EXPECT_EQ(allreduce(p, 0), Path::Segment);
    EXPECT_EQ(decide_bcast(p, 0, true), Path::Segment);
    EXPECT_EQ(decide_gather(p, 0, true, false), Path::Segment);
}

// Without single copy for every process, the large sizes go to the next component too.
TEST(CollShmInterDecide, NoSingleCopyDeclinesLargeCalls) {
    const Params p = defaults();
    EXPECT_EQ(allreduce(p, 16 * KiB, false), Path::Segment);
    EXPECT_EQ(allreduce(p, 4096 * KiB, false), Path::Decline);
    EXPECT_EQ(reduce(p, 1024 * KiB, false), Path::Decline);
    EXPECT_EQ(decide_bcast(p, 64 * KiB, false), Path::Decline);
    EXPECT_EQ(decide_gather(p, 64 * KiB, false, false), Path::Decline);
    EXPECT_EQ(decide_scatter(p, 64 * KiB, false), Path::Decline);
}

// Items larger than a slot cannot be combined in the segment; single copy takes any item.
TEST(CollShmInterDecide, ItemsPastASlotOnlyBySingleCopy) {
    const Params p = defaults();
    EXPECT_EQ(allreduce(p, 8 * KiB, true, false), Path::Decline);
    EXPECT_EQ(reduce(p, 256 * KiB, true, false), Path::RootCombines);
    EXPECT_EQ(reduce(p, 4096 * KiB, true, false), Path::SingleCopy);
}

TEST(CollShmInterDecide, BcastSingleCopyStartsAtItsThreshold) {
    Params p = defaults();
    EXPECT_EQ(decide_bcast(p, 16 * KiB - 1, true), Path::Segment);
    EXPECT_EQ(decide_bcast(p, 16 * KiB, true), Path::SingleCopy);
    EXPECT_EQ(decide_bcast(p, 4096 * KiB, true), Path::SingleCopy);
    p.single_copy_from = 0;  // never
    EXPECT_EQ(decide_bcast(p, 16 * KiB, true), Path::Segment);
    EXPECT_EQ(decide_bcast(p, 16 * KiB + 1, true), Path::Decline);
}

TEST(CollShmInterDecide, GatherAndScatterBands) {
    const Params p = defaults();
    EXPECT_EQ(decide_gather(p, 4 * KiB, false, true), Path::Segment);
    EXPECT_EQ(decide_gather(p, 4 * KiB + 1, false, true), Path::Decline);
    EXPECT_EQ(decide_gather(p, 32 * KiB, false, true), Path::SingleCopy);
    EXPECT_EQ(decide_scatter(p, 4 * KiB, true), Path::Segment);
    EXPECT_EQ(decide_scatter(p, 8 * KiB, true), Path::Decline);
    EXPECT_EQ(decide_scatter(p, 32 * KiB, true), Path::SingleCopy);
    // Allgather has its own limits.
    EXPECT_EQ(decide_gather(p, 16 * KiB, true, true), Path::Segment);
    EXPECT_EQ(decide_gather(p, 16 * KiB + 1, true, true), Path::Decline);
    EXPECT_EQ(decide_gather(p, 32 * KiB, true, true), Path::SingleCopy);
}

// Forced: every size is served, by single copy where its threshold says, else by the segment.
TEST(CollShmInterDecide, ForceServesEverySize) {
    Params p = defaults();
    p.force = true;
    EXPECT_EQ(allreduce(p, 64 * KiB), Path::Segment);
    EXPECT_EQ(allreduce(p, 64 * KiB, false), Path::Segment);
    EXPECT_EQ(allreduce(p, 256 * KiB), Path::SingleCopy);
    EXPECT_EQ(decide_scatter(p, 8 * KiB, true), Path::Segment);
    EXPECT_EQ(reduce(p, 64 * KiB), Path::RootCombines);  // the root copy still comes first
    p.reduce_root_copy_from = 0;
    EXPECT_EQ(reduce(p, 64 * KiB), Path::Segment);
    // Forcing does not make the segment combine items it cannot hold.
    EXPECT_EQ(allreduce(p, 64 * KiB, true, false), Path::Decline);
}

// Each function reads its own parameters: moving one edge moves only that function's band.
TEST(CollShmInterDecide, EachFunctionHasItsOwnEdges) {
    Params p = defaults();
    p.allreduce_single_copy_from = 32 * KiB;
    p.reduce_max = 0;
    EXPECT_EQ(allreduce(p, 64 * KiB), Path::SingleCopy);
    EXPECT_EQ(reduce(p, 64 * KiB), Path::RootCombines);
    EXPECT_EQ(reduce(p, 8), Path::Decline);
    EXPECT_EQ(allreduce(p, 8), Path::Segment);
}

TEST(CollShmInterDecide, PathNames) {
    EXPECT_STREQ(path_name(Path::Decline), "declined");
    EXPECT_STREQ(path_name(Path::Segment), "segment");
    EXPECT_STREQ(path_name(Path::SingleCopy), "single copy");
    EXPECT_STREQ(path_name(Path::RootCombines), "single copy to the root");
}

// Exchanges over the union: the larger side's contribution must fit one slot, whichever side.
TEST(CollShmInterDecide, UnionExchangeFitsWhenTheLargerSideFitsASlot) {
    const Params p = defaults();
    EXPECT_TRUE(union_exchange_fits(p, 0, 0));
    EXPECT_TRUE(union_exchange_fits(p, 8, 16 * KiB));
    EXPECT_FALSE(union_exchange_fits(p, 16 * KiB + 1, 8));
    EXPECT_FALSE(union_exchange_fits(p, 8, 16 * KiB + 1));
}

// Bcast and Reduce over the union: a slot's worth through the segment, a larger Bcast by single
// copy when everyone may, everything else to the leaders; forcing does not stretch a slot.
TEST(CollShmInterDecide, UnionRootedCallsFitASlotOrReadTheRoot) {
    Params p = defaults();
    EXPECT_EQ(decide_union_bcast(p, 0, false), Path::Segment);
    EXPECT_EQ(decide_union_bcast(p, 16 * KiB, false), Path::Segment);
    EXPECT_EQ(decide_union_bcast(p, 16 * KiB + 1, true), Path::SingleCopy);
    EXPECT_EQ(decide_union_bcast(p, 16 * KiB + 1, false), Path::Decline);
    EXPECT_EQ(decide_union_reduce(p, 16 * KiB), Path::Segment);
    EXPECT_EQ(decide_union_reduce(p, 16 * KiB + 1), Path::Decline);
    p.inter_union_rooted = false;
    EXPECT_EQ(decide_union_bcast(p, 8, true), Path::Decline);
    EXPECT_EQ(decide_union_reduce(p, 8), Path::Decline);
    p.inter_union_rooted = true;
    p.force = true;
    p.chunk = 256;
    EXPECT_EQ(decide_union_bcast(p, 257, false), Path::Decline);
    EXPECT_EQ(decide_union_reduce(p, 257), Path::Decline);
}
