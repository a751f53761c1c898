// Selection through the whole MCA core, with the good test components: ranking, ties, priority
// overrides, include/exclude lists (and the files they keep from being loaded), the framework
// opened at first use, policies, and what the user is told.
#include <gtest/gtest.h>

#include "mca/mca_core.h"
#include "base/output.h"
#include "plugin_paths.h"

using namespace plexus::mca;

namespace {

class SelectionTest : public ::testing::Test {
protected:
    void SetUp() override {
        reset_output_state();
        set_output_sink([this](const std::string &line) { lines.push_back(line); });
    }
    void TearDown() override { set_output_sink(nullptr); }

    // A core seeing only the test components, with the given environment and command line.
    std::unique_ptr<McaCore> core(std::vector<std::pair<std::string, std::string>> env,
                                  std::vector<std::pair<std::string, std::string>> cli = {},
                                  const std::string &path = plexus::test::good_plugin_dir(),
                                  bool load_all = false) {
        CoreOptions o;
        o.search_default_folder = false;
        o.load_all_components = load_all;
        o.sources.environment = std::move(env);
        o.sources.environment.emplace_back("PLEXUS_MCA_mca_base_component_path", path);
        o.sources.cli = std::move(cli);
        auto c = std::make_unique<McaCore>(std::move(o));
        ok = c->init();
        return c;
    }

    static std::vector<std::string> chosen(const plexus::mca::Selection &s) {
        std::vector<std::string> out;
        for (size_t i : s.selected) out.push_back(s.at(i).component->name);
        return out;
    }

    bool said(const std::string &text) const {
        for (const auto &l : lines)
            if (l.find(text) != std::string::npos) return true;
        return false;
    }

    std::vector<std::string> lines;
    bool ok = false;
};

using Names = std::vector<std::string>;

}  // namespace

TEST_F(SelectionTest, TiesAreBrokenByName) {
    auto c = core({});
    ASSERT_TRUE(ok);
    EXPECT_EQ(chosen(c->select("btl", nullptr)), (Names{"good", "other"}));
}

TEST_F(SelectionTest, HigherQueryPriorityRanksFirst) {
    auto c = core({{"PLEXUS_MCA_btl_other_query_priority", "31"}});
    EXPECT_EQ(chosen(c->select("btl", nullptr)), (Names{"other", "good"}));
}

TEST_F(SelectionTest, PriorityParameterOverridesQuery) {
    auto c = core({{"PLEXUS_MCA_btl_other_query_priority", "80"}}, {{"btl_good_priority", "90"}});
    auto s = c->select("btl", nullptr);
    EXPECT_EQ(chosen(s), (Names{"good", "other"}));
    EXPECT_EQ(s.at(s.selected[0]).priority, 90);
    EXPECT_EQ(s.at(s.selected[0]).query_priority, 30);
    EXPECT_NE(s.at(s.selected[0]).reason.find("btl_good_priority from cli"), std::string::npos);
}

TEST_F(SelectionTest, UnusableComponentsCarryTheirReason) {
    auto c = core({});
    auto s = c->select("btl", nullptr);
    const Decision *nodev = nullptr;
    for (const auto &d : s.decisions)
        if (d.component->name == "nodev") nodev = &d;
    ASSERT_NE(nodev, nullptr);
    EXPECT_FALSE(nodev->usable);
    EXPECT_NE(nodev->reason.find("no plexus-test device present"), std::string::npos);
}

TEST_F(SelectionTest, DeclinedQueryIsNotSelected) {
    auto c = core({{"PLEXUS_MCA_btl_good_usable", "no"}});
    auto s = c->select("btl", nullptr);
    EXPECT_EQ(chosen(s), (Names{"other"}));
    EXPECT_NE(s.decisions[0].reason.find("declined: btl_good_usable is false"), std::string::npos);
}

TEST_F(SelectionTest, IncludeListLoadsOnlyTheNamedFiles) {
    auto c = core({{"PLEXUS_MCA_btl", "other"}, {"PLEXUS_MCA_btl_base_verbose", "1"}});
    ASSERT_TRUE(ok);
    EXPECT_EQ(chosen(c->select("btl", nullptr)), (Names{"other"}));
    EXPECT_EQ(c->repository().find("btl", "good"), nullptr);
    EXPECT_EQ(c->repository().find("btl", "nodev"), nullptr);
    ASSERT_NE(c->repository().deferred_for("btl", "good"), nullptr);
    EXPECT_EQ(c->repository().deferred_for("btl", "good")->path,
              plexus::test::good_plugin_dir() + "/plexus_btl_good.so");
    EXPECT_EQ(c->repository().find("btl", "other")->state, ComponentRecord::State::Opened);
    EXPECT_TRUE(said("btl: good: not loaded, not in btl=other"));
    // The other frameworks' lists are empty: their components are loaded and opened.
    EXPECT_EQ(c->repository().find("coll", "good")->state, ComponentRecord::State::Opened);
}

