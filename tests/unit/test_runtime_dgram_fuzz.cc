// Fuzzing the datagram facility's receive path: random bytes, truncated datagrams, header
// fields out of range and random header corruption never crash, are never delivered, and are
// each counted once; the endpoint keeps working afterwards.
#include <gmock/gmock.h>

#include <random>


#include "dgram_test_support.h"

using namespace plexus::test::dgram;

namespace {

uint64_t total_dropped(const plexus_dgram_stats_t &s) {
    uint64_t n = 0;
    for (uint64_t d : s.dropped) n += d;
    return n;
}

class DgramFuzz : public ::testing::Test {
protected:
    // Sends every datagram to b, draining it as it goes (a socket buffer holds only so many).
    void inject(const std::vector<Bytes> &datagrams) {
        for (size_t i = 0; i < datagrams.size(); ++i) {
            raw.send_to(b.address(), datagrams[i]);
            if (i % 64 == 63) drain();
        }
        drain();
    }
    void drain() {
        Bytes got;
        while (b.recv(&got, 20) == PLEXUS_SUCCESS) ++delivered;
    }
    void expect_still_works() {
        ASSERT_EQ(a.send(b.address(), pattern(33, 7)), PLEXUS_SUCCESS);
        Bytes got;
        ASSERT_EQ(b.recv(&got, 1000), PLEXUS_SUCCESS);
        EXPECT_EQ(got, pattern(33, 7));
    }
    Bytes genuine(size_t len = 100) {
        EXPECT_EQ(a.send(raw.address(), pattern(len, 3)), PLEXUS_SUCCESS);
        return raw.capture();
    }
    Ep a = open_udp(1), b = open_udp(2);
    RawSocket raw;
    std::mt19937 rng{12345};
    int delivered = 0;
};

TEST_F(DgramFuzz, RandomBytesOfRandomLengthsAreAllCountedAndNoneDelivered) {
    std::vector<Bytes> junk;
    std::uniform_int_distribution<int> len(0, 3000), byte(0, 255);
    for (int i = 0; i < 1500; ++i) {
        Bytes d(len(rng));
        for (auto &c : d) c = static_cast<uint8_t>(byte(rng));
        if (i % 3 == 0 && d.size() >= 3) d[0] = 0x58, d[1] = 0x44, d[2] = 1;  // past the magic
        junk.push_back(std::move(d));
    }
    inject(junk);
    EXPECT_EQ(delivered, 0);
    const plexus_dgram_stats_t s = b.stats();
    EXPECT_EQ(total_dropped(s), 1500u);
    EXPECT_EQ(s.dropped[PLEXUS_DGRAM_DROP_KERNEL], 0u);
    EXPECT_GT(s.dropped[PLEXUS_DGRAM_DROP_MALFORMED], 1000u);
    expect_still_works();
}

TEST_F(DgramFuzz, EveryTruncationOfAGenuineDatagramIsMalformed) {
    const Bytes d = genuine(100);
    std::vector<Bytes> cut;
    for (size_t n = 0; n < d.size(); ++n) cut.emplace_back(d.begin(), d.begin() + n);
    Bytes longer = d;
    longer.push_back(0);  // one byte too many
    cut.push_back(longer);
    inject(cut);
    EXPECT_EQ(delivered, 0);
    EXPECT_EQ(b.dropped(PLEXUS_DGRAM_DROP_MALFORMED), d.size() + 1);
    expect_still_works();
}

// Writes v big-endian at off.
void put32(Bytes &d, size_t off, uint32_t v) {
    for (int i = 0; i < 4; ++i) d[off + i] = static_cast<uint8_t>(v >> (24 - 8 * i));
}

TEST_F(DgramFuzz, HeaderLengthsOutOfRangeAreMalformedBeforeAnythingIsAllocated) {
    const Bytes d = genuine(100);
    std::vector<Bytes> bad;
    auto with = [&](size_t off, uint32_t v) {
        Bytes x = d;
        put32(x, off, v);
        bad.push_back(x);
    };
    with(36, 0xffffffffu);  // msg_len above the maximum
    with(36, 99);           // msg_len below the payload
    with(40, 1);            // offset past the end of the message
    with(44, 1);            // index not below count
    with(48, 0);            // no fragments
    with(48, 0x7fffffffu);  // more fragments than bytes
    Bytes version = d;
    version[2] = 9;
    bad.push_back(version);
    Bytes frag_len = d;
    frag_len[52] = 0xff;  // payload length disagrees with the datagram's
    bad.push_back(frag_len);
    inject(bad);
    EXPECT_EQ(delivered, 0);
    EXPECT_EQ(b.dropped(PLEXUS_DGRAM_DROP_MALFORMED), bad.size());
    expect_still_works();
}

TEST_F(DgramFuzz, RandomHeaderCorruptionIsAlwaysDroppedAndCountedOnce) {
    std::vector<Bytes> corrupt;
    std::uniform_int_distribution<int> pos(0, 71), byte(1, 255), flips(1, 4);
    for (int i = 0; i < 1000; ++i) {
        Bytes d = genuine(40 + i % 200);
        for (int f = flips(rng); f > 0; --f) d[pos(rng)] ^= static_cast<uint8_t>(byte(rng));
        corrupt.push_back(std::move(d));
    }
    inject(corrupt);
    EXPECT_EQ(delivered, 0);
    const plexus_dgram_stats_t s = b.stats();
    EXPECT_EQ(total_dropped(s), 1000u);
    EXPECT_GT(s.dropped[PLEXUS_DGRAM_DROP_AUTH], 0u);
    EXPECT_GT(s.dropped[PLEXUS_DGRAM_DROP_FOREIGN], 0u);
    EXPECT_GT(s.dropped[PLEXUS_DGRAM_DROP_MALFORMED], 0u);
    expect_still_works();
}

}  // namespace
