// Unit tests of the parameter registry: precedence between every pair of sources, fallback past
// bad values, storage of every type, synonyms, rejected registrations, late settings and the
// report of settings that name no parameter.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <plexus/param.h>

#include "base/param_registry.h"

namespace plexus::mca {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

ParamSpec make_spec(std::string name, plexus_param_type_t type, std::string default_text) {
    ParamSpec spec;
    spec.name = std::move(name);
    spec.type = type;
    spec.default_text = std::move(default_text);
    spec.help = "What it does.";
    spec.level = 5;
    spec.framework = "test";
    spec.component = "base";
    return spec;
}

ParamSpec int_spec(std::string name = "test_count", std::string default_text = "0") {
    return make_spec(std::move(name), PLEXUS_PARAM_INT, std::move(default_text));
}

const SourceKind kAllKinds[] = {SourceKind::Default,      SourceKind::SystemFile,
                                SourceKind::SystemDropIn, SourceKind::UserFile,
                                SourceKind::Env,          SourceKind::Cli};

// A plausible origin for a setting of name by kind, distinct per kind.
std::string origin_of(SourceKind kind, const std::string &name = "test_count") {
    switch (kind) {
    case SourceKind::Default: return "default";
    case SourceKind::SystemFile: return "/etc/plexus/mca-params.conf:3";
    case SourceKind::SystemDropIn: return "/etc/plexus/mca-params.d/10-site.conf:7";
    case SourceKind::UserFile: return "/home/u/.plexus/mca-params.conf:1";
    case SourceKind::Env: return "env PLEXUS_MCA_" + name;
    case SourceKind::Cli: return "cli";
    }
    return "?";
}

Setting setting(std::string name, std::string value, SourceKind kind) {
    std::string origin = origin_of(kind, name);
    return Setting{std::move(name), std::move(value), kind, std::move(origin)};
}

// Registers spec and fails the test when that is refused.
Param *must_register(ParamRegistry &registry, ParamSpec spec, void *storage = nullptr) {
    std::string error;
    Param *param = registry.register_param(std::move(spec), storage, &error);
    EXPECT_NE(param, nullptr) << error;
    return param;
}

// ---- Precedence: every pair of sources ----------------------------------------------------------

using KindPair = std::pair<SourceKind, SourceKind>;  // (lower, higher)

std::vector<KindPair> all_pairs() {
    std::vector<KindPair> pairs;
    for (SourceKind lower : kAllKinds)
        for (SourceKind higher : kAllKinds)
            if (lower < higher) pairs.emplace_back(lower, higher);
    return pairs;
}

// The parameter test_count set to low_value by the lower source and high_value by the higher one;
// a Default "source" is the registered default. higher_first puts the winner first in the vector,
// so that only precedence, not order, can make it win.
struct PairSetup {
    ParamSpec spec;
    std::vector<Setting> settings;
};

PairSetup pair_setup(KindPair kinds, const std::string &low_value, const std::string &high_value,
                     bool higher_first) {
    PairSetup setup{int_spec("test_count", "1"), {}};
    if (kinds.first == SourceKind::Default)
        setup.spec.default_text = low_value;
    else
        setup.settings.push_back(setting("test_count", low_value, kinds.first));
    const Setting high = setting("test_count", high_value, kinds.second);
    setup.settings.insert(higher_first ? setup.settings.begin() : setup.settings.end(), high);
    return setup;
}

class Precedence : public ::testing::TestWithParam<KindPair> {};

TEST_P(Precedence, HigherSourceWinsWhateverTheOrder) {
    for (bool higher_first : {true, false}) {
        PairSetup setup = pair_setup(GetParam(), "10", "20", higher_first);
        ParamRegistry registry(setup.settings);
        int64_t storage = -1;
        const Param *p = must_register(registry, setup.spec, &storage);
        ASSERT_NE(p, nullptr);
        EXPECT_EQ(p->value.i, 20);
        EXPECT_EQ(storage, 20);
        EXPECT_EQ(p->source, GetParam().second);
        EXPECT_EQ(p->origin, origin_of(GetParam().second));
        EXPECT_THAT(registry.errors(), IsEmpty());
    }
}

TEST_P(Precedence, BadHigherValueFallsBackToLowerWithError) {
    const KindPair kinds = GetParam();
    PairSetup setup = pair_setup(kinds, "10", "ten", true);
    ParamRegistry registry(setup.settings);
    int64_t storage = -1;
    const Param *p = must_register(registry, setup.spec, &storage);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->value.i, 10);
    EXPECT_EQ(storage, 10);
    EXPECT_EQ(p->source, kinds.first);
    EXPECT_EQ(p->origin, origin_of(kinds.first));
    ASSERT_EQ(registry.errors().size(), 1u);
    const std::string expected =
        "test_count: 'ten' is not an integer (accepted: a 64-bit integer, decimal or 0x hex)";
    EXPECT_EQ(registry.errors()[0], expected + " (set in " + origin_of(kinds.second) + ")");
}

