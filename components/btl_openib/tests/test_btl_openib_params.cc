// btl_openib's parameter checks (each bad value named with what is valid), its wire formats'
// parsing of what peers send, and the SDK helper that fills a BTL module's descriptive members.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include <plexus/sdk/btl_module.hpp>

#include "components/btl_openib/openib_params.h"
#include "components/btl_openib/wire.h"

using namespace plexus::btl_openib;

namespace {

TEST(OpenibParams, TheDefaultsAreValid) { EXPECT_EQ(validate_openib_params(OpenibParams{}), ""); }

TEST(OpenibParams, InconsistentValuesAreNamedWithWhatIsValid) {
    OpenibParams p;
    p.eager_limit = 64 * 1024;
    EXPECT_EQ(validate_openib_params(p), "btl_openib_eager_limit is 65536 bytes; valid: from 256 bytes to "
                                         "btl_openib_max_send_size (32768 bytes)");
    p = OpenibParams{};
    p.max_queued = 1024;
    EXPECT_EQ(validate_openib_params(p), "btl_openib_max_queued is 1024 bytes, below btl_openib_max_send_size (32768 "
                                         "bytes); valid: at least btl_openib_max_send_size");
    p = OpenibParams{};
    p.if_include = "mlx5_0";
    p.if_exclude = "mlx5_1";
    EXPECT_EQ(validate_openib_params(p), "btl_openib_if_include (mlx5_0) and btl_openib_if_exclude (mlx5_1) are both "
                                         "set; set one of them");
    p = OpenibParams{};
    p.if_include = "mlx5_0:300";
    EXPECT_NE(validate_openib_params(p).find("btl_openib_if_include entry 'mlx5_0:300': the port must be a number from "
                                             "1 to 255"),
              std::string::npos);
    p = OpenibParams{};
    p.recv_queue_depth = 65535;
    EXPECT_EQ(validate_openib_params(p),
              "btl_openib_recv_queue_depth + btl_openib_ctl_credits is 65539; valid: at most 65535");
}

Card good_card() {
    Card c{};
    c.magic = kCardMagic;
    c.version = kCardVersion;
    c.little_endian = 1;
    c.dgram_len = 8;
    return c;
}

TEST(OpenibWire, CardsFromOtherBuildsOrGarbageAreRefusedWithTheReason) {
    Card c = good_card(), out{};
    std::string why;
    EXPECT_TRUE(parse_card(&c, sizeof c, &out, &why)) << why;
    EXPECT_FALSE(parse_card(&c, sizeof c - 1, &out, &why));
    EXPECT_EQ(why, "card of " + std::to_string(sizeof c - 1) + " bytes, expected " + std::to_string(sizeof c));
    c.magic = 0;
    EXPECT_FALSE(parse_card(&c, sizeof c, &out, &why));
    EXPECT_EQ(why, "not a btl_openib card (bad magic)");
    c = good_card();
    c.version = 9;
    EXPECT_FALSE(parse_card(&c, sizeof c, &out, &why));
    EXPECT_EQ(why, "card version 9, this build reads 1");
    c = good_card();
    c.dgram_len = 1000;
    EXPECT_FALSE(parse_card(&c, sizeof c, &out, &why));
    EXPECT_EQ(why, "card without a connect address");
}

TEST(OpenibWire, ConnectMessagesCarryTheQpAddress) {
    ConnectMsg m{};
    m.magic = kConnectMagic;
    m.type = kConnAccept;
    m.qpn = 0x123456;
    m.psn = 0xabcdef;
    m.lid = 17;
    m.gid[15] = 9;
    std::memset(m.nspace, 'x', sizeof m.nspace);  // unterminated: parsing ends it
    ConnectMsg out{};
    std::string why;
    ASSERT_TRUE(parse_connect(&m, sizeof m, &out, &why)) << why;
    EXPECT_EQ(std::strlen(out.nspace), sizeof out.nspace - 1);
    const QpAddress a = address_of(out);
    EXPECT_EQ(a.qpn, 0x123456u);
    EXPECT_EQ(a.psn, 0xabcdefu);
    EXPECT_EQ(a.lid, 17);
    EXPECT_EQ(a.gid[15], 9);
    m.type = 7;
    EXPECT_FALSE(parse_connect(&m, sizeof m, &out, &why));
    EXPECT_EQ(why, "not a btl_openib connect message");
    EXPECT_FALSE(parse_connect(&m, 3, &out, &why));
}

TEST(SdkBtlModule, FillsTheVersionAndEveryDescriptiveMemberAndLeavesEntryPoints) {
    plexus_btl_module_t m{};
    auto pending = +[](plexus_btl_module_t *) -> size_t { return 7; };
    m.pending = pending;
    plexus::sdk::BtlModuleInfo info;
    info.name = "demo";
    info.caps = PLEXUS_BTL_CAP_SEND | PLEXUS_BTL_CAP_GET;
    info.exclusivity = PLEXUS_BTL_EXCLUSIVITY_HIGH;
    info.latency_ns = 1500;
    info.bandwidth_mbps = 40000;
    info.eager_limit = 12288;
    info.max_send_size = 32768;
    info.rdma_threshold = 12288;
    info.max_rdma_size = 1u << 30;
    info.rdma_limit = 1u << 20;
    plexus::sdk::fill_btl_module(&m, info);
    EXPECT_EQ(m.struct_size, sizeof m);
    EXPECT_EQ(m.major, PLEXUS_BTL_MAJOR);
    EXPECT_EQ(m.minor, PLEXUS_BTL_MINOR);
    EXPECT_STREQ(m.name, "demo");
    EXPECT_EQ(m.caps, PLEXUS_BTL_CAP_SEND | PLEXUS_BTL_CAP_GET);
    EXPECT_EQ(m.exclusivity, PLEXUS_BTL_EXCLUSIVITY_HIGH);
    EXPECT_EQ(m.latency_ns, 1500u);
    EXPECT_EQ(m.bandwidth_mbps, 40000u);
    EXPECT_EQ(m.eager_limit, 12288u);
    EXPECT_EQ(m.max_send_size, 32768u);
    EXPECT_EQ(m.rdma_threshold, 12288u);
    EXPECT_EQ(m.max_rdma_size, size_t{1} << 30);
    EXPECT_EQ(PLEXUS_BTL_RDMA_LIMIT(&m), size_t{1} << 20);
    EXPECT_EQ(m.pending, pending);
}

}  // namespace
