// Unit tests of the window memory table (rdma_memory.h): accesses outside the target's window are
// MPI_ERR_DISP with a message saying where, handles are found by BTL name.
#include <gtest/gtest.h>

#include <plexus/osc.h>

#include "components/osc_rdma/rdma_memory.h"

using namespace plexus::osc_rdma;

namespace {

MemoryTable table() {
    std::vector<PeerMemory> e(3);
    e[0].size = 800;
    e[0].disp_unit = 8;
    e[1].size = 0;  // a zero-size window (base NULL)
    e[2].size = 100;
    e[2].disp_unit = 1;
    e[2].base = 0x1000;
    plexus_btl_mem_handle_t h{};
    h.len = 4;
    h.data[0] = 42;
    EXPECT_TRUE(add_handle(&e[2], "sm", h));
    return MemoryTable(e);
}

Access acc(int64_t disp, uint64_t span, int64_t lb = 0) {
    Access a;
    a.disp = disp;
    a.span = span;
    a.lb = lb;
    return a;
}

}  // namespace

TEST(OscRdmaMemory, InsideIsAcceptedToTheLastByte) {
    const MemoryTable t = table();
    EXPECT_EQ(t.check(0, acc(0, 800), nullptr), PLEXUS_OSC_SUCCESS);
    EXPECT_EQ(t.check(0, acc(99, 8), nullptr), PLEXUS_OSC_SUCCESS);
    EXPECT_EQ(t.check(2, acc(99, 1), nullptr), PLEXUS_OSC_SUCCESS);
    EXPECT_EQ(t.check(1, acc(5, 0), nullptr), PLEXUS_OSC_SUCCESS);  // nothing touched
    EXPECT_EQ(t.byte_disp(0, 3), 24u);
}

TEST(OscRdmaMemory, OutsideIsErrDispWithWhere) {
    const MemoryTable t = table();
    std::string why;
    EXPECT_EQ(t.check(0, acc(99, 9), &why), PLEXUS_OSC_ERR_DISP);
    EXPECT_NE(why.find("[792, 801)"), std::string::npos) << why;
    EXPECT_NE(why.find("800 bytes"), std::string::npos) << why;
    EXPECT_EQ(t.check(1, acc(0, 1), &why), PLEXUS_OSC_ERR_DISP);
    EXPECT_NE(why.find("rank 1"), std::string::npos) << why;
    EXPECT_EQ(t.check(2, acc(-1, 1), &why), PLEXUS_OSC_ERR_DISP);
    EXPECT_NE(why.find("negative"), std::string::npos) << why;
    EXPECT_EQ(t.check(2, acc(0, 4, -1), &why), PLEXUS_OSC_ERR_DISP);  // a type reaching below its start
    EXPECT_EQ(t.check(0, acc(INT64_MAX, 8), &why), PLEXUS_OSC_ERR_DISP);  // no wrap-around
}

TEST(OscRdmaMemory, HandlesByBtlName) {
    const MemoryTable t = table();
    ASSERT_NE(t.handle(2, "sm"), nullptr);
    EXPECT_EQ(t.handle(2, "sm")->data[0], 42);
    EXPECT_EQ(t.handle(2, "tcp"), nullptr);
    EXPECT_EQ(t.handle(0, "sm"), nullptr);
    PeerMemory e{};
    plexus_btl_mem_handle_t h{};
    for (int i = 0; i < kMaxHandles; ++i) EXPECT_TRUE(add_handle(&e, "x", h));
    EXPECT_FALSE(add_handle(&e, "y", h));
    PeerMemory f{};
    EXPECT_FALSE(add_handle(&f, "a-name-longer-than-the-room-for-it", h));
}