std::string pair_name(const ::testing::TestParamInfo<KindPair> &info) {
    auto word = [](SourceKind k) {
        std::string s = source_kind_name(k);
        std::string out;
        for (char c : s)
            if (c != ' ' && c != '-') out += c;
        return out;
    };
    return word(info.param.first) + "_below_" + word(info.param.second);
}

INSTANTIATE_TEST_SUITE_P(AllPairs, Precedence, ::testing::ValuesIn(all_pairs()), pair_name);

TEST(PrecedencePairs, CoverAllFifteen) { EXPECT_EQ(all_pairs().size(), 15u); }

// ---- Resolution ---------------------------------------------------------------------------------

TEST(ParamRegistry, DefaultWhenNothingIsSet) {
    ParamRegistry registry({setting("other_param", "5", SourceKind::Cli)});
    int64_t storage = -1;
    const Param *p = must_register(registry, int_spec("test_count", "0x20"), &storage);
    EXPECT_EQ(p->value.i, 32);
    EXPECT_EQ(p->value.text, "32");
    EXPECT_EQ(storage, 32);
    EXPECT_EQ(p->source, SourceKind::Default);
    EXPECT_EQ(p->origin, "default");
}

TEST(ParamRegistry, WithinOneKindTheLaterSettingWins) {
    ParamRegistry registry({Setting{"test_count", "1", SourceKind::Cli, "cli first"},
                            Setting{"test_count", "2", SourceKind::Env, "env"},
                            Setting{"test_count", "3", SourceKind::Cli, "cli second"}});
    const Param *p = must_register(registry, int_spec());
    EXPECT_EQ(p->value.i, 3);
    EXPECT_EQ(p->origin, "cli second");
}

TEST(ParamRegistry, BadValuesFallBackStepByStepToTheDefault) {
    ParamRegistry registry({setting("test_count", "7", SourceKind::SystemFile),
                            setting("test_count", "12x", SourceKind::UserFile),
                            setting("test_count", "", SourceKind::Env),
                            setting("test_count", "99999999999999999999", SourceKind::Cli)});
    const Param *p = must_register(registry, int_spec());
    EXPECT_EQ(p->value.i, 7);
    EXPECT_EQ(p->source, SourceKind::SystemFile);
    ASSERT_EQ(registry.errors().size(), 3u);
    // Highest source first: the order in which resolution met them.
    EXPECT_THAT(registry.errors()[0], HasSubstr("test_count: '99999999999999999999' does not fit"));
    EXPECT_THAT(registry.errors()[0], HasSubstr("(set in cli)"));
    EXPECT_THAT(registry.errors()[1], HasSubstr("test_count: '' is empty"));
    EXPECT_THAT(registry.errors()[1], HasSubstr("(set in env PLEXUS_MCA_test_count)"));
    EXPECT_THAT(registry.errors()[2], HasSubstr("test_count: '12x' is not an integer"));
    EXPECT_THAT(registry.errors()[2],
                HasSubstr("(set in " + origin_of(SourceKind::UserFile) + ")"));
    for (const std::string &e : registry.errors())
        EXPECT_THAT(e, HasSubstr("(accepted: a 64-bit integer"));
}

