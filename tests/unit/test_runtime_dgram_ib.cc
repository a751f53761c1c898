// Unit tests of the InfiniBand UD transport where it can be judged: without an HCA (or without
// libibverbs) opening it declines with a reason a user can act on, and "any" falls back to UDP.
#include <gmock/gmock.h>

#include <sys/stat.h>


#include "dgram_test_support.h"
#include "plexus_config.h"
#ifdef PLEXUS_HAVE_VERBS
#include <arpa/inet.h>

#include "runtime/dgram/ib_multicast.h"
#endif

using namespace plexus::test::dgram;
using ::testing::AnyOf;
using ::testing::HasSubstr;

namespace {

bool node_has_hca() {
    struct stat st;
    return ::stat("/sys/class/infiniband", &st) == 0;
}

TEST(DgramIb, WithoutAnHcaInfiniBandUdDeclinesWithItsReason) {
    if (node_has_hca()) GTEST_SKIP() << "this node has an InfiniBand device: nothing to decline";
    OpenOptions o;
    o.transport = PLEXUS_DGRAM_IB_UD;
    o.interface = "";
    Ep ep;
    EXPECT_EQ(open_ep(o, &ep), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_EQ(ep.p, nullptr);
#ifdef PLEXUS_HAVE_VERBS
    EXPECT_THAT(ep.why.text, HasSubstr("no InfiniBand device found"));
#else
    EXPECT_THAT(ep.why.text, HasSubstr("built without libibverbs"));
#endif
}

TEST(DgramIb, AnyFallsBackToUdpOnTheInterfaceNamed) {
    if (node_has_hca()) GTEST_SKIP() << "this node has an InfiniBand device: any picks it";
    OpenOptions o;
    o.transport = PLEXUS_DGRAM_ANY;
    Ep a, b;
    ASSERT_EQ(open_ep(o, &a), PLEXUS_SUCCESS) << a.why.text;
    ASSERT_EQ(open_ep(o, &b), PLEXUS_SUCCESS) << b.why.text;
    EXPECT_EQ(a.address()[0], 1);  // UDP/IPv4
    ASSERT_EQ(a.send(b.address(), pattern(20, 1)), PLEXUS_SUCCESS);
    Bytes got;
    ASSERT_EQ(b.recv(&got, 1000), PLEXUS_SUCCESS);
    EXPECT_EQ(got, pattern(20, 1));
}

TEST(DgramIb, WhenNeitherWorksBothReasonsAreGiven) {
    if (node_has_hca()) GTEST_SKIP() << "this node has an InfiniBand device";
    OpenOptions o;
    o.transport = PLEXUS_DGRAM_ANY;
    o.interface = "nosuchif0";
    Ep ep;
    EXPECT_EQ(open_ep(o, &ep), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_THAT(ep.why.text, HasSubstr("no IPv4 interface 'nosuchif0'"));
    EXPECT_THAT(ep.why.text, HasSubstr("InfiniBand UD: "));
}

#ifdef PLEXUS_HAVE_VERBS
// What can be judged of the multicast join without a subnet manager: the AF_IB address handed to
// librdmacm carries the MGID byte for byte in the default partition, and a received GRH is told
// multicast by its destination GID (bytes 24-39 of the 40-byte GRH).
TEST(DgramIb, TheJoinAddressCarriesTheGroupsGidInTheDefaultPartition) {
    ibv_gid mgid{};
    for (int i = 0; i < 16; ++i) mgid.raw[i] = static_cast<uint8_t>(0xff - i);
    const sockaddr_ib a = plexus::runtime::dgram::ib_sockaddr(mgid);
    EXPECT_EQ(a.sib_family, AF_IB);
    EXPECT_EQ(ntohs(a.sib_pkey), 0xffff);
    EXPECT_EQ(0, std::memcmp(&a.sib_addr, mgid.raw, 16));
    EXPECT_EQ(a.sib_sid, 0u);
}

TEST(DgramIb, AGrhIsMulticastByItsDestinationGid) {
    uint8_t grh[40] = {};
    grh[8] = 0xff;  // a source GID starting 0xff says nothing
    EXPECT_FALSE(plexus::runtime::dgram::grh_is_multicast(grh));
    grh[24] = 0xff;
    grh[25] = 0x12;
    EXPECT_TRUE(plexus::runtime::dgram::grh_is_multicast(grh));
    grh[24] = 0xfe;  // a unicast link-local GID (fe80::)
    EXPECT_FALSE(plexus::runtime::dgram::grh_is_multicast(grh));
}

// librdmacm is opened at the first join (libplexus does not link it), so a process without it
// learns so there, by name. PLEXUS_LIBRDMACM points the open at a file that does not exist; this
// is the binary's first join (no test before it joins), so the override is what gets opened.
TEST(DgramIb, AJoinWithoutLibrdmacmSaysSoByName) {
    ::setenv("PLEXUS_LIBRDMACM", "/nonexistent/librdmacm.so.1", 1);
    std::unique_ptr<plexus::runtime::dgram::IbMulticastGroup> group;
    const ibv_gid gid{};
    const plexus::runtime::Status s =
        plexus::runtime::dgram::IbMulticastGroup::join(gid, gid, nullptr, nullptr, 10, &group);
    ::unsetenv("PLEXUS_LIBRDMACM");
    EXPECT_EQ(s.code, PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_THAT(s.message, HasSubstr("InfiniBand multicast"));
    EXPECT_THAT(s.message, HasSubstr("needs librdmacm.so.1, which cannot be loaded from "
                                     "/nonexistent/librdmacm.so.1 (set by PLEXUS_LIBRDMACM)"));
    EXPECT_EQ(group, nullptr);
}
#endif

}  // namespace
