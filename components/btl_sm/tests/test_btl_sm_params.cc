// Unit tests of btl_sm's parameters: every one registers with help text through the host API,
// the defaults are valid, values the core's registry cannot judge (powers of two, one limit
// against another) are refused with a message naming the parameter and what is valid, and the
// registry itself refuses a bad enum or range value by naming the valid ones.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "components/btl_sm/sm_params.h"
#include "mca/btl_common_params.h"
#include "base/param_registry.h"
#include "tests/unit/registry_host.h"

using namespace plexus::btl_sm;
using plexus::mca::ParamRegistry;
using plexus::mca::Setting;
using plexus::mca::SourceKind;

namespace {

// A host API whose parameters feed a real ParamRegistry, as the core's do; what sm registers is
// also kept, by short name.
std::map<std::string, plexus_param_desc_t> g_seen;

int recording_register(const plexus_component_t *self, const plexus_param_desc_t *d) {
    g_seen[d->name] = *d;
    return plexus::test::registry_param_register(self, d);
}

// The core's registration for btl_sm: the parameters every BTL has, then sm's own.
SmParams registered(std::vector<Setting> settings, std::vector<std::string> *errors = nullptr) {
    ParamRegistry registry(std::move(settings));
    g_seen.clear();
    std::string err;
    EXPECT_TRUE(plexus::mca::register_btl_common_params(registry, "sm", &err)) << err;
    plexus_host_api_t host{};
    host.struct_size = sizeof host;
    host.major = PLEXUS_HOST_API_MAJOR;
    host.minor = PLEXUS_HOST_API_MINOR;
    plexus::test::use_registry(&host, &registry);
    host.param_register = recording_register;
    const plexus_component_t self = plexus::test::named_component("btl", "sm");
    SmParams p;
    EXPECT_EQ(register_sm_params(&host, &self, &p), PLEXUS_SUCCESS);
    if (errors) *errors = registry.errors();
    return p;
}

Setting env(const std::string &name, const std::string &value) {
    return Setting{name, value, SourceKind::Env, "env PLEXUS_MCA_" + name};
}

TEST(SmParams, EveryParameterHasHelpAndTheDefaultsAreValid) {
    const SmParams p = registered({});
    for (const char *name : {"fastbox_threshold", "fastbox_max", "fastbox_size", "single_copy",
                             "single_copy_threshold", "free_list_num", "max_frag_num", "fifo_size",
                             "single_copy_stall"}) {
        ASSERT_TRUE(g_seen.count(name)) << name << " is not registered";
        const std::string help = g_seen[name].help;
        EXPECT_GT(help.size(), 40u) << name;
        EXPECT_NE(help.find("Default"), std::string::npos) << name << ": the help should say the default";
    }
    EXPECT_EQ(validate_sm_params(p), "");
    EXPECT_EQ(p.fastbox_size, 32u * 1024);
    EXPECT_EQ(p.single_copy, kSingleCopyCma);
    EXPECT_EQ(p.eager_limit, 32768u) << "sm's own, while btl_sm_eager_limit is left alone";
    EXPECT_EQ(p.max_send_size, 32768u);
    EXPECT_EQ(p.exclusivity, PLEXUS_BTL_EXCLUSIVITY_NODE);
    EXPECT_EQ(p.single_copy_stall, 200);
    for (const char *core_owned : {"eager_limit", "max_send_size", "exclusivity"})
        EXPECT_FALSE(g_seen.count(core_owned)) << core_owned << ": the core registers it for every BTL";
}

TEST(SmParams, SettingsReachTheStorage) {
    const SmParams p = registered({env("btl_sm_fastbox_max", "0"), env("btl_sm_single_copy", "none"),
                                   env("btl_sm_fastbox_size", "64k"), env("btl_sm_eager_limit", "8k"),
                                   env("btl_sm_max_send_size", "64k"), env("btl_sm_exclusivity", "1000")});
    EXPECT_EQ(p.fastbox_max, 0);
    EXPECT_EQ(p.single_copy, kSingleCopyNone);
    EXPECT_EQ(p.fastbox_size, 65536u);
    EXPECT_EQ(p.eager_limit, 8192u);
    EXPECT_EQ(p.max_send_size, 65536u);
    EXPECT_EQ(p.exclusivity, 1000u);
    EXPECT_EQ(validate_sm_params(p), "");
}

TEST(SmParams, RegistryNamesValidEnumValuesAndRanges) {
    std::vector<std::string> errors;
    const SmParams p = registered({env("btl_sm_single_copy", "xpmem"), env("btl_sm_fastbox_max", "-3")}, &errors);
    EXPECT_EQ(p.single_copy, kSingleCopyCma) << "a bad value falls back to the default";
    EXPECT_EQ(p.fastbox_max, 32);
    ASSERT_EQ(errors.size(), 2u);
    std::string all = errors[0] + "\n" + errors[1];
    EXPECT_NE(all.find("btl_sm_single_copy"), std::string::npos) << all;
    EXPECT_NE(all.find("cma"), std::string::npos) << all;
    EXPECT_NE(all.find("none"), std::string::npos) << all;
    EXPECT_NE(all.find("btl_sm_fastbox_max"), std::string::npos) << all;
}

// validate_sm_params's message for one bad field: it names the parameter and what is valid.
void expect_refused(SmParams p, const std::string &param, const std::string &valid) {
    const std::string msg = validate_sm_params(p);
    EXPECT_NE(msg.find(param), std::string::npos) << msg;
    EXPECT_NE(msg.find(valid), std::string::npos) << msg;
}

TEST(SmParams, RefusesWhatTheRegistryCannotJudge) {
    SmParams p;
    p.fastbox_size = 48 * 1024;
    expect_refused(p, "btl_sm_fastbox_size", "power of two");
    p = SmParams{};
    p.fastbox_size = 2048;
    expect_refused(p, "btl_sm_fastbox_size", "from 4k");
    p = SmParams{};
    p.fastbox_size = 8u << 20;
    expect_refused(p, "btl_sm_fastbox_size", "4m");
    p = SmParams{};
    p.eager_limit = 64 * 1024;  // above max_send_size
    expect_refused(p, "btl_sm_eager_limit", "btl_sm_max_send_size");
    p = SmParams{};
    p.eager_limit = 100;
    expect_refused(p, "btl_sm_eager_limit", "256");
    p = SmParams{};
    p.max_send_size = 32u << 20;
    p.eager_limit = 4096;
    expect_refused(p, "btl_sm_max_send_size", "16m");
    p = SmParams{};
    p.fifo_size = 1000;
    expect_refused(p, "btl_sm_fifo_size", "power of two");
    p = SmParams{};
    p.single_copy_threshold = 0;
    expect_refused(p, "btl_sm_single_copy_threshold", "1 byte");
    p = SmParams{};
    p.single_copy_threshold = 4u << 20;
    expect_refused(p, "btl_sm_single_copy_limit", "at least the threshold");
    p.single_copy_limit = 0;  // no limit
    EXPECT_EQ(validate_sm_params(p), "");
}

// Up to 3 ranks per CPU single copy from 4 MiB, from 4 ranks per CPU (or CPUs unknown) from 1 MiB.
TEST(SmParams, OversubscribedSingleCopyFromFollowsRanksPerCpu) {
    EXPECT_EQ(oversubscribed_single_copy_from(3, 2), uint64_t{4} << 20);
    EXPECT_EQ(oversubscribed_single_copy_from(4, 2), uint64_t{4} << 20);
    EXPECT_EQ(oversubscribed_single_copy_from(7, 2), uint64_t{4} << 20);
    EXPECT_EQ(oversubscribed_single_copy_from(8, 2), uint64_t{1} << 20);
    EXPECT_EQ(oversubscribed_single_copy_from(64, 2), uint64_t{1} << 20);
    EXPECT_EQ(oversubscribed_single_copy_from(4, 1), uint64_t{1} << 20);
    EXPECT_EQ(oversubscribed_single_copy_from(3, 0), uint64_t{1} << 20);
}

}  // namespace