TEST(ParamRegistry, AllBadFallsBackToTheDefault) {
    ParamRegistry registry({setting("test_level", "11", SourceKind::Env),
                            setting("test_level", "-1", SourceKind::Cli)});
    ParamSpec spec = int_spec("test_level", "3");
    spec.has_range = true;
    spec.min = 0;
    spec.max = 9;
    int64_t storage = -1;
    const Param *p = must_register(registry, spec, &storage);
    EXPECT_EQ(storage, 3);
    EXPECT_EQ(p->source, SourceKind::Default);
    EXPECT_EQ(p->origin, "default");
    EXPECT_THAT(
        registry.errors(),
        ElementsAre(
            "test_level: '-1' is out of range (accepted: an integer from 0 to 9) (set in cli)",
            "test_level: '11' is out of range (accepted: an integer from 0 to 9) (set in env "
            "PLEXUS_MCA_test_level)"));
}

TEST(ParamRegistry, DefaultKindSettingOverridesTheRegisteredDefaultOnly) {
    ParamRegistry registry({Setting{"test_count", "5", SourceKind::Default, "platform defaults"}});
    const Param *p = must_register(registry, int_spec());
    EXPECT_EQ(p->value.i, 5);
    EXPECT_EQ(p->source, SourceKind::Default);
    EXPECT_EQ(p->origin, "platform defaults");
    EXPECT_TRUE(registry.add_setting(setting("test_count", "6", SourceKind::SystemFile)));
    EXPECT_EQ(p->value.i, 6);
}

// ---- Storage ------------------------------------------------------------------------------------

TEST(ParamRegistry, StoresEveryType) {
    ParamRegistry registry(
        {setting("t_bool", "ON", SourceKind::Env), setting("t_int", "-0x10", SourceKind::Env),
         setting("t_size", "4m", SourceKind::Env), setting("t_double", "2.5", SourceKind::Env),
         setting("t_string", " hello ", SourceKind::Env),
         setting("t_enum", "BOOST", SourceKind::Env),
         setting("t_list", "sm, tcp ,self", SourceKind::Env)});
    int b = -1, e = -1;
    int64_t i = -1;
    uint64_t u = 0;
    double d = -1;
    const char *s = nullptr;
    const char *const *l = nullptr;
    must_register(registry, make_spec("t_bool", PLEXUS_PARAM_BOOL, "false"), &b);
    must_register(registry, make_spec("t_int", PLEXUS_PARAM_INT, "0"), &i);
    must_register(registry, make_spec("t_size", PLEXUS_PARAM_SIZE, "0"), &u);
    must_register(registry, make_spec("t_double", PLEXUS_PARAM_DOUBLE, "0"), &d);
    must_register(registry, make_spec("t_string", PLEXUS_PARAM_STRING, ""), &s);
    ParamSpec enum_spec = make_spec("t_enum", PLEXUS_PARAM_ENUM, "ltdl");
    enum_spec.enum_values = {"ltdl", "boost"};
    const Param *pe = must_register(registry, enum_spec, &e);
    const Param *pl = must_register(registry, make_spec("t_list", PLEXUS_PARAM_LIST, ""), &l);
    EXPECT_EQ(b, 1);
    EXPECT_EQ(i, -16);
    EXPECT_EQ(u, 4u << 20);
    EXPECT_EQ(d, 2.5);
    ASSERT_NE(s, nullptr);
    EXPECT_STREQ(s, " hello ");
    EXPECT_EQ(e, 1);
    EXPECT_EQ(pe->value.text, "boost");
    ASSERT_NE(l, nullptr);
    EXPECT_STREQ(l[0], "sm");
    EXPECT_STREQ(l[1], "tcp");
    EXPECT_STREQ(l[2], "self");
    EXPECT_EQ(l[3], nullptr);
    EXPECT_EQ(l, pl->list_cstrs.data());
    EXPECT_EQ(pl->value.text, "sm,tcp,self");
    EXPECT_THAT(registry.errors(), IsEmpty());
}

