// Unit tests of the progress engine's wait loop: it returns once the condition holds, backs off
// (spin, then yield, then growing sleeps up to the cap) while polls find nothing, starts over on
// progress, honours timeouts, and takes its thresholds from the runtime_progress_* parameters.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "mca/mca_core.h"
#include "runtime/progress.h"

using namespace plexus::runtime;
using ::testing::ElementsAre;
using ::testing::Each;
using ::testing::Le;

namespace {

// Counting fakes for the idle steps: nothing really yields or sleeps.
std::vector<uint32_t> g_sleeps;
int g_yields = 0;
void fake_yield() { ++g_yields; }
void fake_sleep(uint32_t us) { g_sleeps.push_back(us); }

// A callback that reports an event on the polls listed and finishes on the last one.
struct Script {
    int calls = 0;
    int finish_at = 0;
    int event_every = 0;  // 0: no events before finishing
    bool done = false;
    static int poll(void *ctx) {
        auto *s = static_cast<Script *>(ctx);
        ++s->calls;
        if (s->calls == s->finish_at) {
            s->done = true;
            return 1;
        }
        return s->event_every && s->calls % s->event_every == 0 ? 1 : 0;
    }
};

class ProgressWait : public ::testing::Test {
protected:
    void SetUp() override {
        g_sleeps.clear();
        g_yields = 0;
        engine.set_idle_hooks({fake_yield, fake_sleep});
        BackoffPolicy p;
        p.spin_count = 10;
        p.yield_count = 5;
        p.min_sleep_us = 1;
        p.max_sleep_us = 8;
        engine.set_policy(p);
    }
    int wait_for(Script &s, std::optional<std::chrono::nanoseconds> timeout = std::nullopt) {
        engine.add(&Script::poll, &s);
        int rc = engine.wait_until([&] { return s.done; }, timeout);
        engine.remove(&Script::poll, &s);
        return rc;
    }
    ProgressEngine engine;
};

TEST_F(ProgressWait, ReturnsWhenTheCallbackReportsTheCondition) {
    Script s;
    s.finish_at = 5;
    EXPECT_EQ(wait_for(s), PLEXUS_SUCCESS);
    EXPECT_EQ(s.calls, 5);
    EXPECT_EQ(engine.stats().polls, 5u);
}

TEST_F(ProgressWait, AConditionThatHoldsCostsNoPoll) {
    Script s;
    s.done = true;
    EXPECT_EQ(wait_for(s), PLEXUS_SUCCESS);
    EXPECT_EQ(s.calls, 0);
}

TEST_F(ProgressWait, SpinsThenYieldsThenSleepsLongerUpToTheCap) {
    Script s;
    s.finish_at = 40;  // 39 idle polls
    ASSERT_EQ(wait_for(s), PLEXUS_SUCCESS);
    EXPECT_EQ(engine.stats().spins, 10u);
    EXPECT_EQ(engine.stats().yields, 5u);
    EXPECT_EQ(g_yields, 5);
    EXPECT_EQ(engine.stats().sleeps, 24u);
    ASSERT_EQ(g_sleeps.size(), 24u);
    EXPECT_THAT(std::vector<uint32_t>(g_sleeps.begin(), g_sleeps.begin() + 5), ElementsAre(1, 2, 4, 8, 8));
    EXPECT_THAT(g_sleeps, Each(Le(8u)));
}

TEST_F(ProgressWait, ProgressStartsTheBackOffOver) {
    Script s;
    s.event_every = 30;  // idle long enough to sleep, then an event, then idle again
    s.finish_at = 61;
    ASSERT_EQ(wait_for(s), PLEXUS_SUCCESS);
    // Each stretch of 29 idle polls: 10 spins, 5 yields, 14 sleeps starting again at 1 us.
    EXPECT_EQ(engine.stats().spins, 20u);
    EXPECT_EQ(engine.stats().yields, 10u);
    EXPECT_EQ(engine.stats().resets, 2u);
    ASSERT_EQ(g_sleeps.size(), 14u * 2);
    EXPECT_EQ(g_sleeps[0], 1u);
    EXPECT_EQ(g_sleeps[14], 1u);  // after the first event
    EXPECT_EQ(g_sleeps[13], 8u);
}

// A wait that has slept long_after_us without an event is a long one: its cap rises.
TEST_F(ProgressWait, ALongWaitSleepsUpToTheHigherCap) {
    BackoffPolicy p = engine.policy();
    p.long_sleep_us = 64;
    p.long_after_us = 40;
    engine.set_policy(p);
    Script s;
    s.finish_at = 40;  // 39 idle polls: 10 spins, 5 yields, 24 sleeps
    ASSERT_EQ(wait_for(s), PLEXUS_SUCCESS);
    ASSERT_EQ(g_sleeps.size(), 24u);
    // 1+2+4+8+8+8+8+8 = 47 us asleep at the usual cap of 8, then doubling on up to 64.
    EXPECT_THAT(std::vector<uint32_t>(g_sleeps.begin(), g_sleeps.begin() + 12),
                ElementsAre(1, 2, 4, 8, 8, 8, 8, 8, 16, 32, 64, 64));
    EXPECT_THAT(g_sleeps, Each(Le(64u)));
}

// Events closer together than long_after_us (the steps of an exchange) keep the usual cap.
TEST_F(ProgressWait, ShortWaitsBetweenEventsKeepTheUsualCap) {
    BackoffPolicy p = engine.policy();
    p.long_sleep_us = 64;
    p.long_after_us = 200;  // each stretch below sleeps 1+2+4+8*11 = 95 us
    engine.set_policy(p);
    Script s;
    s.event_every = 30;
    s.finish_at = 91;
    ASSERT_EQ(wait_for(s), PLEXUS_SUCCESS);
    EXPECT_EQ(engine.stats().resets, 3u);
    EXPECT_THAT(g_sleeps, Each(Le(8u)));
}

TEST_F(ProgressWait, PureSpinningNeverGivesTheCpuAway) {
    engine.set_policy(BackoffPolicy::pure_spin());
    Script s;
    s.finish_at = 500;
    ASSERT_EQ(wait_for(s), PLEXUS_SUCCESS);
    EXPECT_EQ(engine.stats().spins, 499u);
    EXPECT_EQ(g_yields, 0);
    EXPECT_TRUE(g_sleeps.empty());
}

TEST_F(ProgressWait, AnOversubscribedNodeYieldsAtTheFirstIdlePoll) {
    engine.set_policy(engine.policy().yielding_at_once());
    Script s;
    s.finish_at = 4;
    ASSERT_EQ(wait_for(s), PLEXUS_SUCCESS);
    EXPECT_EQ(engine.stats().spins, 0u);
    EXPECT_EQ(g_yields, 3);
    EXPECT_EQ(engine.policy().yield_count, 5u) << "only the spinning goes";
}

TEST_F(ProgressWait, AnOversubscribedNodeSleepsAfterAFewYields) {
    BackoffPolicy p = engine.policy();
    p.yield_count = 1000;
    engine.set_policy(p.for_oversubscribed_node(false));
    Script s;
    s.finish_at = 20;
    ASSERT_EQ(wait_for(s), PLEXUS_SUCCESS);
    EXPECT_EQ(engine.stats().spins, 0u);
    EXPECT_EQ(g_yields, static_cast<int>(BackoffPolicy::kOversubscribedYields));
    EXPECT_EQ(g_sleeps.size(), 19u - BackoffPolicy::kOversubscribedYields);
}

TEST_F(ProgressWait, AnOversubscribedNodeKeepsAYieldCountTheUserChose) {
    BackoffPolicy p = engine.policy();
    p.yield_count = 1000;
    const BackoffPolicy q = p.for_oversubscribed_node(true);
    EXPECT_EQ(q.spin_count, 0u);
    EXPECT_EQ(q.yield_count, 1000u);
    EXPECT_EQ(p.for_oversubscribed_node(false).yield_count, BackoffPolicy::kOversubscribedYields);
}

TEST_F(ProgressWait, ZeroMaxSleepOnlyYields) {
    BackoffPolicy p = engine.policy();
    p.max_sleep_us = 0;
    engine.set_policy(p);
    Script s;
    s.finish_at = 100;
    ASSERT_EQ(wait_for(s), PLEXUS_SUCCESS);
    EXPECT_EQ(g_yields, 99 - 10);
    EXPECT_TRUE(g_sleeps.empty());
}

TEST_F(ProgressWait, TimesOutWhenTheConditionNeverHolds) {
    Script s;  // never finishes
    EXPECT_EQ(wait_for(s, std::chrono::milliseconds(2)), PLEXUS_ERR_TIMEOUT);
    EXPECT_GT(s.calls, 0);
}

TEST_F(ProgressWait, WaitTakesAnythingWithComplete) {
    struct Request {
        const Script *s;
        bool complete() const { return s->done; }
    };
    Script s;
    s.finish_at = 3;
    engine.add(&Script::poll, &s);
    EXPECT_EQ(engine.wait(Request{&s}), PLEXUS_SUCCESS);
    EXPECT_EQ(s.calls, 3);
}

TEST(ProgressParams, TheCoreRegistersThemAndAppliesThemToItsEngine) {
    plexus::mca::CoreOptions o;
    o.search_default_folder = false;
    o.sources.environment = {{"PLEXUS_MCA_runtime_progress_spin_count", "7"},
                             {"PLEXUS_MCA_runtime_progress_max_sleep_us", "250"}};
    plexus::mca::McaCore core(std::move(o));
    ASSERT_TRUE(core.init());
    EXPECT_EQ(core.progress().policy().spin_count, 7u);
    EXPECT_EQ(core.progress().policy().max_sleep_us, 250u);
    EXPECT_EQ(core.progress().policy().yield_count, BackoffPolicy{}.yield_count);
    for (const char *name : {"runtime_progress_spin_count", "runtime_progress_yield_count",
                             "runtime_progress_min_sleep_us", "runtime_progress_max_sleep_us",
                             "runtime_base_verbose", "runtime_modex_timeout_ms"}) {
        const plexus::mca::Param *p = core.params().find(name);
        ASSERT_NE(p, nullptr) << name;
        EXPECT_EQ(p->spec.framework, "runtime");
        EXPECT_EQ(p->spec.component, "base");
        EXPECT_FALSE(p->spec.help.empty());
    }
    EXPECT_EQ(core.params().find("runtime_progress_spin_count")->origin,
              "env PLEXUS_MCA_runtime_progress_spin_count");
}

}  // namespace
