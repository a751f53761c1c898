// Request/response through the datagram facility's reliable layer (DGRAM 1.1) between two
// endpoints on loopback, the responder on a thread of its own: every exchange succeeds byte for
// byte under 0, 10, 30 and 50% injected loss, each request handled exactly once however often it
// was retransmitted; messages far above a datagram are fragmented, selectively retransmitted and
// reassembled under loss.
#include <gmock/gmock.h>

#include "dgram_reliable_support.h"
#include "runtime/progress.h"

using namespace plexus::test::dgram;

namespace {

struct LossCase {
    double rate;
    uint64_t seed;
};

class DgramReliableLoss : public ::testing::TestWithParam<LossCase> {};

// Ten requests one after the other, then thirty in flight together.
TEST_P(DgramReliableLoss, EveryRequestIsAnsweredOnceWithTheRightBytes) {
    plexus::runtime::dgram::Settings settings;
    settings.drop_rate = GetParam().rate;
    settings.drop_seed = GetParam().seed;
    ScopedSettings scoped(settings);
    Responder server(2);
    RelEp client(1);
    int sent = 0;
    for (int i = 0; i < 10; ++i, ++sent) {
        const Bytes req = pattern(1 + i * 97, i);
        plexus_dgram_op_t *op = client.request(server.address(), req);
        ASSERT_EQ(dg().reliable_wait(client.rel, op, -1), PLEXUS_SUCCESS) << dg().op_error(op);
        EXPECT_EQ(client.response(op), answer_to(req.data(), req.size()));
        dg().op_free(op);
    }
    std::vector<plexus_dgram_op_t *> ops;
    for (int i = 0; i < 30; ++i, ++sent) ops.push_back(client.request(server.address(), pattern(200 + i, 100 + i)));
    for (int i = 0; i < 30; ++i) {
        ASSERT_EQ(dg().reliable_wait(client.rel, ops[i], -1), PLEXUS_SUCCESS) << dg().op_error(ops[i]);
        const Bytes req = pattern(200 + i, 100 + i);
        EXPECT_EQ(client.response(ops[i]), answer_to(req.data(), req.size()));
        dg().op_free(ops[i]);
    }
    server.stop();
    EXPECT_EQ(server.handled(), sent);  // duplicates never reach the handler
    const plexus_dgram_reliable_stats_t c = client.stats(), s = server.side().stats();
    EXPECT_EQ(c.sent, uint64_t(sent));
    EXPECT_EQ(c.completed, uint64_t(sent));
    EXPECT_EQ(c.timeouts, 0u);
    EXPECT_EQ(c.delivered, uint64_t(sent));  // the responses
    EXPECT_EQ(s.delivered, uint64_t(sent));
    EXPECT_EQ(c.malformed + s.malformed, 0u);
    const uint64_t injected = client.ep.dropped(PLEXUS_DGRAM_DROP_INJECTED) +
                              server.side().ep.dropped(PLEXUS_DGRAM_DROP_INJECTED);
    // (Without loss there may still be retransmissions: a loaded machine can hold the responder
    // off the CPU longer than the 5 ms timer.)
    if (GetParam().rate == 0) {
        EXPECT_EQ(injected, 0u);
    } else {
        // Losses were made up for by retransmissions.
        EXPECT_GT(injected, 0u);
        EXPECT_GT(c.retransmitted + s.retransmitted, 0u);
    }
    if (GetParam().rate >= 0.3) {
        EXPECT_GT(c.duplicates + s.duplicates, 0u);  // lost acks cause them
    }
}

INSTANTIATE_TEST_SUITE_P(Rates, DgramReliableLoss,
                         ::testing::Values(LossCase{0.0, 1}, LossCase{0.1, 2}, LossCase{0.3, 3}, LossCase{0.5, 4}),
                         [](const auto &info) { return "loss" + std::to_string(int(info.param.rate * 100)); });

// A request of 3 MB + 17 bytes in fragments of a 1500-byte link under 30% loss, and its response
// as large: both arrive whole, byte for byte, with only the lost fragments sent again.
TEST(DgramReliableFragments, LargeMessagesArriveWholeUnderLoss) {
    plexus::runtime::dgram::Settings settings;
    settings.drop_rate = 0.3;
    settings.drop_seed = 7;
    settings.mtu = 1500;
    ScopedSettings scoped(settings);
    Responder server(2);
    RelEp client(1);
    for (size_t len : {size_t(1377), size_t(200000), size_t(3 << 20) + 17}) {
        const Bytes req = pattern(len, static_cast<uint32_t>(len));
        plexus_dgram_op_t *op = client.request(server.address(), req);
        ASSERT_EQ(dg().reliable_wait(client.rel, op, -1), PLEXUS_SUCCESS) << dg().op_error(op);
        const Bytes got = client.response(op);
        ASSERT_EQ(got.size(), len + 1);
        EXPECT_TRUE(got == answer_to(req.data(), req.size())) << "response differs at " << len << " bytes";
        dg().op_free(op);
    }
    server.stop();
    EXPECT_EQ(server.handled(), 3);
    const plexus_dgram_reliable_stats_t c = client.stats(), s = server.side().stats();
    // 1500 - 72 - 52 = 1376 payload bytes per fragment: 2 + 146 + 2287 fragments each way.
    EXPECT_EQ(c.fragments, 2 + 146 + 2287u);
    EXPECT_EQ(s.fragments, 2 + 146 + 2287u);
    EXPECT_GT(c.retransmitted, 0u);
    // Selective: far fewer retransmissions than sending every message again per loss.
    EXPECT_LT(c.retransmitted, c.fragments);
    EXPECT_EQ(c.timeouts + s.timeouts, 0u);
}

// A one-way message completes when acknowledged and reaches the handler once, with who sent it.
TEST(DgramReliableOneWay, CompletesWhenAcknowledgedAndIsDeliveredOnce) {
    Responder server(2);
    RelEp client(1);
    plexus_dgram_op_t *op = client.send(server.address(), pattern(5000, 1));
    ASSERT_EQ(dg().reliable_wait(client.rel, op, -1), PLEXUS_SUCCESS) << dg().op_error(op);
    const void *data = nullptr;
    size_t len = 1;
    EXPECT_EQ(dg().op_response(op, &data, &len), PLEXUS_SUCCESS);
    EXPECT_EQ(len, 0u);  // nothing answers a one-way message
    dg().op_free(op);
    server.stop();
    EXPECT_EQ(server.handled(), 1);
    EXPECT_EQ(client.stats().completed, 1u);
}

// An empty request and an empty response are messages too.
TEST(DgramReliableOneWay, EmptyMessagesTravel) {
    Responder server(2);
    RelEp client(1);
    plexus_dgram_op_t *op = client.request(server.address(), {});
    ASSERT_EQ(dg().reliable_wait(client.rel, op, -1), PLEXUS_SUCCESS) << dg().op_error(op);
    EXPECT_EQ(client.response(op), Bytes{0xA5});
    dg().op_free(op);
}

// What a component does: the layer's progress function registered with the progress engine,
// whose wait (host->progress_wait underneath) completes the request; no thread of the layer's own.
TEST(DgramReliableProgress, TheProgressEngineDrivesARequestToItsResponse) {
    Responder server(2);
    RelEp client(1);
    plexus::runtime::ProgressEngine engine;
    ASSERT_EQ(engine.add(dg().reliable_progress, client.rel), PLEXUS_SUCCESS);
    const Bytes req = pattern(70000, 3);  // two fragments on loopback
    plexus_dgram_op_t *op = client.request(server.address(), req);
    EXPECT_EQ(engine.wait_until([op] { return dg().op_status(op) != PLEXUS_ERR_AGAIN; }, std::chrono::seconds(20)),
              PLEXUS_SUCCESS);
    EXPECT_EQ(dg().op_status(op), PLEXUS_SUCCESS) << dg().op_error(op);
    EXPECT_EQ(client.response(op), answer_to(req.data(), req.size()));
    dg().op_free(op);
    EXPECT_EQ(engine.remove(dg().reliable_progress, client.rel), PLEXUS_SUCCESS);
}

}  // namespace
