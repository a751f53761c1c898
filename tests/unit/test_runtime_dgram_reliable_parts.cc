// The reliable layer's parts without sockets (DGRAM 1.1): the wire format's round trips and
// checks, the sender's window, timer back-off and selective retransmission, the receiver's
// reassembly, duplicate suppression and acknowledgement bitmaps; its parameters. Time is passed
// in, so nothing here waits.
#include <gmock/gmock.h>

#include <numeric>


#include "base/param_registry.h"
#include "base/param_sources.h"
#include "runtime/dgram/incoming_messages.h"
#include "runtime/dgram/outgoing_message.h"
#include "runtime/dgram/reliable_wire.h"
#include "runtime/runtime_params.h"

using namespace plexus::runtime::dgram;
using std::chrono::milliseconds;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

namespace {

using Clock = std::chrono::steady_clock;

RelData data_header(uint32_t len, uint32_t frag_size, uint32_t index) {
    RelData h;
    h.incarnation = 0x1122334455667788ull;
    h.msg_id = 3;
    h.msg_len = len;
    h.frag_size = frag_size;
    h.frag_count = fragment_count(len, frag_size);
    h.frag_index = index;
    return h;
}

std::vector<uint8_t> encoded(const RelData &h) {
    std::vector<uint8_t> b(RelData::kBytes + h.payload_len(), 0xEE);
    encode(h, b.data());
    return b;
}

TEST(DgramReliableWire, DataAndAcksRoundTripAndEveryTruncationIsMalformed) {
    RelData h = data_header(250, 100, 2);
    h.flags = kRelResponse;
    h.reply_to = 9;
    h.reply_incarnation = 77;
    const std::vector<uint8_t> b = encoded(h);
    ASSERT_EQ(b.size(), RelData::kBytes + 50);
    RelData d;
    RelAck a;
    ASSERT_EQ(decode(b.data(), b.size(), 1000, &d, &a), RelParse::data);
    EXPECT_EQ(d.incarnation, h.incarnation);
    EXPECT_EQ(d.msg_id, 3u);
    EXPECT_EQ(d.reply_to, 9u);
    EXPECT_EQ(d.reply_incarnation, 77u);
    EXPECT_EQ(d.frag_count, 3u);
    EXPECT_EQ(d.offset(), 200u);
    for (size_t n = 0; n < b.size(); ++n) EXPECT_EQ(decode(b.data(), n, 1000, &d, &a), RelParse::malformed) << n;
    EXPECT_EQ(decode(b.data(), b.size(), 249, &d, &a), RelParse::malformed);  // above max_message

    RelAck ack;
    ack.incarnation = 5;
    ack.msg_id = 6;
    ack.frag_count = 20;
    ack.base = 4;
    ack.bitmap_len = 2;
    std::vector<uint8_t> ab(RelAck::kBytes + 2, 0x0F);
    encode(ack, ab.data());
    ASSERT_EQ(decode(ab.data(), ab.size(), 1000, &d, &a), RelParse::ack);
    EXPECT_EQ(a.base, 4u);
    EXPECT_EQ(a.frag_count, 20u);
    EXPECT_EQ(a.bitmap_len, 2u);
    ack.bitmap_len = 3;  // 24 bits for 16 fragments above the base: one byte too many
    ab.push_back(0);
    encode(ack, ab.data());
    EXPECT_EQ(decode(ab.data(), ab.size(), 1000, &d, &a), RelParse::malformed);
}

TEST(DgramReliableWire, InconsistentDataHeadersAreMalformed) {
    RelData d;
    RelAck a;
    auto check = [&](RelData h, size_t payload) {
        std::vector<uint8_t> b(RelData::kBytes + payload);
        encode(h, b.data());
        return decode(b.data(), b.size(), 1 << 20, &d, &a);
    };
    EXPECT_EQ(check(data_header(250, 100, 2), 50), RelParse::data);
    EXPECT_EQ(check(data_header(250, 100, 2), 51), RelParse::malformed);  // payload length
    EXPECT_EQ(check(data_header(250, 100, 1), 50), RelParse::malformed);  // a middle one is whole
    RelData h = data_header(250, 100, 0);
    h.frag_count = 4;
    EXPECT_EQ(check(h, 100), RelParse::malformed);
    h = data_header(250, 100, 0);
    h.msg_id = 0;
    EXPECT_EQ(check(h, 100), RelParse::malformed);
    h = data_header(250, 100, 0);
    h.flags = kRelRequest | kRelResponse;
    EXPECT_EQ(check(h, 100), RelParse::malformed);
    h.flags = kRelResponse;  // a response must say what it answers
    EXPECT_EQ(check(h, 100), RelParse::malformed);
    h = data_header(0, 100, 0);
    EXPECT_EQ(check(h, 0), RelParse::data);  // the empty message: one empty fragment
}

OutgoingMessage::Timing timing(size_t window = 1 << 20) {
    OutgoingMessage::Timing t;
    t.rto = milliseconds(10);
    t.rto_max = milliseconds(40);
    t.window = window;
    return t;
}

TEST(DgramReliableOutgoing, TheWindowLimitsWhatIsInFlight) {
    OutgoingMessage m(1000, 100, timing(300));
    const auto t0 = Clock::now();
    std::vector<uint32_t> due;
    EXPECT_EQ(m.due(t0, &due), OutgoingMessage::Cause::fresh);
    EXPECT_THAT(due, ElementsAre(0u, 1u, 2u));
    for (uint32_t i : due) EXPECT_FALSE(m.sent(i, t0));
    EXPECT_EQ(m.due(t0, &due), OutgoingMessage::Cause::none);
    const uint8_t first_two = 0x3;
    int64_t rtt = -1;
    EXPECT_EQ(m.ack(0, &first_two, 1, t0 + milliseconds(2), &rtt), 2u);
    EXPECT_EQ(rtt, 2000);
    EXPECT_EQ(m.due(t0, &due), OutgoingMessage::Cause::fresh);
    EXPECT_THAT(due, ElementsAre(3u, 4u));
}

TEST(DgramReliableOutgoing, TheTimerResendsABoundedBurstDoublingWhileSilentAndResetsOnNews) {
    OutgoingMessage m(2000, 100, timing());  // 20 fragments, all in the window
    const auto t0 = Clock::now();
    auto t = t0;
    std::vector<uint32_t> due;
    m.due(t, &due);
    for (uint32_t i : due) m.sent(i, t);
    EXPECT_EQ(m.next_timer(), t + milliseconds(10));
    EXPECT_EQ(m.due(t + milliseconds(9), &due), OutgoingMessage::Cause::none);
    std::vector<int64_t> gaps;
    std::vector<uint32_t> oldest16(16);
    std::iota(oldest16.begin(), oldest16.end(), 0u);
    for (int round = 0; round < 4; ++round) {
        const auto fire = m.next_timer();
        ASSERT_EQ(m.due(fire, &due), OutgoingMessage::Cause::timer);
        EXPECT_EQ(due, oldest16);  // the oldest, at most kTimerBurst of them
        for (uint32_t i : due) EXPECT_TRUE(m.sent(i, fire));
        gaps.push_back(std::chrono::duration_cast<milliseconds>(m.next_timer() - fire).count());
        t = fire;
    }
    EXPECT_THAT(gaps, ElementsAre(20, 40, 40, 40));
    EXPECT_EQ(m.transmissions(), 20u + 4 * 16);
    const uint8_t first = 0x1;
    int64_t rtt = -1;
    EXPECT_EQ(m.ack(0, &first, 1, t, &rtt), 1u);
    EXPECT_EQ(rtt, -1);  // a retransmitted fragment's ack measures nothing (Karn)
    EXPECT_EQ(m.next_timer(), t + milliseconds(10));
    // 16-19 went out (once, at t0) before fragment 0's last copy, which arrived: lost.
    EXPECT_EQ(m.due(t, &due), OutgoingMessage::Cause::presumed_lost);
    EXPECT_THAT(due, ElementsAre(16u, 17u, 18u, 19u));
    EXPECT_EQ(m.ack(20, nullptr, 0, t, &rtt), 19u);
    EXPECT_EQ(rtt, 110000);  // fragment 19, sent once 110 ms before (due() only names it)
    EXPECT_TRUE(m.all_acked());
    EXPECT_EQ(m.next_timer(), Clock::time_point::max());
}

TEST(DgramReliableOutgoing, AFragmentSentBeforeAnAcknowledgedOneIsSentAgainAtOnce) {
    OutgoingMessage m(500, 100, timing());
    const auto t = Clock::now();
    std::vector<uint32_t> due;
    m.due(t, &due);
    for (uint32_t i : due) m.sent(i, t);
    const uint8_t holes = 0x1A;  // 1, 3, 4 arrived; 0 and 2 did not
    int64_t rtt = -1;
    EXPECT_EQ(m.ack(0, &holes, 1, t, &rtt), 3u);
    EXPECT_EQ(m.due(t, &due), OutgoingMessage::Cause::presumed_lost);
    EXPECT_THAT(due, ElementsAre(0u, 2u));
    for (uint32_t i : due) m.sent(i, t);
    EXPECT_EQ(m.due(t, &due), OutgoingMessage::Cause::none);  // once, not at every look
}

std::vector<uint8_t> payload_of(const RelData &h) { return std::vector<uint8_t>(h.payload_len(), uint8_t(h.frag_index + 1)); }

TEST(DgramReliableIncoming, FragmentsInAnyOrderMakeTheMessageOnceAndTheAckSaysWhatArrived) {
    IncomingMessages in(IncomingMessages::Limits{});
    const IncomingMessages::PeerKey peer{4, 99};
    std::vector<uint8_t> msg, bitmap;
    RelAck ack;
    for (uint32_t i : {3u, 0u, 2u}) {
        const RelData h = data_header(1050, 100, i * 3);
        EXPECT_EQ(in.add(peer, h, payload_of(h).data(), &msg), IncomingMessages::Outcome::partial);
    }
    ASSERT_TRUE(in.ack_of(peer, 3, 11, 100, &ack, &bitmap));
    EXPECT_EQ(ack.base, 1u);
    EXPECT_EQ(ack.incarnation, 99u);
    EXPECT_THAT(bitmap, ElementsAre(0x20, 0x01));  // 6 and 9, relative to 1: bits 5 and 8
    const RelData dup = data_header(1050, 100, 6);
    EXPECT_EQ(in.add(peer, dup, payload_of(dup).data(), &msg), IncomingMessages::Outcome::duplicate);
    for (uint32_t i = 0; i < 11; ++i) {
        if (i == 0 || i == 6 || i == 9) continue;
        const RelData h = data_header(1050, 100, i);
        const auto outcome = in.add(peer, h, payload_of(h).data(), &msg);
        EXPECT_EQ(outcome, i == 10 ? IncomingMessages::Outcome::complete : IncomingMessages::Outcome::partial) << i;
    }
    ASSERT_EQ(msg.size(), 1050u);
    for (size_t b = 0; b < msg.size(); ++b) ASSERT_EQ(size_t(msg[b]), b / 100 + 1) << b;
    EXPECT_EQ(in.bytes_held(), 0u);
    const RelData late = data_header(1050, 100, 4);
    EXPECT_EQ(in.add(peer, late, payload_of(late).data(), &msg), IncomingMessages::Outcome::duplicate);
    ASSERT_TRUE(in.ack_of(peer, 3, 11, 100, &ack, &bitmap));
    EXPECT_EQ(ack.base, 11u);
    EXPECT_THAT(bitmap, IsEmpty());
    // Another incarnation of the same sender is another peer: its message 3 is new.
    EXPECT_EQ(in.add({4, 100}, late, payload_of(late).data(), &msg), IncomingMessages::Outcome::partial);
    EXPECT_FALSE(in.ack_of(peer, 8, 1, 100, &ack, &bitmap));  // never seen
}

TEST(DgramReliableIncoming, MessagesBeyondTheMemoryAreRefusedAndDisagreeingFragmentsInconsistent) {
    IncomingMessages::Limits limits;
    limits.memory = 1000;
    IncomingMessages in(limits);
    std::vector<uint8_t> msg;
    const RelData big = data_header(900, 100, 0);
    EXPECT_EQ(in.add({1, 1}, big, payload_of(big).data(), &msg), IncomingMessages::Outcome::partial);
    RelData other = data_header(200, 100, 0);
    other.msg_id = 4;
    EXPECT_EQ(in.add({1, 1}, other, payload_of(other).data(), &msg), IncomingMessages::Outcome::refused);
    RelData reshaped = data_header(800, 100, 1);
    EXPECT_EQ(in.add({1, 1}, reshaped, payload_of(reshaped).data(), &msg), IncomingMessages::Outcome::inconsistent);
    EXPECT_EQ(in.bytes_held(), 900u);
}

TEST(DgramReliableParams, TheyAreRegisteredWithTheRuntimesAndRead) {
    const std::pair<const char *, const char *> values[] = {
        {"runtime_dgram_rto_ms", "7"}, {"runtime_dgram_rto_max_ms", "300"}, {"runtime_dgram_timeout_ms", "2500"},
        {"runtime_dgram_window", "65536"}, {"runtime_dgram_verbose", "10"}};
    std::vector<plexus::mca::Setting> given;
    for (const auto &[name, value] : values) {
        plexus::mca::Setting s;
        s.name = name;
        s.value = value;
        s.kind = plexus::mca::SourceKind::Env;
        s.origin = std::string("env PLEXUS_MCA_") + name;
        given.push_back(s);
    }
    plexus::mca::ParamRegistry params(given);
    plexus::runtime::register_runtime_params(params);
    for (const auto &s : given) {
        const plexus::mca::Param *p = params.find(s.name);
        ASSERT_NE(p, nullptr) << s.name;
        EXPECT_FALSE(p->spec.help.empty()) << s.name;
    }
    const Settings d = plexus::runtime::runtime_settings(params).dgram;
    EXPECT_EQ(d.rto, milliseconds(7));
    EXPECT_EQ(d.rto_max, milliseconds(300));
    EXPECT_EQ(d.timeout, milliseconds(2500));
    EXPECT_EQ(d.window, 65536u);
    EXPECT_EQ(d.verbose, 10);
    const Settings defaults;
    EXPECT_EQ(defaults.rto, milliseconds(20));
    EXPECT_EQ(defaults.timeout, milliseconds(10000));
}

}  // namespace
