// Fuzzing the reliable layer's receive path (DGRAM 1.1). The endpoint below it drops whatever
// does not authenticate, so the layer's own parser is reached by a key holder: random payloads,
// valid data and ack headers with random bytes changed, and acks aimed at a message in flight
// with random bases and bitmaps. Thousands of cases never crash (run under ASan in CI), the
// malformed are counted, and both layers work afterwards.
#include <gmock/gmock.h>

#include <random>


#include "dgram_reliable_support.h"
#include "runtime/dgram/reliable_wire.h"

using namespace plexus::test::dgram;
namespace wire = plexus::runtime::dgram;

namespace {

class DgramReliableFuzz : public ::testing::Test {
protected:
    // Sends every payload from the plain endpoint to `to`, letting the layer read as it goes.
    void inject(const std::vector<Bytes> &payloads, const Bytes &to, plexus_dgram_reliable_t *rel) {
        for (size_t i = 0; i < payloads.size(); ++i) {
            ASSERT_EQ(keyholder.send(to, payloads[i]), PLEXUS_SUCCESS);
            if (i % 32 == 31) settle(rel);
        }
        settle(rel);
    }
    void settle(plexus_dgram_reliable_t *rel) {
        for (int i = 0; i < 50; ++i) dg().reliable_progress(rel);
    }
    void expect_exchange_works() {
        Responder server(7);
        plexus_dgram_op_t *op = target.request(server.address(), pattern(3000, 5));
        ASSERT_EQ(dg().reliable_wait(target.rel, op, -1), PLEXUS_SUCCESS) << dg().op_error(op);
        const Bytes req = pattern(3000, 5);
        EXPECT_EQ(target.response(op), answer_to(req.data(), req.size()));
        dg().op_free(op);
    }
    Bytes random_bytes(size_t n) {
        Bytes b(n);
        for (auto &c : b) c = static_cast<uint8_t>(byte(rng));
        return b;
    }
    Bytes valid_data() {
        wire::RelData h;
        h.flags = static_cast<uint8_t>(rng() % 3);
        h.incarnation = rng();
        h.msg_id = 1 + rng() % 1000;
        if (h.flags & wire::kRelResponse) h.reply_to = 1 + rng() % 5, h.reply_incarnation = rng();
        h.frag_size = 100;
        h.msg_len = static_cast<uint32_t>(rng() % 1000);
        h.frag_count = wire::fragment_count(h.msg_len, h.frag_size);
        h.frag_index = static_cast<uint32_t>(rng() % h.frag_count);
        Bytes b(wire::RelData::kBytes);
        wire::encode(h, b.data());
        const Bytes payload = random_bytes(h.payload_len());
        b.insert(b.end(), payload.begin(), payload.end());
        return b;
    }
    Bytes valid_ack(uint64_t incarnation, uint64_t msg_id) {
        wire::RelAck a;
        a.incarnation = incarnation;
        a.msg_id = msg_id;
        a.frag_count = 1 + static_cast<uint32_t>(rng() % 64);
        a.base = static_cast<uint32_t>(rng() % (a.frag_count + 1));
        a.bitmap_len = static_cast<uint16_t>((a.frag_count - a.base + 7) / 8);
        Bytes b(wire::RelAck::kBytes);
        wire::encode(a, b.data());
        const Bytes bits = random_bytes(a.bitmap_len);
        b.insert(b.end(), bits.begin(), bits.end());
        return b;
    }
    void mutate(Bytes &b) {
        std::uniform_int_distribution<size_t> pos(0, b.empty() ? 0 : b.size() - 1);
        for (int f = 1 + static_cast<int>(rng() % 4); f > 0 && !b.empty(); --f) b[pos(rng)] ^= static_cast<uint8_t>(1 + rng() % 255);
        if (rng() % 8 == 0 && !b.empty()) b.resize(rng() % b.size());  // cut short
    }

    std::mt19937_64 rng{2026};
    std::uniform_int_distribution<int> byte{0, 255};
    Ep keyholder = open_udp(9);  // same key and label: what it sends authenticates
    RelEp target{1};
};

TEST_F(DgramReliableFuzz, RandomPayloadsAreMalformedAndNeverDelivered) {
    std::vector<Bytes> junk;
    for (int i = 0; i < 1500; ++i) {
        Bytes b = random_bytes(rng() % 400);
        if (i % 2 == 0 && b.size() >= 2) b[0] = 1, b[1] = static_cast<uint8_t>(1 + i % 4 / 2);  // past version and kind
        junk.push_back(std::move(b));
    }
    inject(junk, target.ep.address(), target.rel);
    const plexus_dgram_reliable_stats_t s = target.stats();
    EXPECT_EQ(target.ep.stats().received_messages, 1500u);
    EXPECT_EQ(s.malformed, 1500u);
    EXPECT_EQ(s.delivered, 0u);
    expect_exchange_works();
}

TEST_F(DgramReliableFuzz, MutatedHeadersNeverCrashTheReceiver) {
    std::vector<Bytes> cases;
    for (int i = 0; i < 1500; ++i) {
        Bytes b = valid_data();
        mutate(b);
        cases.push_back(std::move(b));
    }
    inject(cases, target.ep.address(), target.rel);
    EXPECT_GT(target.stats().malformed, 300u);
    expect_exchange_works();
}

TEST_F(DgramReliableFuzz, ForgedAcksForAMessageInFlightNeverCrashTheSender) {
    plexus::runtime::dgram::Settings settings;
    settings.mtu = 1500;
    ScopedSettings scoped(settings);
    RawSocket silent;
    RelOptions o;
    o.rto_ms = 1;
    RelEp sender(3, o);
    // A message of 40 fragments on a 1500-byte link is in flight to a peer that never answers;
    // its incarnation and id are read back from what it sends.
    plexus_dgram_op_t *op = nullptr;
    {
        const Bytes big = pattern(40 * 1300, 4);
        op = sender.send(silent.address(), big, 20000);
    }
    const Bytes first = silent.capture();
    ASSERT_GE(first.size(), 72 + wire::RelData::kBytes);
    wire::RelData h;
    wire::RelAck unused;
    ASSERT_EQ(wire::decode(first.data() + 72, first.size() - 72, 8u << 20, &h, &unused), wire::RelParse::data);
    std::vector<Bytes> acks;
    for (int i = 0; i < 1000; ++i) {
        Bytes b = valid_ack(h.incarnation, h.msg_id);
        if (i % 2) mutate(b);
        acks.push_back(std::move(b));
    }
    inject(acks, sender.ep.address(), sender.rel);
    const plexus_dgram_reliable_stats_t s = sender.stats();
    EXPECT_GT(s.malformed + s.unmatched, 0u);
    dg().op_free(op);
    expect_exchange_works();
}

}  // namespace
