// Unit tests of the InfiniBand UD transport where it can be judged: without an HCA (or without
// libibverbs) opening it declines with a reason a user can act on, and "any" falls back to UDP.
#include <sys/stat.h>

#include <gmock/gmock.h>

#include "dgram_test_support.h"
#include "plexus_config.h"

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

}  // namespace
