// Unit tests of what the datagram facility refuses: tampered header, payload or tag (auth),
// another job's key or another label (foreign), replays and duplicates, stale epochs; each is
// dropped, counted by its reason, and never delivered. An endpoint opened only for its address
// (dpm_ud's usable check, in every process) loads no libcrypto; the first datagram does.
#include <gmock/gmock.h>

#include <dlfcn.h>

#include "dgram_test_support.h"

using namespace plexus::test::dgram;

namespace {

constexpr size_t kHeader = 72, kTagAt = 56;

class DgramAuth : public ::testing::Test {
protected:
    // One genuine datagram from a (sender 1) as it travels, captured on a raw socket.
    Bytes genuine(const Bytes &msg = pattern(64, 1)) {
        EXPECT_EQ(a.send(raw.address(), msg), PLEXUS_SUCCESS);
        return raw.capture();
    }
    // Delivers d to b and reports whether a message came out.
    bool delivered(const Bytes &d, Bytes *got = nullptr) {
        raw.send_to(b.address(), d);
        Bytes local;
        return b.recv(got ? got : &local, 200) == PLEXUS_SUCCESS;
    }
    Ep a = open_udp(1), b = open_udp(2);
    RawSocket raw;
};

TEST_F(DgramAuth, AGenuineDatagramForwardedOnceIsDelivered) {
    Bytes d = genuine(), got;
    ASSERT_EQ(d.size(), kHeader + 64);
    EXPECT_TRUE(delivered(d, &got));
    EXPECT_EQ(got, pattern(64, 1));
}

TEST_F(DgramAuth, ATamperedPayloadHeaderOrTagIsDroppedAsAuth) {
    const Bytes d = genuine();
    Bytes payload = d, sender = d, epoch = d, tag = d;
    payload[kHeader + 5] ^= 0x01;
    sender[15] ^= 0x80;  // the sender id's last byte (bytes 12-15)
    epoch[16] ^= 0x01;
    tag[kTagAt + 15] ^= 0xff;
    for (const Bytes *t : {&payload, &sender, &epoch, &tag}) EXPECT_FALSE(delivered(*t));
    EXPECT_EQ(b.dropped(PLEXUS_DGRAM_DROP_AUTH), 4u);
    EXPECT_EQ(b.stats().received_datagrams, 0u);
    EXPECT_TRUE(delivered(d));  // the original still verifies: nothing was recorded for fakes
}

TEST_F(DgramAuth, AnotherJobsKeyOrAnotherLabelIsForeign) {
    OpenOptions other_job;
    other_job.key = test_key(0x77);
    Ep c = open_udp(3, other_job);
    OpenOptions other_label;
    other_label.label = "another component";
    Ep e = open_udp(4, other_label);
    ASSERT_EQ(c.send(b.address(), pattern(10, 1)), PLEXUS_SUCCESS);
    ASSERT_EQ(e.send(b.address(), pattern(10, 2)), PLEXUS_SUCCESS);
    Bytes got;
    EXPECT_EQ(b.recv(&got, 200), PLEXUS_ERR_TIMEOUT);
    EXPECT_EQ(b.dropped(PLEXUS_DGRAM_DROP_FOREIGN), 2u);
}

TEST_F(DgramAuth, AWrongSecretUnderOurKeyIdFailsAuthentication) {
    OpenOptions other_job;
    other_job.key = test_key(0x77);
    Ep c = open_udp(3, other_job);
    ASSERT_EQ(c.send(raw.address(), pattern(64, 1)), PLEXUS_SUCCESS);
    Bytes forged = raw.capture();
    const Bytes ours = genuine();
    std::copy(ours.begin() + 4, ours.begin() + 12, forged.begin() + 4);  // claim our key id
    EXPECT_FALSE(delivered(forged));
    EXPECT_EQ(b.dropped(PLEXUS_DGRAM_DROP_AUTH), 1u);
}

TEST_F(DgramAuth, AReplayedDatagramIsDroppedAsDuplicate) {
    const Bytes d = genuine();
    EXPECT_TRUE(delivered(d));
    EXPECT_FALSE(delivered(d));
    EXPECT_FALSE(delivered(d));
    EXPECT_EQ(b.dropped(PLEXUS_DGRAM_DROP_DUPLICATE), 2u);
    EXPECT_EQ(b.stats().received_messages, 1u);
}

TEST_F(DgramAuth, DuplicatesOutOfOrderAndOlderThanTheWindowAreDropped) {
    std::vector<Bytes> d;
    for (int i = 0; i < 5; ++i) d.push_back(genuine(pattern(8, i)));
    EXPECT_TRUE(delivered(d[3]));
    EXPECT_TRUE(delivered(d[1]));  // late but new
    EXPECT_FALSE(delivered(d[3]));
    EXPECT_TRUE(delivered(d[4]));
    EXPECT_FALSE(delivered(d[1]));
    EXPECT_EQ(b.dropped(PLEXUS_DGRAM_DROP_DUPLICATE), 2u);
    // 1100 newer datagrams later, d[0] (never delivered) is older than the window: refused.
    for (int i = 0; i < 1100; ++i) {
        ASSERT_EQ(a.send(b.address(), {1}), PLEXUS_SUCCESS);
        Bytes got;
        ASSERT_EQ(b.recv(&got, 1000), PLEXUS_SUCCESS);
    }
    EXPECT_FALSE(delivered(d[0]));
    EXPECT_EQ(b.dropped(PLEXUS_DGRAM_DROP_DUPLICATE), 3u);
}

TEST_F(DgramAuth, OldEpochsAreStale) {
    OpenOptions at5;
    at5.epoch = 5;
    Ep r = open_udp(7, at5);
    OpenOptions at3;
    at3.epoch = 3;
    Ep s = open_udp(8, at3);
    Bytes got;
    ASSERT_EQ(s.send(r.address(), {1}), PLEXUS_SUCCESS);
    EXPECT_EQ(r.recv(&got, 200), PLEXUS_ERR_TIMEOUT);
    EXPECT_EQ(r.dropped(PLEXUS_DGRAM_DROP_STALE), 1u);

    ASSERT_EQ(dg().set_epoch(s.p, 6), PLEXUS_SUCCESS);
    plexus_dgram_recv_info_t info{};
    ASSERT_EQ(s.send(r.address(), {2}), PLEXUS_SUCCESS);
    ASSERT_EQ(r.recv(&got, 1000, &info), PLEXUS_SUCCESS);
    EXPECT_EQ(info.epoch, 6u);

    // Once the receiver moves on, what the sender still sends from epoch 6 is stale.
    ASSERT_EQ(dg().set_epoch(r.p, 7), PLEXUS_SUCCESS);
    ASSERT_EQ(s.send(r.address(), {3}), PLEXUS_SUCCESS);
    EXPECT_EQ(r.recv(&got, 200), PLEXUS_ERR_TIMEOUT);
    EXPECT_EQ(r.dropped(PLEXUS_DGRAM_DROP_STALE), 2u);
}

TEST_F(DgramAuth, ASendersOlderEpochIsStaleOnceANewerOneWasSeen) {
    const Bytes old_epoch = genuine();  // a at epoch 0
    ASSERT_EQ(dg().set_epoch(a.p, 4), PLEXUS_SUCCESS);
    EXPECT_TRUE(delivered(genuine()));  // b has now seen epoch 4 from sender 1
    EXPECT_FALSE(delivered(old_epoch));
    EXPECT_EQ(b.dropped(PLEXUS_DGRAM_DROP_STALE), 1u);
}

// 0 when libcrypto stays unloaded until the first datagram (run in a fresh process).
int libcrypto_waits_for_the_first_datagram() {
    const auto loaded = [] { return dlopen("libcrypto.so.3", RTLD_NOW | RTLD_NOLOAD) != nullptr; };
    if (loaded()) return 20;  // this test program must not link it
    Ep a = open_udp(1), b = open_udp(2);
    if (a.address().empty() || loaded()) return 21;
    if (a.send(b.address(), pattern(64, 1)) != PLEXUS_SUCCESS) return 22;
    Bytes got;
    if (b.recv(&got, 2000) != PLEXUS_SUCCESS || got != pattern(64, 1)) return 23;
    return loaded() ? 0 : 24;
}

TEST(DgramAuthLoad, AnEndpointOpenedForItsAddressLoadsNoLibcrypto) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");  // re-executed: nothing loaded by other tests
    EXPECT_EXIT(std::exit(libcrypto_waits_for_the_first_datagram()), ::testing::ExitedWithCode(0), "");
}

}  // namespace