TEST(ParamRegistry, EmptyListIsJustTheTerminator) {
    ParamRegistry registry;
    const char *const *l = nullptr;
    const Param *p = must_register(registry, make_spec("t_list", PLEXUS_PARAM_LIST, ""), &l);
    ASSERT_NE(l, nullptr);
    EXPECT_EQ(l[0], nullptr);
    EXPECT_THAT(p->list_cstrs, ElementsAre(nullptr));
}

TEST(ParamRegistry, NullStorageIsAllowed) {
    ParamRegistry registry({setting("t", "1", SourceKind::Cli)});
    const Param *p = must_register(registry, int_spec("t"), nullptr);
    EXPECT_EQ(p->value.i, 1);
}

TEST(ParamRegistry, StringsAndListsStayPutWhileOthersRegister) {
    ParamRegistry registry(
        {setting("t_short", "sm", SourceKind::Cli), setting("t_list", "a,b", SourceKind::Cli)});
    const char *short_str = nullptr;
    const char *long_str = nullptr;
    const char *const *list = nullptr;
    const Param *first =
        must_register(registry, make_spec("t_short", PLEXUS_PARAM_STRING, ""), &short_str);
    must_register(registry, make_spec("t_long", PLEXUS_PARAM_STRING, std::string(100, 'x')),
                  &long_str);
    must_register(registry, make_spec("t_list", PLEXUS_PARAM_LIST, ""), &list);
    const char *const short_before = short_str;
    const char *const long_before = long_str;
    const char *const *list_before = list;
    for (int n = 0; n < 2000; ++n)
        must_register(registry, make_spec("t_more_" + std::to_string(n), PLEXUS_PARAM_STRING, "y"));
    EXPECT_EQ(short_str, short_before);
    EXPECT_STREQ(short_str, "sm");
    EXPECT_EQ(long_str, long_before);
    EXPECT_EQ(std::string(long_str), std::string(100, 'x'));
    EXPECT_EQ(list, list_before);
    EXPECT_STREQ(list[0], "a");
    EXPECT_STREQ(list[1], "b");
    EXPECT_EQ(list[2], nullptr);
    EXPECT_EQ(registry.find("t_short"), first);
}

TEST(ParamRegistry, StorageNeedNotBeAligned) {
    ParamRegistry registry({setting("t", "0x0102030405060708", SourceKind::Cli)});
    alignas(8) unsigned char buf[16] = {};
    must_register(registry, int_spec("t"), buf + 1);
    int64_t v;
    std::memcpy(&v, buf + 1, sizeof v);
    EXPECT_EQ(v, 0x0102030405060708);
}

// ---- Synonyms -----------------------------------------------------------------------------------

TEST(ParamRegistry, SynonymsSetAndFindTheParameter) {
    ParamRegistry registry({setting("old_name", "4", SourceKind::Env),
                            setting("older_name", "5", SourceKind::UserFile)});
    ParamSpec spec = int_spec("new_name");
    spec.synonyms = {"old_name", "older_name"};
    const Param *p = must_register(registry, spec);
    EXPECT_EQ(p->value.i, 4);
    EXPECT_EQ(p->source, SourceKind::Env);
    EXPECT_EQ(registry.find("new_name"), p);
    EXPECT_EQ(registry.find("old_name"), p);
    EXPECT_EQ(registry.find("older_name"), p);
    EXPECT_EQ(registry.all().size(), 1u);  // synonyms are not separate parameters
}

TEST(ParamRegistry, NameAndSynonymInTheSameKindLaterWins) {
    ParamRegistry registry(
        {setting("new_name", "1", SourceKind::Cli), setting("old_name", "2", SourceKind::Cli)});
    ParamSpec spec = int_spec("new_name");
    spec.synonyms = {"old_name"};
    EXPECT_EQ(must_register(registry, spec)->value.i, 2);
}

