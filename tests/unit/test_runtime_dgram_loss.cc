// Unit tests of loss injection (runtime_dgram_drop_rate, runtime_dgram_drop_seed): about the
// fraction asked for is dropped and counted as injected, the same seed drops the same
// datagrams, another seed others.
#include <gmock/gmock.h>

#include "dgram_test_support.h"

using namespace plexus::test::dgram;

namespace {

constexpr int kMessages = 2000;

// Which of kMessages sent from a fresh sender reach a receiver opened with these parameters.
std::vector<bool> arrivals(double rate, uint64_t seed, uint64_t *injected) {
    plexus::runtime::dgram::Settings settings;
    settings.drop_rate = rate;
    settings.drop_seed = seed;
    ScopedSettings scoped(settings);
    Ep rx = open_udp(9);
    Ep tx = open_udp(1);
    std::vector<bool> got(kMessages, false);
    for (int i = 0; i < kMessages; i += 100) {
        for (int j = i; j < i + 100; ++j) {
            const Bytes m = {static_cast<uint8_t>(j >> 8), static_cast<uint8_t>(j)};
            EXPECT_EQ(tx.send(rx.address(), m), PLEXUS_SUCCESS);
        }
        // Every datagram of the batch is accounted for, delivered or dropped, before the next.
        Bytes m;
        while (rx.recv(&m, 50) == PLEXUS_SUCCESS) got[(m[0] << 8) | m[1]] = true;
    }
    const plexus_dgram_stats_t st = rx.stats();
    *injected = st.dropped[PLEXUS_DGRAM_DROP_INJECTED];
    EXPECT_EQ(st.dropped[PLEXUS_DGRAM_DROP_KERNEL], 0u);
    EXPECT_EQ(st.received_messages + *injected, uint64_t(kMessages));
    return got;
}

TEST(DgramLoss, AboutTheRateIsDroppedAndTheSameSeedDropsTheSameDatagrams) {
    uint64_t n1 = 0, n2 = 0, n3 = 0;
    const std::vector<bool> first = arrivals(0.25, 42, &n1);
    const std::vector<bool> again = arrivals(0.25, 42, &n2);
    const std::vector<bool> other = arrivals(0.25, 43, &n3);
    // 500 expected; the binomial's standard deviation is 19.4, so +-100 is more than 5 of them.
    EXPECT_GT(n1, 400u);
    EXPECT_LT(n1, 600u);
    EXPECT_EQ(n2, n1);
    EXPECT_EQ(again, first);
    EXPECT_NE(other, first);
    EXPECT_GT(n3, 400u);
    EXPECT_LT(n3, 600u);
}

TEST(DgramLoss, RateZeroDropsNothingAndRateOneEverything) {
    uint64_t none = 1, all = 0;
    const std::vector<bool> kept = arrivals(0, 1, &none);
    EXPECT_EQ(none, 0u);
    EXPECT_EQ(std::count(kept.begin(), kept.end(), true), kMessages);
    arrivals(1, 1, &all);
    EXPECT_EQ(all, uint64_t(kMessages));
}

}  // namespace
