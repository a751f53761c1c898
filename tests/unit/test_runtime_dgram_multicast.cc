// Unit tests of the datagram facility's multicast over loopback: group addresses derived from a
// name, several receivers (threads and a forked process) getting every message, leaving, and
// the sender's own copy dropped.
#include <gmock/gmock.h>

#include <sys/wait.h>
#include <unistd.h>

#include <thread>


#include "dgram_test_support.h"

using namespace plexus::test::dgram;
using ::testing::HasSubstr;

namespace {

Bytes group_of(const Ep &ep, const std::string &name) {
    Bytes g(PLEXUS_DGRAM_ADDR_MAX);
    size_t len = g.size();
    EXPECT_EQ(dg().group_address(ep.p, name.data(), name.size(), g.data(), &len), PLEXUS_SUCCESS);
    g.resize(len);
    return g;
}

// Whether multicast loops back on lo here; else why not and what to set.
bool multicast_loops_back(std::string *why) {
    Ep tx = open_udp(100), rx = open_udp(101);
    const Bytes g = group_of(rx, "probe");
    if (dg().join(rx.p, g.data(), g.size()) != PLEXUS_SUCCESS) {
        *why = std::string("joining a group on lo failed: ") + dg().last_error(rx.p) +
               " (try: ip link set lo multicast on; ip route add 224.0.0.0/4 dev lo)";
        return false;
    }
    Bytes got;
    if (tx.send(g, {1}) != PLEXUS_SUCCESS || rx.recv(&got, 500) != PLEXUS_SUCCESS) {
        *why = "multicast sent on lo does not come back (try: ip link set lo multicast on; "
               "ip route add 224.0.0.0/4 dev lo)";
        return false;
    }
    return true;
}

class DgramMulticast : public ::testing::Test {
protected:
    void SetUp() override {
        std::string why;
        if (!multicast_loops_back(&why)) GTEST_SKIP() << why;
    }
};

TEST_F(DgramMulticast, GroupAddressesFollowTheKeyTheLabelAndTheName) {
    Ep a = open_udp(1), b = open_udp(2);
    OpenOptions other_label;
    other_label.label = "other";
    Ep c = open_udp(3, other_label);
    const Bytes g = group_of(a, "comm-7");
    EXPECT_EQ(g.size(), 8u);
    EXPECT_EQ(g[4], 239);  // organisation-local scope
    EXPECT_EQ(g[5] & 0xfc, 192);
    EXPECT_EQ(group_of(b, "comm-7"), g);  // every member derives the same without exchanging it
    EXPECT_NE(group_of(a, "comm-8"), g);
    EXPECT_NE(group_of(c, "comm-7"), g);
}

TEST_F(DgramMulticast, ThreeReceiversInThreadsGetEveryMessageInOrder) {
    constexpr int kReceivers = 3, kMessages = 40;
    Ep tx = open_udp(10);
    std::vector<Ep> rx;
    for (int r = 0; r < kReceivers; ++r) rx.push_back(open_udp(11 + r));
    const Bytes g = group_of(tx, "three");
    for (auto &r : rx) ASSERT_EQ(dg().join(r.p, g.data(), g.size()), PLEXUS_SUCCESS) << dg().last_error(r.p);

    std::vector<std::vector<Bytes>> got(kReceivers);
    std::vector<int> multicast_flags(kReceivers, 0);
    std::vector<std::thread> threads;
    for (int r = 0; r < kReceivers; ++r)
        threads.emplace_back([&, r] {
            plexus_dgram_recv_info_t info{};
            for (int i = 0; i < kMessages; ++i) {
                Bytes m;
                if (rx[r].recv(&m, 3000, &info) != PLEXUS_SUCCESS) return;
                multicast_flags[r] += info.multicast == 1 && info.sender == 10;
                got[r].push_back(std::move(m));
            }
        });
    for (int i = 0; i < kMessages; ++i) ASSERT_EQ(tx.send(g, pattern(100 + i, i)), PLEXUS_SUCCESS);
    for (auto &t : threads) t.join();
    for (int r = 0; r < kReceivers; ++r) {
        ASSERT_EQ(got[r].size(), size_t(kMessages)) << "receiver " << r;
        for (int i = 0; i < kMessages; ++i) EXPECT_EQ(got[r][i], pattern(100 + i, i));
        EXPECT_EQ(multicast_flags[r], kMessages);
        EXPECT_EQ(rx[r].stats().received_messages, uint64_t(kMessages));
    }
    EXPECT_EQ(tx.stats().sent_datagrams, uint64_t(kMessages));  // one send reaches them all
}

TEST_F(DgramMulticast, AForkedProcessInTheGroupGetsLargeMessagesToo) {
    Ep probe = open_udp(20);
    const Bytes g = group_of(probe, "forked");
    int ready[2], done[2];
    ASSERT_EQ(::pipe(ready), 0);
    ASSERT_EQ(::pipe(done), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // The child opens its own endpoint, says it has joined, and checks what arrives.
        int status = 1;
        {
            Ep rx = open_udp(21);
            if (dg().join(rx.p, g.data(), g.size()) == PLEXUS_SUCCESS) {
                char c = 'r';
                (void)!::write(ready[1], &c, 1);
                int good = 0;
                for (int i = 0; i < 5; ++i) {
                    Bytes m;
                    if (rx.recv(&m, 3000) == PLEXUS_SUCCESS && m == pattern(200000 + i, i)) ++good;
                }
                status = good == 5 ? 0 : 2;
            }
        }
        ::_exit(status);
    }
    ::close(ready[1]);
    char c = 0;
    ASSERT_EQ(::read(ready[0], &c, 1), 1);
    for (int i = 0; i < 5; ++i) ASSERT_EQ(probe.send(g, pattern(200000 + i, i)), PLEXUS_SUCCESS);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "the child did not get all 5 messages byte for byte";
    ::close(ready[0]);
    ::close(done[0]);
    ::close(done[1]);
}

TEST_F(DgramMulticast, TheSendersOwnCopyIsDroppedAsSelfAndLeavingStopsDelivery) {
    Ep a = open_udp(30), b = open_udp(31);
    const Bytes g = group_of(a, "self");
    ASSERT_EQ(dg().join(a.p, g.data(), g.size()), PLEXUS_SUCCESS);
    ASSERT_EQ(dg().join(b.p, g.data(), g.size()), PLEXUS_SUCCESS);
    ASSERT_EQ(a.send(g, {7}), PLEXUS_SUCCESS);
    Bytes got;
    ASSERT_EQ(b.recv(&got, 2000), PLEXUS_SUCCESS);
    EXPECT_EQ(a.recv(&got, 100), PLEXUS_ERR_TIMEOUT);
    EXPECT_EQ(a.dropped(PLEXUS_DGRAM_DROP_SELF), 1u);

    ASSERT_EQ(dg().leave(b.p, g.data(), g.size()), PLEXUS_SUCCESS);
    ASSERT_EQ(a.send(g, {8}), PLEXUS_SUCCESS);
    EXPECT_EQ(b.recv(&got, 100), PLEXUS_ERR_TIMEOUT);
    EXPECT_EQ(a.recv(&got, 100), PLEXUS_ERR_TIMEOUT);
    EXPECT_EQ(a.dropped(PLEXUS_DGRAM_DROP_SELF), 2u);  // a is still in the group
}

TEST_F(DgramMulticast, JoinAndLeaveSayWhatIsWrong) {
    Ep a = open_udp(40);
    const Bytes g = group_of(a, "twice");
    ASSERT_EQ(dg().join(a.p, g.data(), g.size()), PLEXUS_SUCCESS);
    EXPECT_EQ(dg().join(a.p, g.data(), g.size()), PLEXUS_ERR_EXISTS);
    const Bytes unicast = a.address();
    EXPECT_EQ(dg().join(a.p, unicast.data(), unicast.size()), PLEXUS_ERR_BAD_PARAM);
    EXPECT_THAT(dg().last_error(a.p), HasSubstr("multicast"));
    const Bytes never = group_of(a, "never joined");
    EXPECT_EQ(dg().leave(a.p, never.data(), never.size()), PLEXUS_ERR_NOT_FOUND);
    EXPECT_EQ(dg().join(a.p, nullptr, 8), PLEXUS_ERR_BAD_PARAM);
}

}  // namespace