TEST(ParamRegistry, SynonymsMayNotCollide) {
    ParamRegistry registry;
    ParamSpec first = int_spec("a_param");
    first.synonyms = {"a_old"};
    must_register(registry, first);
    std::string error;
    ParamSpec clash = int_spec("b_param");
    clash.synonyms = {"a_param"};  // a synonym that is an existing name
    EXPECT_EQ(registry.register_param(clash, nullptr, &error), nullptr);
    EXPECT_THAT(error, HasSubstr("'a_param' is already registered"));
    EXPECT_EQ(registry.register_param(int_spec("a_old"), nullptr, &error),
              nullptr);  // a name that is a synonym
    EXPECT_THAT(error, HasSubstr("'a_old' is already registered"));
    clash.synonyms = {"b_param"};  // its own name
    EXPECT_EQ(registry.register_param(clash, nullptr, &error), nullptr);
    clash.synonyms = {"b_x", "b_x"};
    EXPECT_EQ(registry.register_param(clash, nullptr, &error), nullptr);
    EXPECT_EQ(registry.find("b_param"), nullptr);
    EXPECT_EQ(registry.find("b_x"), nullptr);
}

// ---- Rejected registrations ---------------------------------------------------------------------

// Registration of spec must fail with an error containing expected, and leave no trace.
void expect_rejected(ParamSpec spec, const std::string &expected) {
    ParamRegistry registry;
    must_register(registry, int_spec("existing"));
    int64_t storage = 77;
    std::string error;
    const std::string name = spec.name;
    EXPECT_EQ(registry.register_param(std::move(spec), &storage, &error), nullptr) << expected;
    EXPECT_THAT(error, HasSubstr(expected));
    EXPECT_EQ(storage, 77);
    EXPECT_EQ(registry.all().size(), 1u);
    if (name != "existing") {
        EXPECT_EQ(registry.find(name), nullptr);
    }
}

TEST(ParamRegistry, RejectsBadRegistrations) {
    expect_rejected(int_spec("existing"), "'existing' is already registered");
    expect_rejected(int_spec(""), "needs a name");
    ParamSpec spec = int_spec("no_help");
    spec.help = "";
    expect_rejected(spec, "no_help: a parameter needs help text");
    spec = int_spec("level_low");
    spec.level = 0;
    expect_rejected(spec, "level_low: level 0 is outside 1..9");
    spec = int_spec("level_high");
    spec.level = 10;
    expect_rejected(spec, "level_high: level 10 is outside 1..9");
    expect_rejected(make_spec("no_values", PLEXUS_PARAM_ENUM, "x"),
                    "no_values: an enum parameter needs at least one value");
    expect_rejected(int_spec("bad_default", "lots"), "bad_default: 'lots' is not an integer");
    ParamSpec ranged = int_spec("out_of_range_default", "100");
    ranged.has_range = true;
    ranged.max = 10;
    expect_rejected(ranged, "out_of_range_default: '100' is out of range");
    expect_rejected(make_spec("bad_type", static_cast<plexus_param_type_t>(7), ""),
                    "bad_type: unknown parameter type");
}

TEST(ParamRegistry, AcceptsLevelsOneAndNine) {
    ParamRegistry registry;
    ParamSpec spec = int_spec("one");
    spec.level = 1;
    must_register(registry, spec);
    spec = int_spec("nine");
    spec.level = 9;
    must_register(registry, spec);
}

TEST(ParamRegistry, BadUserValueDoesNotRejectTheRegistration) {
    // Only a bad default is a bug in the registering code; a bad setting is the user's.
    ParamRegistry registry({setting("test_count", "lots", SourceKind::Cli)});
    EXPECT_NE(must_register(registry, int_spec()), nullptr);
    EXPECT_EQ(registry.errors().size(), 1u);
}

// ---- Late settings ------------------------------------------------------------------------------

