// Unit tests of the datagram facility's bounded state, below the C table: the replay window's
// edges, the peer table's bound, and the reassembly memory given back whatever becomes of a
// message.
#include <gmock/gmock.h>

#include "runtime/dgram/reassembly.h"
#include "runtime/dgram/replay_guard.h"

using namespace plexus::runtime::dgram;
using Verdict = ReplayGuard::Verdict;

namespace {

TEST(DgramReplayGuard, TheWindowReachesBack1023SequencesAndNoFurther) {
    ReplayGuard g(16);
    EXPECT_EQ(g.admit(1, 0, 7, 2000), Verdict::fresh);
    EXPECT_EQ(g.admit(1, 0, 7, 2000 - 1023), Verdict::fresh);
    EXPECT_EQ(g.admit(1, 0, 7, 2000 - 1023), Verdict::duplicate);
    EXPECT_EQ(g.admit(1, 0, 7, 2000 - 1024), Verdict::duplicate);  // older than the window
    EXPECT_EQ(g.admit(1, 0, 7, 5000), Verdict::fresh);               // a jump clears the window
    EXPECT_EQ(g.admit(1, 0, 7, 4999), Verdict::fresh);
    EXPECT_EQ(g.admit(1, 0, 8, 2000), Verdict::fresh);  // another endpoint of the same sender
}

TEST(DgramReplayGuard, EpochsBelowTheFloorOrTheSendersNewestAreStale) {
    ReplayGuard g(16);
    g.raise_floor(3);
    g.raise_floor(2);  // never lowered
    EXPECT_EQ(g.floor(), 3u);
    EXPECT_EQ(g.admit(1, 2, 7, 1), Verdict::stale);
    EXPECT_EQ(g.admit(1, 5, 7, 1), Verdict::fresh);
    EXPECT_EQ(g.admit(1, 4, 9, 1), Verdict::stale);  // sender 1 has moved on to 5
    EXPECT_EQ(g.admit(2, 4, 9, 1), Verdict::fresh);  // sender 2 has not
}

TEST(DgramReplayGuard, ThePeerTableIsBoundedForgettingTheLeastRecentlyHeard) {
    ReplayGuard g(4);
    for (uint64_t salt = 1; salt <= 4; ++salt) EXPECT_EQ(g.admit(1, 0, salt, 1), Verdict::fresh);
    EXPECT_EQ(g.admit(1, 0, 1, 2), Verdict::fresh);  // salt 1 heard again: salt 2 is the oldest
    EXPECT_EQ(g.admit(1, 0, 5, 1), Verdict::fresh);  // a fifth: salt 2 forgotten
    EXPECT_EQ(g.peers(), 4u);
    EXPECT_EQ(g.admit(1, 0, 1, 1), Verdict::duplicate);  // remembered
    EXPECT_EQ(g.admit(1, 0, 2, 1), Verdict::fresh);      // forgotten, so accepted once more
}

Header fragment(uint64_t first_seq, uint32_t index, uint32_t count, uint32_t msg_len, uint16_t len) {
    Header h;
    h.sender = 1;
    h.salt = 9;
    h.seq = first_seq + index;
    h.frag_index = index;
    h.frag_count = count;
    h.msg_len = msg_len;
    h.frag_offset = index * 100;
    h.frag_len = len;
    return h;
}

TEST(DgramReassembly, MemoryIsGivenBackWhenAMessageCompletesBreaksOrExpires) {
    Reassembly r({1000, std::chrono::milliseconds(50)});
    const uint8_t bytes[100] = {};
    std::vector<uint8_t> out;
    const auto t0 = Reassembly::Clock::now();
    EXPECT_EQ(r.add(fragment(10, 0, 3, 250, 100), bytes, &out, t0), Reassembly::Outcome::partial);
    EXPECT_EQ(r.bytes_held(), 250u);
    EXPECT_EQ(r.add(fragment(10, 2, 3, 250, 50), bytes, &out, t0), Reassembly::Outcome::partial);
    EXPECT_EQ(r.add(fragment(10, 1, 3, 250, 100), bytes, &out, t0), Reassembly::Outcome::complete);
    EXPECT_EQ(out.size(), 250u);
    EXPECT_EQ(r.bytes_held(), 0u);

    // A fragment that disagrees with its message's first breaks it.
    EXPECT_EQ(r.add(fragment(20, 0, 3, 250, 100), bytes, &out, t0), Reassembly::Outcome::partial);
    EXPECT_EQ(r.add(fragment(20, 1, 4, 250, 100), bytes, &out, t0), Reassembly::Outcome::inconsistent);
    EXPECT_EQ(r.bytes_held(), 0u);

    // Above the budget, then expiry frees room for the next message.
    EXPECT_EQ(r.add(fragment(30, 0, 9, 900, 100), bytes, &out, t0), Reassembly::Outcome::partial);
    EXPECT_EQ(r.add(fragment(40, 0, 2, 200, 100), bytes, &out, t0), Reassembly::Outcome::no_memory);
    const auto later = t0 + std::chrono::milliseconds(60);
    EXPECT_EQ(r.add(fragment(40, 0, 2, 200, 100), bytes, &out, later), Reassembly::Outcome::partial);
    EXPECT_EQ(r.partial_messages(), 1u);
    EXPECT_EQ(r.bytes_held(), 200u);
    EXPECT_EQ(r.expire(later + std::chrono::milliseconds(60)), 1u);
    EXPECT_EQ(r.bytes_held(), 0u);
}

}  // namespace