TEST_F(SelectionTest, ExcludedComponentsAreNeverLoaded) {
    auto c = core({{"PLEXUS_MCA_btl", "^good,nodev"}});
    ASSERT_TRUE(ok);
    EXPECT_EQ(chosen(c->select("btl", nullptr)), (Names{"other"}));
    EXPECT_EQ(c->repository().find("btl", "good"), nullptr);
    EXPECT_NE(c->repository().deferred_for("btl", "nodev"), nullptr);
    EXPECT_EQ(c->repository().find("btl", "other")->state, ComponentRecord::State::Opened);
}

TEST_F(SelectionTest, ParametersOfComponentsNotLoadedAreStillKnownAndChecked) {
    // A valid parameter of an excluded component: no warning, the run goes on.
    auto c = core({{"PLEXUS_MCA_btl", "other"}, {"PLEXUS_MCA_btl_good_usable", "no"}});
    EXPECT_TRUE(ok);
    EXPECT_FALSE(said("is not a known parameter"));
    ASSERT_NE(c->params().find("btl_good_usable"), nullptr);
    // Loaded to register its parameters, never opened: the list still leaves it out.
    EXPECT_EQ(c->repository().find("btl", "good")->state, ComponentRecord::State::Loaded);
    EXPECT_EQ(chosen(c->select("btl", nullptr)), (Names{"other"}));
    lines.clear();
    // A typo is still named, with the closest name among everything installed.
    auto typo = core({{"PLEXUS_MCA_btl", "other"}, {"PLEXUS_MCA_btl_good_query_prority", "5"}});
    EXPECT_TRUE(said("'btl_good_query_prority' (env PLEXUS_MCA_btl_good_query_prority) is not a known "
                     "parameter; did you mean 'btl_good_query_priority'?"));
    // A bad value of an excluded component's parameter still fails init, naming it.
    auto bad = core({{"PLEXUS_MCA_btl", "other"}, {"PLEXUS_MCA_btl_good_query_priority", "300"}});
    EXPECT_FALSE(ok);
    ASSERT_FALSE(bad->errors().empty());
    EXPECT_NE(bad->errors()[0].find("btl_good_query_priority"), std::string::npos) << bad->errors()[0];
}

TEST_F(SelectionTest, WithoutSettingsOfThemNothingExcludedIsLoaded) {
    auto c = core({{"PLEXUS_MCA_btl", "other"}, {"PLEXUS_MCA_btl_other_query_priority", "40"}});
    ASSERT_TRUE(ok);
    EXPECT_EQ(c->repository().find("btl", "good"), nullptr);
    EXPECT_FALSE(said("loading the"));
}

TEST_F(SelectionTest, OscIsLoadedAndOpenedAtItsFirstSelection) {
    auto c = core({{"PLEXUS_MCA_osc_base_verbose", "1"}});
    ASSERT_TRUE(ok);
    EXPECT_EQ(c->repository().find("osc", "good"), nullptr);
    EXPECT_NE(c->repository().deferred_for("osc", "good"), nullptr);
    EXPECT_TRUE(said("osc: good: loaded when osc is first used"));
    EXPECT_EQ(c->framework("osc")->members.size(), 0u);
    auto s = c->select("osc", nullptr);  // no window scope: the component declines
    EXPECT_TRUE(s.errors.empty());
    ComponentRecord *good = c->repository().find("osc", "good");
    ASSERT_NE(good, nullptr);
    EXPECT_EQ(good->state, ComponentRecord::State::Opened);
    ASSERT_EQ(s.decisions.size(), 1u);
    EXPECT_NE(s.decisions[0].reason.find("declined: no window scope"), std::string::npos) << s.decisions[0].reason;
    EXPECT_EQ(c->repository().deferred_for("osc", "good"), nullptr);
}

