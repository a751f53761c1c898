// Unit tests of fragmentation and reassembly: messages above the MTU arrive byte for byte
// whatever the order of their fragments; incomplete ones expire; reassembly memory is bounded.
#include <gmock/gmock.h>

#include <algorithm>
#include <thread>


#include "dgram_test_support.h"

using namespace plexus::test::dgram;

namespace {

constexpr size_t kMtu = 1024;                  // runtime_dgram_mtu in these tests
constexpr size_t kPayload = kMtu - 72;         // message bytes per datagram

size_t fragments(size_t len) { return std::max<size_t>(1, (len + kPayload - 1) / kPayload); }

class DgramFragments : public ::testing::Test {
protected:
    void SetUp() override { use(settings()); }
    // runtime_dgram_mtu kMtu, and what a test changes besides.
    static plexus::runtime::dgram::Settings settings() {
        plexus::runtime::dgram::Settings s;
        s.mtu = kMtu;
        return s;
    }
    void use(const plexus::runtime::dgram::Settings &s) {
        scoped_.reset();
        scoped_ = std::make_unique<ScopedSettings>(s);
    }

private:
    std::unique_ptr<ScopedSettings> scoped_;
};

TEST_F(DgramFragments, LargeMessagesArriveByteForByte) {
    Ep a = open_udp(1), b = open_udp(2);
    plexus_dgram_limits_t l{};
    l.struct_size = sizeof l;
    ASSERT_EQ(dg().limits(a.p, &l), PLEXUS_SUCCESS);
    ASSERT_EQ(l.mtu, kPayload);
    const std::vector<size_t> sizes = {kPayload, kPayload + 1, 3 * kPayload - 1, 3 * kPayload + 17, 200000};
    uint64_t datagrams = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
        ASSERT_EQ(a.send(b.address(), pattern(sizes[i], i)), PLEXUS_SUCCESS) << dg().last_error(a.p);
        datagrams += fragments(sizes[i]);
        Bytes got;
        ASSERT_EQ(b.recv(&got, 2000), PLEXUS_SUCCESS) << sizes[i];
        EXPECT_EQ(got, pattern(sizes[i], i)) << sizes[i];
    }
    EXPECT_EQ(a.stats().sent_datagrams, datagrams);
    EXPECT_EQ(b.stats().received_datagrams, datagrams);
    EXPECT_EQ(b.stats().received_messages, sizes.size());
}

TEST_F(DgramFragments, AGatherListIsSentAsOneMessageAcrossFragmentBoundaries) {
    Ep a = open_udp(1), b = open_udp(2);
    const Bytes p1 = pattern(700, 1), p2 = pattern(1500, 2), p3 = pattern(3, 3);
    const plexus_dgram_iov_t iov[] = {{p1.data(), p1.size()}, {nullptr, 0}, {p2.data(), p2.size()}, {p3.data(), p3.size()}};
    const Bytes addr = b.address();
    ASSERT_EQ(dg().sendv(a.p, addr.data(), addr.size(), iov, 4), PLEXUS_SUCCESS);
    Bytes want = p1;
    want.insert(want.end(), p2.begin(), p2.end());
    want.insert(want.end(), p3.begin(), p3.end());
    Bytes got;
    ASSERT_EQ(b.recv(&got, 2000), PLEXUS_SUCCESS);
    EXPECT_EQ(got, want);
    EXPECT_EQ(a.stats().sent_datagrams, fragments(want.size()));
}

// Sends msg from a to a raw socket and returns its datagrams as captured.
std::vector<Bytes> capture_fragments(Ep &a, RawSocket &raw, const Bytes &msg) {
    EXPECT_EQ(a.send(raw.address(), msg), PLEXUS_SUCCESS);
    std::vector<Bytes> out;
    for (size_t i = 0; i < fragments(msg.size()); ++i) out.push_back(raw.capture());
    return out;
}

