// The flag wait (flag_wait.h) as a unit: the order of its steps with counting fakes (spin, progress
// polls, sleeps doubling to the cap, a poll after each sleep, the sleeper registered only while
// asleep), and the real futex between forked processes: a writer's publish wakes a process asleep
// on the flag, and barriers whose every wait sleeps never lose a wake-up (a lost one would sleep
// for ten minutes, and the 60 s alarm fails the test).
#include <gtest/gtest.h>

#include <sched.h>

#include <cstdint>
#include <vector>


#include <plexus/sdk/shared_word.hpp>

#include "components/coll_shm_inter/flag_wait.h"
#include "components/coll_shm_inter/shm_engine.h"
#include "forked_group.h"

using namespace plexus::coll_shm_inter;
using shm_test::run_forked;
using shm_test::SharedMap;

namespace {

// ---- counting fakes: nothing really sleeps

struct Fake {
    uint64_t word = 0;
    uint32_t sleepers = 0;
    int polls = 0;
    int poll_untils = 0;
    std::vector<uint32_t> sleeps;
    std::vector<uint32_t> sleepers_seen;  // *sleepers during each sleep
    std::vector<uint32_t> values_seen;    // the value each sleep was told it saw
    int set_at_poll = -1;                 // the poll (1-based) that finds the flag set
    int set_at_sleep = -1;                // the sleep (1-based) during which the flag is set
};
Fake *g_fake = nullptr;

bool fake_poll(void *, const uint64_t *word, uint64_t target) {
    if (++g_fake->polls == g_fake->set_at_poll) g_fake->word = target;
    return *word >= target;
}
void fake_poll_until(void *, const uint64_t *word, uint64_t target) {
    ++g_fake->poll_untils;
    g_fake->word = target;
    (void)word;
}
void fake_sleep(const uint64_t *, uint32_t seen, uint32_t us) {
    g_fake->sleeps.push_back(us);
    g_fake->sleepers_seen.push_back(g_fake->sleepers);
    g_fake->values_seen.push_back(seen);
    if (static_cast<int>(g_fake->sleeps.size()) == g_fake->set_at_sleep) g_fake->word = 7;
}

class FlagWaitSteps : public ::testing::Test {
protected:
    void SetUp() override { g_fake = &fake_; }
    void TearDown() override { g_fake = nullptr; }
    void wait(const FlagWaitPolicy &p, uint64_t target) {
        const FlagWaitHooks hooks{fake_poll, fake_poll_until, fake_sleep, nullptr};
        wait_flag(p, hooks, &fake_.word, target, &fake_.sleepers, &stats_);
    }
    Fake fake_;
    FlagWaitStats stats_;
};

TEST_F(FlagWaitSteps, AFlagAlreadySetCostsNoPollAndNoSleep) {
    fake_.word = 5;
    FlagWaitPolicy p;
    p.spin = 3;
    wait(p, 5);
    EXPECT_EQ(fake_.polls, 0);
    EXPECT_TRUE(fake_.sleeps.empty());
}

TEST_F(FlagWaitSteps, WithoutSleepingItIsTheProgressEnginesWaitAlone) {
    FlagWaitPolicy p;
    p.sleep = false;
    wait(p, 4);
    EXPECT_EQ(fake_.poll_untils, 1);
    EXPECT_EQ(fake_.polls, 0);
    EXPECT_TRUE(fake_.sleeps.empty());
}

TEST_F(FlagWaitSteps, AFlagSetWithinThePollsNeverSleeps) {
    FlagWaitPolicy p;
    p.polls = 16;
    fake_.set_at_poll = 16;
    wait(p, 3);
    EXPECT_EQ(fake_.polls, 16);
    EXPECT_TRUE(fake_.sleeps.empty());
    EXPECT_EQ(stats_.sleeps, 0u);
}

TEST_F(FlagWaitSteps, SleepsDoubleUpToTheCapWithAPollAfterEach) {
    FlagWaitPolicy p;
    p.polls = 2;
    p.min_sleep_us = 50;
    p.max_sleep_us = 300;
    fake_.word = 6;  // one short of the target: every sleep is told it saw 6
    fake_.set_at_sleep = 6;
    wait(p, 7);
    EXPECT_EQ(fake_.sleeps, (std::vector<uint32_t>{50, 100, 200, 300, 300, 300}));
    EXPECT_EQ(fake_.polls, 2 + 6);  // the first polls, then one after each sleep
    EXPECT_EQ(stats_.sleeps, 6u);
    EXPECT_EQ(stats_.polls, 8u);
    EXPECT_EQ(fake_.values_seen, std::vector<uint32_t>(6, 6));
}

TEST_F(FlagWaitSteps, TheSleeperIsCountedOnlyWhileAsleep) {
    FlagWaitPolicy p;
    p.polls = 0;
    fake_.set_at_sleep = 3;
    wait(p, 7);
    EXPECT_EQ(fake_.sleepers_seen, (std::vector<uint32_t>{1, 1, 1}));
    EXPECT_EQ(fake_.sleepers, 0u);
}

TEST_F(FlagWaitSteps, NoPollsMeansSleepingAtOnceAndAMinimumOfOneMicrosecond) {
    FlagWaitPolicy p;
    p.polls = 0;
    p.min_sleep_us = 0;
    p.max_sleep_us = 0;
    fake_.set_at_sleep = 2;
    wait(p, 7);
    EXPECT_EQ(fake_.sleeps, (std::vector<uint32_t>{1, 1}));
    EXPECT_EQ(fake_.polls, 2);
}

TEST(FlagWaitPolls, AutomaticByCrowdednessUnlessSet) {
    EXPECT_EQ(flag_wait_polls(-1, true), kWaitPollsCrowded);
    EXPECT_EQ(flag_wait_polls(-1, false), kWaitPollsAlone);
    EXPECT_LT(kWaitPollsCrowded, kWaitPollsAlone);
    EXPECT_EQ(flag_wait_polls(0, true), 0);
    EXPECT_EQ(flag_wait_polls(0, false), 0);
    EXPECT_EQ(flag_wait_polls(37, false), 37);
    EXPECT_EQ(flag_wait_polls(37, true), 37);
}

// ---- the real futex between processes

// A wait with no progress engine: polls read the flag, sleeps are the real futex ones, and a
// sleep lasts up to ten minutes, so only the writer's wake-up ends it in time.
bool load_poll(void *, const uint64_t *word, uint64_t target) {
    return plexus::sdk::load_acquire(*const_cast<uint64_t *>(word)) >= target;
}
void load_poll_until(void *ctx, const uint64_t *word, uint64_t target) {
    while (!load_poll(ctx, word, target)) sched_yield();
}
FlagWaitPolicy sleeping_at_once() {
    FlagWaitPolicy p;
    p.polls = 0;
    p.min_sleep_us = p.max_sleep_us = 600u * 1000 * 1000;
    return p;
}
void futex_wait_fn(void *, const uint64_t *word, uint64_t target, uint32_t *sleepers) {
    const FlagWaitHooks hooks{load_poll, load_poll_until, futex_sleep_on, nullptr};
    wait_flag(sleeping_at_once(), hooks, word, target, sleepers);
}

TEST(FlagWaitFutex, TheWritersPublishWakesAProcessAsleepOnTheFlag) {
    SharedMap map(4096);
    ASSERT_NE(map.base(), nullptr);
    auto *word = reinterpret_cast<uint64_t *>(map.base());
    auto *sleepers = reinterpret_cast<uint32_t *>(map.base() + 64);
    run_forked(2, [&](int rank) {
        if (rank == 1) {
            FlagWaitStats st;
            const FlagWaitHooks hooks{load_poll, load_poll_until, futex_sleep_on, nullptr};
            wait_flag(sleeping_at_once(), hooks, word, 1, sleepers, &st);
            return st.sleeps >= 1 && *word == 1 ? 0 : 1;
        }
        // Publish once the other process has registered as a sleeper (it may not be in the
        // kernel yet: then the futex sees the new value and does not sleep).
        while (plexus::sdk::load_acquire(*sleepers) == 0) sched_yield();
        publish_flag(word, 1, sleepers);
        return 0;
    });
    EXPECT_EQ(*sleepers, 0u);
}

TEST(FlagWaitFutex, BarriersWhoseEveryWaitSleepsLoseNoWakeUp) {
    for (int n : {2, 3, 5}) {
        for (bool flat : {true, false}) {
            const Layout layout = make_layout(n, 64);
            SharedMap map(layout.total_bytes() + 4096);
            ASSERT_NE(map.base(), nullptr);
            auto *arrived = reinterpret_cast<uint64_t *>(map.base() + layout.total_bytes());
            run_forked(n, [&](int rank) {
                std::vector<int> order(static_cast<size_t>(n));
                for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
                Engine e(map.base(), layout, rank, binomial_tree(order),
                         Waiter{futex_wait_fn, nullptr}, SingleCopy{}, flat ? 64 : 0);
                for (uint64_t round = 1; round <= 300; ++round) {
                    __atomic_fetch_add(arrived, 1, __ATOMIC_SEQ_CST);
                    e.barrier();
                    // Nobody leaves before everyone of this round arrived.
                    if (__atomic_load_n(arrived, __ATOMIC_SEQ_CST) <
                        round * static_cast<uint64_t>(n))
                        return 1;
                }
                return 0;
            });
            if (HasFailure()) return;
        }
    }
}

}  // namespace
