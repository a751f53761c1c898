// Unit tests of the datagram facility's unicast path through its C table: round trips, the
// reply address, polling, waiting, handlers, limits, and what bad arguments are told.
#include <gmock/gmock.h>

#include <poll.h>

#include <chrono>


#include "dgram_test_support.h"
#include "mca/host_api.h"

using namespace plexus::test::dgram;
using ::testing::HasSubstr;

namespace {

TEST(DgramUnicast, ARoundTripCarriesTheBytesTheSenderAndAnAddressToAnswer) {
    Ep a = open_udp(1), b = open_udp(2);
    const Bytes hello = pattern(300, 1);
    ASSERT_EQ(a.send(b.address(), hello), PLEXUS_SUCCESS) << dg().last_error(a.p);
    Bytes got;
    plexus_dgram_recv_info_t info{};
    ASSERT_EQ(b.recv(&got, 2000, &info), PLEXUS_SUCCESS) << dg().last_error(b.p);
    EXPECT_EQ(got, hello);
    EXPECT_EQ(info.sender, 1u);
    EXPECT_EQ(info.multicast, 0u);
    EXPECT_EQ(Bytes(info.from, info.from + info.from_len), a.address());

    const Bytes reply = pattern(17, 2);
    ASSERT_EQ(dg().send(b.p, info.from, info.from_len, reply.data(), reply.size()), PLEXUS_SUCCESS);
    ASSERT_EQ(a.recv(&got, 2000, &info), PLEXUS_SUCCESS);
    EXPECT_EQ(got, reply);
    EXPECT_EQ(info.sender, 2u);

    const plexus_dgram_stats_t sa = a.stats(), sb = b.stats();
    EXPECT_EQ(sa.sent_messages, 1u);
    EXPECT_EQ(sa.sent_bytes, 300u);
    EXPECT_EQ(sa.received_messages, 1u);
    EXPECT_EQ(sb.received_bytes, 300u);
    EXPECT_EQ(sb.sent_datagrams, 1u);
    for (int r = 0; r < PLEXUS_DGRAM_DROP_COUNT; ++r) EXPECT_EQ(sb.dropped[r], 0u) << dg().drop_reason_name(r);
}

TEST(DgramUnicast, AnEmptyMessageArrivesEmpty) {
    Ep a = open_udp(1), b = open_udp(2);
    ASSERT_EQ(a.send(b.address(), {}), PLEXUS_SUCCESS);
    Bytes got = {1, 2, 3};
    ASSERT_EQ(b.recv(&got, 2000), PLEXUS_SUCCESS);
    EXPECT_TRUE(got.empty());
    EXPECT_EQ(b.stats().received_messages, 1u);
}

TEST(DgramUnicast, TheAddressIsEightBytesOfUdpOnTheInterfaceNamed) {
    Ep a = open_udp(1);
    const Bytes addr = a.address();
    ASSERT_EQ(addr.size(), 8u);
    EXPECT_EQ(addr[0], 1);  // UDP/IPv4
    EXPECT_EQ((Bytes{addr[4], addr[5], addr[6], addr[7]}), (Bytes{127, 0, 0, 1}));
    EXPECT_NE(addr[2] | addr[3], 0);  // a port was bound
}

TEST(DgramUnicast, PollingSaysAgainAndWaitingSaysTimeoutAfterTheTimeout) {
    Ep a = open_udp(1);
    Bytes got;
    EXPECT_EQ(a.recv(&got, 0), PLEXUS_ERR_AGAIN);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(a.recv(&got, 60), PLEXUS_ERR_TIMEOUT);
    EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(55));
}

TEST(DgramUnicast, AMessageLongerThanTheBufferWaitsForALongerOne) {
    Ep a = open_udp(1), b = open_udp(2);
    const Bytes msg = pattern(1000, 3);
    ASSERT_EQ(a.send(b.address(), msg), PLEXUS_SUCCESS);
    Bytes got;
    plexus_dgram_recv_info_t info{};
    ASSERT_EQ(b.recv(&got, 2000, &info, 10), PLEXUS_ERR_OUT_OF_RESOURCE);
    EXPECT_EQ(info.len, 1000u);
    EXPECT_THAT(dg().last_error(b.p), HasSubstr("buffer of 10"));
    ASSERT_EQ(b.recv(&got, 0, &info, 1000), PLEXUS_SUCCESS);
    EXPECT_EQ(got, msg);
}

struct Collected {
    std::vector<Bytes> messages;
    std::vector<uint32_t> senders;
};

void collect(void *ctx, const void *data, size_t len, const plexus_dgram_recv_info_t *info) {
    auto *c = static_cast<Collected *>(ctx);
    const auto *p = static_cast<const uint8_t *>(data);
    c->messages.emplace_back(p, p + len);
    c->senders.push_back(info->sender);
}

TEST(DgramUnicast, ProgressHandsEveryMessageToTheHandlerInOrder) {
    Ep a = open_udp(4), b = open_udp(5);
    Collected c;
    ASSERT_EQ(dg().set_handler(b.p, collect, &c), PLEXUS_SUCCESS);
    for (uint32_t i = 0; i < 5; ++i) ASSERT_EQ(a.send(b.address(), pattern(10 + i, i)), PLEXUS_SUCCESS);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    int delivered = 0;
    while (c.messages.size() < 5 && std::chrono::steady_clock::now() < deadline) delivered += dg().progress(b.p);
    ASSERT_EQ(c.messages.size(), 5u);
    EXPECT_EQ(delivered, 5);  // what progress returns counts the messages
    for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(c.messages[i], pattern(10 + i, i));
    EXPECT_EQ(c.senders[0], 4u);
    Bytes got;
    EXPECT_EQ(b.recv(&got, 0), PLEXUS_ERR_NOT_SUPPORTED);  // the handler owns what arrives
    ASSERT_EQ(dg().set_handler(b.p, nullptr, nullptr), PLEXUS_SUCCESS);
    EXPECT_EQ(b.recv(&got, 0), PLEXUS_ERR_AGAIN);
}