TEST(ParamRegistry, AddSettingReresolves) {
    ParamRegistry registry({setting("test_count", "1", SourceKind::Env)});
    int64_t storage = -1;
    const Param *p = must_register(registry, int_spec(), &storage);
    EXPECT_EQ(storage, 1);
    EXPECT_TRUE(
        registry.add_setting(Setting{"test_count", "2", SourceKind::Cli, "plexus_info --mca"}));
    EXPECT_EQ(storage, 2);
    EXPECT_EQ(p->source, SourceKind::Cli);
    EXPECT_EQ(p->origin, "plexus_info --mca");
    // Lower than what is there: recorded, but does not win.
    EXPECT_TRUE(registry.add_setting(setting("test_count", "3", SourceKind::UserFile)));
    EXPECT_EQ(storage, 2);
}

TEST(ParamRegistry, AddSettingUpdatesStringAndListStorage) {
    ParamRegistry registry;
    const char *s = nullptr;
    const char *const *l = nullptr;
    must_register(registry, make_spec("t_string", PLEXUS_PARAM_STRING, "old"), &s);
    must_register(registry, make_spec("t_list", PLEXUS_PARAM_LIST, "a"), &l);
    EXPECT_TRUE(registry.add_setting(
        setting("t_string", "a much longer value than before", SourceKind::Cli)));
    EXPECT_TRUE(registry.add_setting(setting("t_list", "x,y,z", SourceKind::Cli)));
    EXPECT_STREQ(s, "a much longer value than before");
    EXPECT_STREQ(l[2], "z");
    EXPECT_EQ(l[3], nullptr);
}

TEST(ParamRegistry, ReresolvingToTheSameValueKeepsStringPointers) {
    // Components may copy the pointer they were given; a re-resolution that changes nothing must
    // not free it.
    const std::string long_value(64, 'v');
    ParamRegistry registry({setting("t_string", long_value, SourceKind::Env),
                            setting("t_list", "a,b", SourceKind::Env)});
    const char *s = nullptr;
    const char *const *l = nullptr;
    must_register(registry, make_spec("t_string", PLEXUS_PARAM_STRING, ""), &s);
    must_register(registry, make_spec("t_list", PLEXUS_PARAM_LIST, ""), &l);
    const char *const s_before = s;
    const char *const l0_before = l[0];
    EXPECT_TRUE(registry.add_setting(setting("t_string", "lower", SourceKind::SystemFile)));
    EXPECT_TRUE(registry.add_setting(setting("t_string", long_value, SourceKind::Cli)));
    EXPECT_TRUE(registry.add_setting(setting("t_list", " a , b ", SourceKind::Cli)));
    EXPECT_EQ(s, s_before);
    EXPECT_EQ(l[0], l0_before);
    EXPECT_EQ(registry.find("t_string")->source, SourceKind::Cli);
}

TEST(ParamRegistry, AddSettingWithBadValueKeepsTheOldValueAndRecordsOnce) {
    ParamRegistry registry;
    int64_t storage = -1;
    must_register(registry, int_spec("test_count", "4"), &storage);
    EXPECT_FALSE(registry.add_setting(setting("test_count", "four", SourceKind::Cli)));
    EXPECT_EQ(storage, 4);
    ASSERT_EQ(registry.errors().size(), 1u);
    EXPECT_EQ(registry.errors()[0],
              "test_count: 'four' is not an integer (accepted: a 64-bit integer, decimal or 0x "
              "hex) (set in cli)");
    // Re-resolution by later settings does not repeat the error.
    EXPECT_TRUE(registry.add_setting(setting("test_count", "5", SourceKind::Env)));
    EXPECT_TRUE(registry.add_setting(setting("test_count", "6", SourceKind::UserFile)));
    EXPECT_EQ(storage, 5);
    EXPECT_EQ(registry.errors().size(), 1u);
}

TEST(ParamRegistry, AddSettingWithBadValueBelowAGoodOneStillReports) {
    ParamRegistry registry({setting("test_count", "9", SourceKind::Cli)});
    int64_t storage = -1;
    must_register(registry, int_spec(), &storage);
    EXPECT_FALSE(registry.add_setting(setting("test_count", "nine", SourceKind::SystemFile)));
    EXPECT_EQ(storage, 9);
    ASSERT_EQ(registry.errors().size(), 1u);
    EXPECT_THAT(registry.errors()[0], HasSubstr("'nine'"));
}