TEST_F(SelectionTest, RequestingAMissingOscComponentFailsInitLikeAnyOther) {
    auto c = core({{"PLEXUS_MCA_osc", "godo"}});
    EXPECT_FALSE(ok);
    ASSERT_EQ(c->errors().size(), 1u);
    EXPECT_NE(c->errors()[0].find("there is no osc component named 'godo' (did you mean 'good'?)"),
              std::string::npos)
        << c->errors()[0];
    EXPECT_NE(c->errors()[0].find("good (not loaded yet)"), std::string::npos) << c->errors()[0];
}

TEST_F(SelectionTest, LoadAllLoadsAndOpensEverythingAtInit) {
    auto c = core({{"PLEXUS_MCA_btl", "other"}}, {}, plexus::test::good_plugin_dir(), true);
    ASSERT_TRUE(ok);
    EXPECT_TRUE(c->repository().deferred().empty());
    EXPECT_EQ(c->repository().find("btl", "good")->state, ComponentRecord::State::Loaded);
    EXPECT_EQ(c->repository().find("osc", "good")->state, ComponentRecord::State::Opened);
    auto by_param = core({{"PLEXUS_MCA_btl", "other"}, {"PLEXUS_MCA_mca_base_load_all_components", "1"}});
    ASSERT_TRUE(ok);
    EXPECT_TRUE(by_param->repository().deferred().empty());
    EXPECT_EQ(by_param->repository().find("osc", "good")->state, ComponentRecord::State::Opened);
}

TEST_F(SelectionTest, ABrokenPluginIsOpenedOnlyWhenItsListAdmitsIt) {
    const std::string path = plexus::test::good_plugin_dir() + ":" + plexus::test::broken_plugin_dir();
    auto excluded = core({{"PLEXUS_MCA_btl", "^undefsym,abinext"}, {"PLEXUS_MCA_mca_base_show_load_errors", "1"}},
                         {}, path);
    EXPECT_TRUE(ok);
    EXPECT_EQ(excluded->repository().failure_for("btl", "undefsym"), nullptr);
    EXPECT_NE(excluded->repository().deferred_for("btl", "undefsym"), nullptr);
    EXPECT_FALSE(said("plexus_btl_undefsym.so"));
    EXPECT_EQ(chosen(excluded->select("btl", nullptr)), (Names{"good", "other"}));
    lines.clear();
    auto requested = core({{"PLEXUS_MCA_btl", "undefsym,good"}}, {}, path);
    EXPECT_FALSE(ok);
    ASSERT_FALSE(requested->errors().empty());
    const std::string &e = requested->errors()[0];
    EXPECT_NE(e.find("plexus_btl_undefsym.so"), std::string::npos) << e;
    EXPECT_NE(e.find("undefined symbol: plexus_test_symbol_that_does_not_exist"), std::string::npos) << e;
}