TEST(DgramUnicast, TheWaitDescriptorPollsReadableWhenAMessageArrived) {
    Ep a = open_udp(1), b = open_udp(2);
    int fd = -1;
    ASSERT_EQ(dg().wait_fd(b.p, &fd), PLEXUS_SUCCESS);
    pollfd p{fd, POLLIN, 0};
    EXPECT_EQ(::poll(&p, 1, 0), 0);
    ASSERT_EQ(a.send(b.address(), pattern(8, 1)), PLEXUS_SUCCESS);
    EXPECT_EQ(::poll(&p, 1, 2000), 1);
}

TEST(DgramUnicast, LimitsFollowTheLinkAndTheMtuParameter) {
    plexus_dgram_limits_t l{};
    l.struct_size = sizeof l;
    {
        Ep a = open_udp(1);
        ASSERT_EQ(dg().limits(a.p, &l), PLEXUS_SUCCESS);
        EXPECT_EQ(l.link_mtu, 65536u);  // loopback
        EXPECT_EQ(l.mtu, 65507u - l.header);
        EXPECT_EQ(l.header, 72u);
        EXPECT_EQ(l.max_message, 8u << 20);
    }
    plexus::runtime::dgram::Settings settings;
    settings.mtu = 1500;
    ScopedSettings scoped(settings);
    Ep a = open_udp(1);
    ASSERT_EQ(dg().limits(a.p, &l), PLEXUS_SUCCESS);
    EXPECT_EQ(l.mtu, 1500u - 72u);
}

TEST(DgramUnicast, BadArgumentsAreRefusedWithWhatWasWrong) {
    Ep ep;
    EXPECT_EQ(dg().open(nullptr, &ep.p, &ep.why), PLEXUS_ERR_BAD_PARAM);

    OpenOptions o;
    o.key = Bytes(8, 1);
    EXPECT_EQ(open_ep(o, &ep), PLEXUS_ERR_BAD_PARAM);
    EXPECT_THAT(ep.why.text, HasSubstr("at least 16"));

    o = OpenOptions{};
    o.interface = "nosuchif0";
    EXPECT_EQ(open_ep(o, &ep), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_THAT(ep.why.text, HasSubstr("'nosuchif0'"));
    EXPECT_THAT(ep.why.text, HasSubstr("lo (127.0.0.1)"));  // the valid choices are named

    o = OpenOptions{};
    o.transport = 7;
    EXPECT_EQ(open_ep(o, &ep), PLEXUS_ERR_BAD_PARAM);
    EXPECT_THAT(ep.why.text, HasSubstr("transport 7"));
    EXPECT_EQ(ep.p, nullptr);

    {
        plexus::runtime::dgram::Settings settings;
        settings.drop_rate = 1.5;
        ScopedSettings scoped(settings);
        EXPECT_EQ(open_ep(OpenOptions{}, &ep), PLEXUS_ERR_BAD_PARAM);
        EXPECT_THAT(ep.why.text, HasSubstr("runtime_dgram_drop_rate"));
    }

    Ep a = open_udp(1);
    const Bytes junk = {9, 9, 9};
    EXPECT_EQ(a.send(junk, pattern(4, 1)), PLEXUS_ERR_BAD_PARAM);
    EXPECT_THAT(dg().last_error(a.p), HasSubstr("not a UDP/IPv4"));
    EXPECT_EQ(dg().send(a.p, nullptr, 8, "x", 1), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(a.send(a.address(), Bytes((8u << 20) + 1)), PLEXUS_ERR_BAD_PARAM);
    EXPECT_THAT(dg().last_error(a.p), HasSubstr("runtime_dgram_max_message"));
    EXPECT_EQ(dg().set_epoch(a.p, 3), PLEXUS_SUCCESS);
    EXPECT_EQ(dg().set_epoch(a.p, 2), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(a.stats().sent_datagrams, 0u);
    EXPECT_EQ(dg().close(nullptr), PLEXUS_ERR_BAD_PARAM);
}

TEST(DgramUnicast, TheJobSecretAndTheRankNeedTheRuntime) {
    plexus_dgram_open_args_t a{};
    a.struct_size = sizeof a;
    a.transport = PLEXUS_DGRAM_UDP;
    a.sender = PLEXUS_DGRAM_SENDER_RANK;
    Ep ep;
    EXPECT_EQ(dg().open(&a, &ep.p, &ep.why), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_THAT(ep.why.text, HasSubstr("needs the runtime"));
}

TEST(DgramUnicast, TheHostApiOffersTheTableAndItNamesEveryDropReason) {
    const plexus_host_api_t *host = plexus::mca::host_api_table();
    ASSERT_NE(host->dgram, nullptr);
    EXPECT_EQ(host->dgram, &dg());
    EXPECT_EQ(host->dgram->struct_size, sizeof(plexus_dgram_services_t));
    EXPECT_EQ(host->dgram->major, PLEXUS_DGRAM_MAJOR);
    for (int r = 0; r < PLEXUS_DGRAM_DROP_COUNT; ++r) EXPECT_NE(dg().drop_reason_name(r), nullptr);
    EXPECT_STREQ(dg().drop_reason_name(PLEXUS_DGRAM_DROP_STALE), "stale");
    EXPECT_EQ(dg().drop_reason_name(PLEXUS_DGRAM_DROP_COUNT), nullptr);
    EXPECT_EQ(dg().drop_reason_name(-1), nullptr);
}

}  // namespace