TEST(ParamRegistry, SettingsAddedBeforeRegistrationApply) {
    ParamRegistry registry;
    EXPECT_TRUE(registry.add_setting(setting("later", "8", SourceKind::Env)));
    EXPECT_EQ(registry.unknown_settings().size(), 1u);
    int64_t storage = -1;
    must_register(registry, int_spec("later"), &storage);
    EXPECT_EQ(storage, 8);
    EXPECT_THAT(registry.unknown_settings(), IsEmpty());
}

// ---- Lookup and unknown settings ----------------------------------------------------------------

TEST(ParamRegistry, FindAndAllSortedByName) {
    ParamRegistry registry;
    must_register(registry, int_spec("c_param"));
    must_register(registry, int_spec("a_param"));
    must_register(registry, int_spec("b_param"));
    std::vector<std::string> names;
    for (const Param *p : registry.all()) names.push_back(p->spec.name);
    EXPECT_THAT(names, ElementsAre("a_param", "b_param", "c_param"));
    EXPECT_EQ(registry.find("b_param")->spec.name, "b_param");
    EXPECT_EQ(registry.find("d_param"), nullptr);
    EXPECT_EQ(registry.find(""), nullptr);
    EXPECT_EQ(registry.find("B_PARAM"), nullptr);  // names are case-sensitive
}

TEST(ParamRegistry, UnknownSettingsAreReportedOnceWithSuggestion) {
    ParamRegistry registry({setting("btl_sm_fastbox_mx", "1", SourceKind::Env),
                            setting("btl_sm_fastbox_max", "2", SourceKind::Env),
                            setting("btl_sm_fastbox_mx", "3", SourceKind::Cli),
                            setting("btl_sm_fastbox_mx", "4", SourceKind::SystemFile),
                            setting("totally_unrelated_thing", "5", SourceKind::UserFile),
                            setting("btl_old_eager", "6", SourceKind::SystemDropIn),
                            Setting{"default_only", "7", SourceKind::Default, "somewhere"},
                            setting("btl_old_eagr", "8", SourceKind::Env)});
    must_register(registry, int_spec("btl_sm_fastbox_max"));
    ParamSpec with_synonym = int_spec("btl_sm_eager_limit");
    with_synonym.synonyms = {"btl_old_eager"};
    must_register(registry, with_synonym);
    const std::vector<UnknownSetting> unknown = registry.unknown_settings();
    ASSERT_EQ(unknown.size(), 3u);
    EXPECT_EQ(unknown[0].name, "btl_old_eagr");
    EXPECT_EQ(unknown[0].suggestion, "btl_old_eager");  // synonyms are suggested too
    EXPECT_EQ(unknown[1].name, "btl_sm_fastbox_mx");
    EXPECT_EQ(unknown[1].origin, "cli");  // the highest-precedence mention
    EXPECT_EQ(unknown[1].suggestion, "btl_sm_fastbox_max");
    EXPECT_EQ(unknown[2].name, "totally_unrelated_thing");
    EXPECT_EQ(unknown[2].origin, origin_of(SourceKind::UserFile));
    EXPECT_EQ(unknown[2].suggestion, "");
}

TEST(ParamRegistry, UnknownSettingOriginIsTheLaterOneWithinAKind) {
    ParamRegistry registry({Setting{"nope", "1", SourceKind::Cli, "cli #1"},
                            Setting{"nope", "2", SourceKind::Cli, "cli #2"},
                            Setting{"nope", "3", SourceKind::Env, "env"}});
    const std::vector<UnknownSetting> unknown = registry.unknown_settings();
    ASSERT_EQ(unknown.size(), 1u);
    EXPECT_EQ(unknown[0].origin, "cli #2");
    EXPECT_EQ(unknown[0].suggestion, "");
}

}  // namespace
}  // namespace plexus::mca
