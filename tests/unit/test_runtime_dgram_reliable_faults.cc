// Faults around the reliable layer (DGRAM 1.1): a peer that never answers, or acknowledges and
// never responds, times out with a message naming it, after retransmissions that back off; a
// peer whose endpoint is closed fails the request at once (its host's ICMP port unreachable); a
// wrong secret, truncated and garbage datagrams, replays and an old epoch are dropped and
// counted, never delivered, and the layer works on; bad arguments are PLEXUS_ERR_BAD_PARAM; the
// counters are printed under runtime_dgram_verbose.
#include <gmock/gmock.h>

#include "base/output.h"
#include "dgram_reliable_support.h"

using namespace plexus::test::dgram;
using ::testing::HasSubstr;

namespace {

std::string udp_text(const Bytes &a) {
    return std::to_string(a[4]) + "." + std::to_string(a[5]) + "." + std::to_string(a[6]) + "." +
           std::to_string(a[7]) + ":" + std::to_string((a[2] << 8) | a[3]);
}

TEST(DgramReliableTimeout, APeerThatNeverAnswersTimesOutNamingItAndBacksOff) {
    RawSocket silent;  // takes the datagrams, never answers
    RelOptions o;
    o.rto_ms = 10;
    o.rto_max_ms = 1000;
    RelEp client(1, o);
    plexus_dgram_op_t *op = client.request(silent.address(), pattern(100, 1), 400);
    EXPECT_EQ(dg().op_status(op), PLEXUS_ERR_AGAIN);
    EXPECT_EQ(dg().reliable_wait(client.rel, op, -1), PLEXUS_ERR_TIMEOUT);
    EXPECT_EQ(dg().op_status(op), PLEXUS_ERR_TIMEOUT);
    const std::string error = dg().op_error(op);
    EXPECT_THAT(error, HasSubstr("request 1 of 100 bytes to peer " + udp_text(silent.address())));
    EXPECT_THAT(error, HasSubstr("0 of 1 fragments acknowledged within 400 ms"));
    EXPECT_THAT(error, HasSubstr("nothing ever came back"));
    EXPECT_EQ(dg().reliable_last_error(client.rel), error);
    dg().op_free(op);
    int copies = 0;
    while (!silent.capture(0).empty()) ++copies;
    // Without back-off a 10 ms timer would send 40 copies in 400 ms; doubling sends about 6.
    EXPECT_GE(copies, 2);
    EXPECT_LE(copies, 10);
    const plexus_dgram_reliable_stats_t s = client.stats();
    EXPECT_EQ(s.timeouts, 1u);
    EXPECT_EQ(s.completed, 0u);
    EXPECT_EQ(s.retransmitted + s.fragments, uint64_t(copies));
}

TEST(DgramReliableTimeout, AnAcknowledgedRequestWithoutResponseTimesOutSayingSo) {
    Responder mute(2, /*answer=*/false);
    RelEp client(1);
    plexus_dgram_op_t *op = client.request(mute.address(), pattern(10, 1), 300);
    EXPECT_EQ(dg().reliable_wait(client.rel, op, -1), PLEXUS_ERR_TIMEOUT);
    EXPECT_THAT(dg().op_error(op), HasSubstr("to peer " + udp_text(mute.address()) + " (sender 2)"));
    EXPECT_THAT(dg().op_error(op), HasSubstr("acknowledged, but no response within 300 ms"));
    dg().op_free(op);
    mute.stop();
    EXPECT_EQ(mute.handled(), 1);
}

TEST(DgramReliableTimeout, APeerThatClosedItsEndpointFailsTheRequestAtOnceNotAtTheTimeout) {
    Bytes gone;
    {
        RelEp closed(2);
        gone = closed.ep.address();
    }  // the port's socket is closed: its host answers ICMP port unreachable
    RelEp client(1);
    plexus_dgram_op_t *op = client.request(gone, pattern(10, 1), 20000);
    EXPECT_EQ(dg().reliable_wait(client.rel, op, -1), PLEXUS_ERR_UNREACH);
    EXPECT_EQ(dg().op_status(op), PLEXUS_ERR_UNREACH);
    EXPECT_THAT(dg().op_error(op), HasSubstr("request 1 of 10 bytes to peer " + udp_text(gone)));
    EXPECT_THAT(dg().op_error(op), HasSubstr("ICMP port unreachable"));
    dg().op_free(op);
    // The report failed only what went there: a live peer is still answered.
    Responder server(3);
    plexus_dgram_op_t *ok = client.request(server.address(), pattern(10, 2), 5000);
    EXPECT_EQ(dg().reliable_wait(client.rel, ok, -1), PLEXUS_SUCCESS);
    dg().op_free(ok);
    server.stop();
}

TEST(DgramReliableTimeout, AWaitShorterThanTheOperationSaysWhatIsStillInFlight) {
    RawSocket silent;
    RelEp client(1);
    plexus_dgram_op_t *op = client.request(silent.address(), pattern(10, 1), 5000);
    EXPECT_EQ(dg().reliable_wait(client.rel, op, 50), PLEXUS_ERR_TIMEOUT);
    EXPECT_THAT(dg().reliable_last_error(client.rel), HasSubstr("still in flight"));
    EXPECT_THAT(dg().reliable_last_error(client.rel), HasSubstr(udp_text(silent.address())));
    EXPECT_EQ(dg().op_status(op), PLEXUS_ERR_AGAIN);
    dg().op_free(op);  // abandoned: no more retransmissions
    while (!silent.capture(30).empty()) {
    }
    for (int i = 0; i < 20; ++i) dg().reliable_progress(client.rel);
    EXPECT_TRUE(silent.capture(50).empty());
}

TEST(DgramReliableFaults, AWrongSecretIsForeignAndItsRequestTimesOut) {
    Responder server(2);
    OpenOptions other;
    other.key = test_key(0x11);
    RelOptions o;
    o.timeout_ms = 200;
    RelEp intruder(3, o, other);
    plexus_dgram_op_t *op = intruder.request(server.address(), pattern(50, 2));
    EXPECT_EQ(dg().reliable_wait(intruder.rel, op, -1), PLEXUS_ERR_TIMEOUT);
    EXPECT_THAT(dg().op_error(op), HasSubstr(udp_text(server.address())));
    dg().op_free(op);
    server.stop();
    EXPECT_EQ(server.handled(), 0);
    EXPECT_GT(server.side().ep.dropped(PLEXUS_DGRAM_DROP_FOREIGN), 0u);
    EXPECT_EQ(server.side().stats().delivered, 0u);
}

// Captures what a layer sends to a silent socket: its datagrams, retransmissions included.
class DgramReliableReplay : public ::testing::Test {
protected:
    void SetUp() override {
        RelOptions o;
        o.handler = &DgramReliableReplay::count;
        o.ctx = this;
        server = std::make_unique<RelEp>(2, o);
        RelOptions quick;
        quick.rto_ms = 5;
        client = std::make_unique<RelEp>(1, quick);
        op = client->send(raw.address(), pattern(80, 9), 5000);
    }
    void TearDown() override { dg().op_free(op); }
    // The next copy the client sends of its message (a retransmission after the first).
    Bytes next_copy() {
        for (int i = 0; i < 400; ++i) {
            dg().reliable_progress(client->rel);
            Bytes d = raw.capture(5);
            if (!d.empty()) return d;
        }
        ADD_FAILURE() << "the client sent nothing";
        return {};
    }
    // From another socket than raw, so that the server's acks do not mix with the captures.
    void inject(const Bytes &d) {
        injector.send_to(server->ep.address(), d);
        for (int i = 0; i < 10; ++i) dg().reliable_progress(server->rel);
    }
    static void count(void *ctx, const void *, size_t, const plexus_dgram_peer_t *) {
        ++static_cast<DgramReliableReplay *>(ctx)->handled;
    }
    RawSocket raw, injector;
    std::unique_ptr<RelEp> server, client;
    plexus_dgram_op_t *op = nullptr;
    int handled = 0;
};

TEST_F(DgramReliableReplay, ReplaysRetransmissionsAndAnOldEpochAreNeverDeliveredTwice) {
    const Bytes first = next_copy();
    inject(first);
    EXPECT_EQ(handled, 1);
    inject(first);  // the same datagram again: the endpoint's replay guard
    inject(first);
    EXPECT_EQ(server->ep.dropped(PLEXUS_DGRAM_DROP_DUPLICATE), 2u);
    const Bytes again = next_copy();  // a retransmission: a new datagram, the same message
    ASSERT_NE(again, first);
    inject(again);
    EXPECT_EQ(handled, 1);
    EXPECT_EQ(server->stats().duplicates, 1u);
    ASSERT_EQ(dg().set_epoch(server->ep.p, 5), PLEXUS_SUCCESS);
    inject(next_copy());  // still epoch 0
    EXPECT_EQ(server->ep.dropped(PLEXUS_DGRAM_DROP_STALE), 1u);
    EXPECT_EQ(handled, 1);
    EXPECT_EQ(server->stats().delivered, 1u);
}

TEST_F(DgramReliableReplay, TruncatedGarbageAndTamperedDatagramsAreDroppedAndCounted) {
    const Bytes d = next_copy();
    for (size_t n = 0; n < d.size(); n += 3) inject(Bytes(d.begin(), d.begin() + n));
    const uint64_t truncated = (d.size() + 2) / 3;
    EXPECT_EQ(server->ep.dropped(PLEXUS_DGRAM_DROP_MALFORMED), truncated);
    Bytes tampered = d;
    tampered.back() ^= 1;  // the reliable header's payload: the tag no longer verifies
    inject(tampered);
    EXPECT_EQ(server->ep.dropped(PLEXUS_DGRAM_DROP_AUTH), 1u);
    for (int i = 0; i < 50; ++i) inject(pattern(20 + i * 7, 1000 + i));
    EXPECT_EQ(server->ep.dropped(PLEXUS_DGRAM_DROP_MALFORMED), truncated + 50);
    EXPECT_EQ(handled, 0);
    // The genuine datagram still gets through after all that.
    inject(d);
    EXPECT_EQ(handled, 1);
}

TEST(DgramReliableArgs, BadArgumentsAreRefusedWithAReason) {
    RelEp client(1);
    const Bytes to = client.ep.address();
    const plexus_dgram_iov_t iov{nullptr, 5};
    plexus_dgram_op_t *op = reinterpret_cast<plexus_dgram_op_t *>(1);
    EXPECT_EQ(dg().reliable_send(client.rel, to.data(), to.size(), &iov, 1, 0, &op), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(op, nullptr);
    EXPECT_THAT(dg().reliable_last_error(client.rel), HasSubstr("iov"));
    EXPECT_EQ(dg().reliable_request(client.rel, nullptr, 0, nullptr, 0, 0, nullptr), PLEXUS_ERR_BAD_PARAM);
    EXPECT_THAT(dg().reliable_last_error(client.rel), HasSubstr("address"));
    plexus_dgram_peer_t not_a_request{};
    not_a_request.addr_len = static_cast<uint32_t>(to.size());
    std::memcpy(not_a_request.addr, to.data(), to.size());
    EXPECT_EQ(dg().reliable_respond(client.rel, &not_a_request, nullptr, 0, nullptr), PLEXUS_ERR_BAD_PARAM);
    EXPECT_THAT(dg().reliable_last_error(client.rel), HasSubstr("from->request is 0"));
    const Bytes big((8u << 20) + 1, 0);
    const plexus_dgram_iov_t whole{big.data(), big.size()};
    EXPECT_EQ(dg().reliable_send(client.rel, to.data(), to.size(), &whole, 1, 0, nullptr), PLEXUS_ERR_BAD_PARAM);
    EXPECT_THAT(dg().reliable_last_error(client.rel), HasSubstr("above runtime_dgram_max_message"));
    plexus_dgram_reliable_t *rel = nullptr;
    plexus_reason_t why{};
    plexus_dgram_reliable_args_t short_args{};
    short_args.struct_size = 4;
    EXPECT_EQ(dg().reliable_open(client.ep.p, &short_args, &rel, &why), PLEXUS_ERR_BAD_PARAM);
    EXPECT_THAT(why.text, HasSubstr("struct_size"));
    EXPECT_EQ(dg().reliable_open(nullptr, nullptr, &rel, nullptr), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(dg().reliable_wait(client.rel, nullptr, 0), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(dg().op_status(nullptr), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(dg().op_free(nullptr), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(dg().reliable_close(nullptr), PLEXUS_ERR_BAD_PARAM);
    plexus_dgram_reliable_stats_t s{};
    EXPECT_EQ(dg().reliable_stats(client.rel, &s), PLEXUS_ERR_BAD_PARAM);  // struct_size unset
}

TEST(DgramReliableVerbose, CompletionsAndTheCountersArePrinted) {
    std::vector<std::string> lines;
    plexus::mca::set_output_sink([&](const std::string &l) { lines.push_back(l); });
    {
        plexus::runtime::dgram::Settings settings;
        settings.verbose = 10;
        ScopedSettings scoped(settings);
        Responder server(2);
        RelEp client(1);
        plexus_dgram_op_t *op = client.request(server.address(), pattern(10, 1));
        ASSERT_EQ(dg().reliable_wait(client.rel, op, -1), PLEXUS_SUCCESS) << dg().op_error(op);
        dg().op_free(op);
    }
    plexus::mca::set_output_sink({});
    const std::string all = ::testing::PrintToString(lines);
    EXPECT_THAT(all, HasSubstr("runtime_dgram: request 1 of 10 bytes to peer 127.0.0.1:"));
    EXPECT_THAT(all, HasSubstr("completed in"));
    EXPECT_THAT(all, HasSubstr("reliable layer closed: sent 1 (completed 1, timeouts 0)"));
    EXPECT_THAT(all, HasSubstr("delivered 1, duplicates dropped "));
}

}  // namespace
