// The framework table is the one list of frameworks: what the descriptor check accepts, what the
// repository parses from file names, what plexus_info lists and what a misspelt name is told all
// come from it.
#include <gmock/gmock.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <plexus/btl.h>
#include <plexus/coll.h>
#include <plexus/dpm.h>
#include <plexus/osc.h>
#include <plexus/reconf.h>

#include "mca/component_repository.h"
#include "mca/descriptor_check.h"
#include "mca/framework_table.h"
#include "mca/mca_core.h"
#include "base/output.h"
#include "good_plugin_core.h"
#include "plugin_paths.h"
#include "plexus_info/model.h"

namespace plexus::mca {
namespace {

using ::testing::HasSubstr;

int fake_open(const plexus_host_api_t *, plexus_reason_t *) { return PLEXUS_SUCCESS; }
int fake_close() { return PLEXUS_SUCCESS; }
int fake_query(const void *, plexus_query_result_t *) { return PLEXUS_SUCCESS; }

plexus_component_t descriptor_for(const FrameworkSpec &spec) {
    plexus_component_t d{PLEXUS_COMPONENT_INIT(btl, 0, 0, demo, 1, 0, 0),
                         "plexus-demo", "BSD-3-Clause", "demo", nullptr, fake_open, fake_close,
                         fake_query};
    d.framework = spec.name;
    d.framework_major = spec.version.major;
    d.framework_minor = spec.version.minor;
    return d;
}

TEST(FrameworkTable, NamesTheFiveInOrder) {
    std::vector<std::string> names;
    for (const auto &spec : framework_table()) names.emplace_back(spec.name);
    EXPECT_THAT(names, ::testing::ElementsAre("btl", "coll", "osc", "dpm", "reconf"));
    EXPECT_EQ(framework_name_list("|"), "btl|coll|osc|dpm|reconf");
}

TEST(FrameworkTable, VersionsAreTheHeaders) {
    auto expect = [](const char *fw, unsigned major, unsigned minor) {
        const FrameworkSpec *spec = find_framework_spec(fw);
        ASSERT_NE(spec, nullptr) << fw;
        EXPECT_EQ(spec->version.major, major) << fw;
        EXPECT_EQ(spec->version.minor, minor) << fw;
    };
    expect("btl", PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR);
    expect("coll", PLEXUS_COLL_MAJOR, PLEXUS_COLL_MINOR);
    expect("osc", PLEXUS_OSC_MAJOR, PLEXUS_OSC_MINOR);
    expect("dpm", PLEXUS_DPM_MAJOR, PLEXUS_DPM_MINOR);
    expect("reconf", PLEXUS_RECONF_MAJOR, PLEXUS_RECONF_MINOR);
    EXPECT_EQ(find_framework_spec("pml"), nullptr);
    EXPECT_EQ(find_framework_spec(""), nullptr);
}

TEST(FrameworkTable, PoliciesAndScopesAreTheFrameworks) {
    EXPECT_EQ(find_framework_spec("btl")->policy, SelectPolicy::MultiSelect);
    EXPECT_EQ(find_framework_spec("coll")->scope, QueryScope::Communicator);
    EXPECT_EQ(find_framework_spec("osc")->scope, QueryScope::Window);
    EXPECT_EQ(find_framework_spec("osc")->policy, SelectPolicy::PerScope);
    EXPECT_EQ(find_framework_spec("dpm")->policy, SelectPolicy::SingleSelect);
    EXPECT_EQ(find_framework_spec("reconf")->policy, SelectPolicy::ZeroOrOne);
    EXPECT_EQ(find_framework_spec("reconf")->scope, QueryScope::Process);
}

TEST(FrameworkTable, EveryFrameworkIsAcceptedAtItsVersionAndNoOther) {
    for (const auto &spec : framework_table()) {
        auto d = descriptor_for(spec);
        EXPECT_EQ(check_descriptor(&d, spec.name, "demo"), std::nullopt) << spec.name;
        d.framework_major = static_cast<uint16_t>(spec.version.major + 1);
        auto problem = check_descriptor(&d, spec.name, "demo");
        ASSERT_TRUE(problem) << spec.name;
        EXPECT_THAT(problem->cause, HasSubstr(std::string(spec.name) + " interface")) << spec.name;
        d = descriptor_for(spec);
        d.framework_minor = static_cast<uint16_t>(spec.version.minor + 1);
        EXPECT_TRUE(check_descriptor(&d, spec.name, "demo")) << spec.name << ": newer minor";
    }
}

TEST(FrameworkTable, UnknownFrameworkIsRejectedWithTheClosestName) {
    auto d = descriptor_for(*find_framework_spec("osc"));
    d.framework = "osx";
    auto problem = check_descriptor(&d, {}, {});
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->cause, "unknown framework 'osx'");
    EXPECT_THAT(problem->hint, HasSubstr("did you mean 'osc'?"));
    EXPECT_THAT(problem->hint, HasSubstr("the frameworks are btl, coll, osc, dpm, reconf"));
    d.framework = "pml";
    problem = check_descriptor(&d, {}, {});
    ASSERT_TRUE(problem);
    EXPECT_THAT(problem->hint, ::testing::Not(HasSubstr("did you mean")));
}

TEST(FrameworkTable, FileNamesParseForEveryFrameworkInTheTable) {
    for (const auto &spec : framework_table()) {
        std::string fw, name;
        ASSERT_TRUE(parse_component_file_name("plexus_" + std::string(spec.name) + "_x_y.so", &fw, &name))
            << spec.name;
        EXPECT_EQ(fw, spec.name);
        EXPECT_EQ(name, "x_y");
    }
    std::string fw, name;
    EXPECT_FALSE(parse_component_file_name("plexus_pml_ob1.so", &fw, &name));
}

// A core as plexus_info makes it: every component loaded, every framework opened.
class FrameworkTableCore : public plexus::test::GoodPluginCore {
protected:
    void SetUp() override {
        load_all_components = true;
        GoodPluginCore::SetUp();
    }
};

TEST_F(FrameworkTableCore, PlexusInfoListsEveryFrameworkOfTheTable) {
    const nlohmann::json doc = info::describe_core(*core);
    const auto &listed = doc.at("frameworks");
    ASSERT_EQ(listed.size(), framework_table().size());
    for (size_t i = 0; i < listed.size(); ++i) {
        const FrameworkSpec &spec = framework_table()[i];
        EXPECT_EQ(listed[i].at("name"), spec.name);
        EXPECT_EQ(listed[i].at("interface"), version_text(spec.version)) << spec.name;
        EXPECT_EQ(listed[i].at("policy"), policy_name(spec.policy)) << spec.name;
        EXPECT_EQ(listed[i].at("scope"), scope_name(spec.scope)) << spec.name;
        EXPECT_EQ(listed[i].at("description"), spec.description) << spec.name;
        // Every framework has its good test component, found through the table's name.
        bool has_good = false;
        for (const auto &c : listed[i].at("components")) has_good |= c.at("name") == "good";
        EXPECT_TRUE(has_good) << spec.name;
    }
}

TEST_F(FrameworkTableCore, EveryFrameworkHasItsSelectionParameters) {
    for (const auto &spec : framework_table()) {
        EXPECT_NE(core->params().find(spec.name), nullptr) << spec.name;
        EXPECT_NE(core->params().find(std::string(spec.name) + "_base_verbose"), nullptr) << spec.name;
    }
}

TEST_F(FrameworkTableCore, SelectingAnUnknownFrameworkSuggestsOne) {
    Selection s = core->select("recon", nullptr);
    ASSERT_EQ(s.errors.size(), 1u);
    EXPECT_THAT(s.errors[0], HasSubstr("no framework named 'recon'"));
    EXPECT_THAT(s.errors[0], HasSubstr("did you mean 'reconf'?"));
}

}  // namespace
}  // namespace plexus::mca