TEST_F(SelectionTest, RequestingAMissingComponentIsFatalAndListsTheAvailable) {
    auto c = core({{"PLEXUS_MCA_btl", "bogus"}});
    EXPECT_FALSE(ok);
    ASSERT_EQ(c->errors().size(), 1u);
    const std::string &e = c->errors()[0];
    EXPECT_NE(e.find("there is no btl component named 'bogus'"), std::string::npos) << e;
    EXPECT_NE(e.find("Available btl components: good (usable), nodev (unusable: no plexus-test "
                     "device present"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("other (usable)"), std::string::npos) << e;
    EXPECT_TRUE(said("plexus error: btl: btl=bogus"));
}

TEST_F(SelectionTest, ExcludingAMissingComponentWarnsOnceWithASuggestion) {
    auto c = core({{"PLEXUS_MCA_btl", "^godo"}});
    EXPECT_TRUE(ok);
    EXPECT_TRUE(said("plexus warning: btl: btl=^godo"));
    EXPECT_TRUE(said("did you mean 'good'?"));
    EXPECT_EQ(chosen(c->select("btl", nullptr)), (Names{"good", "other"}));
}

TEST_F(SelectionTest, RequestingAnUnusableComponentIsAnError) {
    auto c = core({{"PLEXUS_MCA_btl", "nodev,good"}});
    auto s = c->select("btl", nullptr);
    EXPECT_EQ(chosen(s), (Names{"good"}));
    ASSERT_EQ(s.errors.size(), 1u);
    EXPECT_NE(s.errors[0].find("requests btl_nodev, which cannot be used"), std::string::npos);
}

TEST_F(SelectionTest, BadListGrammarIsAnInitError) {
    auto c = core({{"PLEXUS_MCA_coll", "good,^other"}});
    EXPECT_FALSE(ok);
    ASSERT_FALSE(c->errors().empty());
    EXPECT_NE(c->errors()[0].find("'^' may only stand once"), std::string::npos);
}

TEST_F(SelectionTest, SingleSelectTakesOnlyTheWinner) {
    auto c = core({{"PLEXUS_MCA_btl_other_query_priority", "45"}});
    // The policy is the framework's; apply dpm's to the btl components to have candidates.
    Framework fw = *c->framework("btl");
    fw.spec = find_framework_spec("dpm");
    auto s = select_components(fw, c->params(), nullptr);
    EXPECT_EQ(chosen(s), (Names{"other"}));
    bool good_lost = false;
    for (const auto &d : s.decisions)
        good_lost |= d.component->name == "good" && !d.selected &&
                     d.reason.find("lower than other (45)") != std::string::npos;
    EXPECT_TRUE(good_lost);
}

TEST_F(SelectionTest, ZeroOrOneMayEndWithNothing) {
    auto c = core({{"PLEXUS_MCA_reconf_good_usable", "false"}});
    auto s = c->select("reconf", nullptr);
    EXPECT_TRUE(s.selected.empty());
    EXPECT_TRUE(s.errors.empty());
}

TEST_F(SelectionTest, VerboseTracesEveryDecision) {
    auto c = core({{"PLEXUS_MCA_btl_base_verbose", "1"}});
    lines.clear();
    c->select("btl", nullptr);
    EXPECT_TRUE(said("btl: good: selected, priority 30"));
    EXPECT_TRUE(said("btl: other: selected, priority 30"));
    EXPECT_TRUE(said("btl: nodev: not selected, unusable: no plexus-test device present"));
    lines.clear();
    auto quiet = core({});
    quiet->select("btl", nullptr);
    EXPECT_FALSE(said("selected"));
}

TEST_F(SelectionTest, TypoInAParameterNameGetsTheClosestName) {
    auto c = core({{"PLEXUS_MCA_btl_good_query_prority", "5"}});
    EXPECT_TRUE(ok);
    EXPECT_TRUE(said("'btl_good_query_prority' (env PLEXUS_MCA_btl_good_query_prority) is not a known "
                     "parameter; did you mean 'btl_good_query_priority'?"));
}

TEST_F(SelectionTest, BadValueIsAnInitErrorNamingParameterValueAndAccepted) {
    auto c = core({{"PLEXUS_MCA_btl_good_query_priority", "300"}});
    EXPECT_FALSE(ok);
    ASSERT_FALSE(c->errors().empty());
    const std::string &e = c->errors()[0];
    EXPECT_NE(e.find("btl_good_query_priority"), std::string::npos) << e;
    EXPECT_NE(e.find("'300'"), std::string::npos) << e;
    EXPECT_NE(e.find("from 0 to 100"), std::string::npos) << e;
}

TEST_F(SelectionTest, BothLoadersSelectTheSame) {
    for (const std::string &loader : loader_names()) {
        auto c = core({{"PLEXUS_MCA_mca_base_loader", loader}});
        ASSERT_TRUE(ok) << loader;
        EXPECT_EQ(c->loader_name(), loader);
        EXPECT_EQ(chosen(c->select("btl", nullptr)), (Names{"good", "other"})) << loader;
        EXPECT_EQ(chosen(c->select("coll", nullptr)), (Names{"good"})) << loader;
    }
}

TEST_F(SelectionTest, PerObjectFallsBackToTheNextWhenTheWinnerRefuses) {
    auto c = core({{"PLEXUS_MCA_btl_other_query_priority", "45"}});
    Framework fw = *c->framework("btl");
    fw.spec = find_framework_spec("osc");
    auto s = select_components(fw, c->params(), nullptr);
    ASSERT_EQ(chosen(s), (Names{"other", "good"}));
    std::vector<std::string> tried, refusals;
    long winner = first_accepting(
        s,
        [&](const Decision &d) {
            tried.push_back(d.component->name);
            return d.component->name == "other" ? PLEXUS_ERR_OUT_OF_RESOURCE : PLEXUS_SUCCESS;
        },
        &refusals);
    ASSERT_GE(winner, 0);
    EXPECT_EQ(s.at(static_cast<size_t>(winner)).component->name, "good");
    EXPECT_EQ(tried, (Names{"other", "good"}));
    ASSERT_EQ(refusals.size(), 1u);
    EXPECT_NE(refusals[0].find("other refused (-4)"), std::string::npos);
    EXPECT_EQ(first_accepting(s, [](const Decision &) { return PLEXUS_ERROR; }, &refusals), -1);
}