TEST_F(DgramFragments, FragmentsInAnyOrderAndInterleavedWithAnotherMessageReassemble) {
    Ep a = open_udp(1), b = open_udp(2);
    RawSocket raw;
    const Bytes m1 = pattern(5 * kPayload + 10, 1), m2 = pattern(3 * kPayload, 2);
    std::vector<Bytes> f1 = capture_fragments(a, raw, m1), f2 = capture_fragments(a, raw, m2);
    std::reverse(f1.begin(), f1.end());
    std::rotate(f2.begin(), f2.begin() + 1, f2.end());
    for (size_t i = 0; i < std::max(f1.size(), f2.size()); ++i) {
        if (i < f1.size()) raw.send_to(b.address(), f1[i]);
        if (i < f2.size()) raw.send_to(b.address(), f2[i]);
    }
    Bytes got;
    ASSERT_EQ(b.recv(&got, 2000), PLEXUS_SUCCESS);
    EXPECT_EQ(got, m2);  // m2's last fragment came first
    ASSERT_EQ(b.recv(&got, 2000), PLEXUS_SUCCESS);
    EXPECT_EQ(got, m1);
}

TEST_F(DgramFragments, AMessageMissingAFragmentExpiresAndIsCounted) {
    auto s = settings();
    s.reassembly_timeout = std::chrono::milliseconds(100);
    use(s);
    Ep a = open_udp(1), b = open_udp(2);
    RawSocket raw;
    std::vector<Bytes> f = capture_fragments(a, raw, pattern(4 * kPayload, 9));
    ASSERT_EQ(f.size(), 4u);
    for (size_t i = 0; i < f.size(); ++i)
        if (i != 2) raw.send_to(b.address(), f[i]);
    Bytes got;
    EXPECT_EQ(b.recv(&got, 300), PLEXUS_ERR_TIMEOUT);
    EXPECT_EQ(b.dropped(PLEXUS_DGRAM_DROP_REASSEMBLY_TIMEOUT), 3u);
    // The late fragment alone starts a new partial message, which expires as well.
    raw.send_to(b.address(), f[2]);
    EXPECT_EQ(b.recv(&got, 300), PLEXUS_ERR_TIMEOUT);
    EXPECT_EQ(b.dropped(PLEXUS_DGRAM_DROP_REASSEMBLY_TIMEOUT), 4u);
    EXPECT_EQ(b.stats().received_messages, 0u);
}

TEST_F(DgramFragments, ReassemblyMemoryIsBoundedAndWhatDoesNotFitIsCounted) {
    auto s = settings();
    s.reassembly_memory = 4096;
    use(s);
    Ep a = open_udp(1), b = open_udp(2);
    const Bytes big = pattern(8 * kPayload, 4);
    ASSERT_EQ(a.send(b.address(), big), PLEXUS_SUCCESS);
    ASSERT_EQ(a.send(b.address(), pattern(3 * kPayload, 5)), PLEXUS_SUCCESS);  // fits
    Bytes got;
    ASSERT_EQ(b.recv(&got, 2000), PLEXUS_SUCCESS);
    EXPECT_EQ(got, pattern(3 * kPayload, 5));
    EXPECT_EQ(b.dropped(PLEXUS_DGRAM_DROP_REASSEMBLY_MEMORY), 8u);  // every fragment of big
}

TEST_F(DgramFragments, MessagesAboveTheMaximumAreRefusedBySenderAndReceiver) {
    auto s = settings();
    s.max_message = 10000;
    use(s);
    Ep a = open_udp(1);
    Ep b = open_udp(2);
    EXPECT_EQ(a.send(b.address(), Bytes(10001)), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(a.send(b.address(), Bytes(10000)), PLEXUS_SUCCESS);
    Bytes got;
    ASSERT_EQ(b.recv(&got, 2000), PLEXUS_SUCCESS);
    EXPECT_EQ(got.size(), 10000u);
}

}  // namespace
