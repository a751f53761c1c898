// Unit tests of the typed parameter parser: every type's accepted spellings and canonical text,
// and for every class of bad value an error naming the parameter, the value and what is accepted.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include <plexus/param.h>

#include "base/param_value.h"

namespace plexus::mca {
namespace {

using ::testing::HasSubstr;

ParamSpec make_spec(plexus_param_type_t type, std::string name = "test_x") {
    ParamSpec spec;
    spec.name = std::move(name);
    spec.type = type;
    spec.help = "help";
    return spec;
}

ParamSpec int_range(int64_t min, int64_t max, std::string name = "test_x") {
    ParamSpec spec = make_spec(PLEXUS_PARAM_INT, std::move(name));
    spec.has_range = true;
    spec.min = min;
    spec.max = max;
    return spec;
}

ParamSpec enum_spec() {
    ParamSpec spec = make_spec(PLEXUS_PARAM_ENUM, "mca_base_loader");
    spec.enum_values = {"ltdl", "boost"};
    return spec;
}

// Parses text that must be accepted; fails the test with the parser's message otherwise.
ParamValue good(const ParamSpec &spec, std::string_view text) {
    std::string error = "untouched";
    std::optional<ParamValue> v = parse_param_value(spec, text, &error);
    EXPECT_TRUE(v.has_value()) << "'" << text << "' rejected: " << error;
    if (!v) return {};
    EXPECT_EQ(v->type, spec.type);
    return *v;
}

// Parses text that must be rejected; the message must name parameter, value and what is accepted,
// and state the problem.
void bad(const ParamSpec &spec, std::string_view text, const std::string &problem) {
    std::string error;
    const std::optional<ParamValue> v = parse_param_value(spec, text, &error);
    EXPECT_FALSE(v.has_value()) << "'" << text << "' accepted as " << (v ? v->text : "");
    EXPECT_THAT(error, HasSubstr(spec.name + ": '" + std::string(text) + "' " + problem)) << text;
    EXPECT_THAT(error, HasSubstr("(accepted: " + describe_accepted(spec) + ")")) << text;
}

TEST(ParamValue, ErrorMessageMatchesTheDocumentedExample) {
    std::string error;
    EXPECT_FALSE(parse_param_value(int_range(0, 64, "btl_sm_fastbox_max"), "lots", &error));
    EXPECT_EQ(error,
              "btl_sm_fastbox_max: 'lots' is not an integer (accepted: an integer from 0 to 64)");
}

TEST(ParamValue, NullErrorPointerIsAllowed) {
    EXPECT_FALSE(parse_param_value(make_spec(PLEXUS_PARAM_INT), "x", nullptr));
    EXPECT_TRUE(parse_param_value(make_spec(PLEXUS_PARAM_INT), "1", nullptr));
}

TEST(ParamValue, BoolAcceptsEverySpellingInAnyCase) {
    const ParamSpec spec = make_spec(PLEXUS_PARAM_BOOL);
    for (const char *t : {"1", "true", "TRUE", "True", "yes", "YeS", "on", "ON", "enabled",
                          "Enabled", " true\t", "\n1 "}) {
        const ParamValue v = good(spec, t);
        EXPECT_EQ(v.i, 1) << t;
        EXPECT_EQ(v.text, "true") << t;
    }
    for (const char *t :
         {"0", "false", "FALSE", "no", "NO", "off", "Off", "disabled", "DISABLED", "  no  "}) {
        const ParamValue v = good(spec, t);
        EXPECT_EQ(v.i, 0) << t;
        EXPECT_EQ(v.text, "false") << t;
    }
}

TEST(ParamValue, BoolRejectsOtherWords) {
    const ParamSpec spec = make_spec(PLEXUS_PARAM_BOOL, "btl_sm_enable");
    bad(spec, "maybe", "is not a boolean");
    bad(spec, "2", "is not a boolean");
    bad(spec, "truee", "is not a boolean");
    bad(spec, "t", "is not a boolean");
    bad(spec, "yes please", "is not a boolean");
    bad(spec, "", "is empty");
    bad(spec, "   ", "is empty");
    std::string error;
    parse_param_value(spec, "x", &error);
    EXPECT_THAT(error, HasSubstr("true/false"));
}

TEST(ParamValue, IntDecimalHexSignsAndLimits) {
    const ParamSpec spec = make_spec(PLEXUS_PARAM_INT);
    struct Case {
        const char *text;
        int64_t value;
        const char *canonical;
    };
    const Case cases[] = {
        {"0", 0, "0"},
        {"42", 42, "42"},
        {"+42", 42, "42"},
        {"-42", -42, "-42"},
        {"007", 7, "7"},  // leading zeros are decimal, not octal
        {" 12 ", 12, "12"},
        {"0x10", 16, "16"},
        {"0XfF", 255, "255"},
        {"-0x10", -16, "-16"},
        {"9223372036854775807", INT64_MAX, "9223372036854775807"},
        {"-9223372036854775808", INT64_MIN, "-9223372036854775808"},
        {"0x7fffffffffffffff", INT64_MAX, "9223372036854775807"},
        {"-0x8000000000000000", INT64_MIN, "-9223372036854775808"},
    };
    for (const Case &c : cases) {
        const ParamValue v = good(spec, c.text);
        EXPECT_EQ(v.i, c.value) << c.text;
        EXPECT_EQ(v.text, c.canonical) << c.text;
    }
}

TEST(ParamValue, IntRejectsGarbageOverflowAndJunk) {
    const ParamSpec spec = make_spec(PLEXUS_PARAM_INT, "coll_tuned_segsize");
    for (const char *t :
         {"lots", "12abc", "1.5", "1e3", "0x", "0xg", "--1", "+-1", "-", "+", "1 2", "0x-5", "- 1"})
        bad(spec, t, "is not an integer");
    for (const char *t : {"9223372036854775808", "-9223372036854775809", "0x8000000000000000",
                          "0xffffffffffffffff", "99999999999999999999999999"})
        bad(spec, t, "does not fit in a 64-bit integer");
    bad(spec, "", "is empty");
    bad(spec, "   ", "is empty");
    EXPECT_EQ(describe_accepted(spec), "a 64-bit integer, decimal or 0x hex");
}

TEST(ParamValue, IntRangeIsInclusiveAndEnforced) {
    const ParamSpec spec = int_range(-5, 64, "btl_sm_fastbox_max");
    EXPECT_EQ(good(spec, "-5").i, -5);
    EXPECT_EQ(good(spec, "64").i, 64);
    EXPECT_EQ(good(spec, "0x40").i, 64);
    bad(spec, "65", "is out of range");
    bad(spec, "-6", "is out of range");
    bad(spec, "0x41", "is out of range");
    std::string error;
    parse_param_value(spec, "65", &error);
    EXPECT_EQ(error,
              "btl_sm_fastbox_max: '65' is out of range (accepted: an integer from -5 to 64)");
}

TEST(ParamValue, IntFullRangeAcceptsExtremes) {
    const ParamSpec spec = int_range(INT64_MIN, INT64_MAX);
    EXPECT_EQ(good(spec, "-9223372036854775808").i, INT64_MIN);
    EXPECT_EQ(good(spec, "9223372036854775807").i, INT64_MAX);
}

TEST(ParamValue, SizeSuffixesArePowersOf1024InAnyCase) {
    const ParamSpec spec = make_spec(PLEXUS_PARAM_SIZE);
    struct Case {
        const char *text;
        uint64_t bytes;
    };
    const Case cases[] = {
        {"0", 0},
        {"512", 512},
        {"512b", 512},
        {"512B", 512},
        {"+7", 7},
        {"64k", 64ull << 10},
        {"64K", 64ull << 10},
        {"64kb", 64ull << 10},
        {"64KiB", 64ull << 10},
        {"4m", 4ull << 20},
        {"4M", 4ull << 20},
        {"4MB", 4ull << 20},
        {"1g", 1ull << 30},
        {"1GiB", 1ull << 30},
        {"2t", 2ull << 40},
        {"2TIB", 2ull << 40},
        {" 3 k ", 3ull << 10},
        {"18446744073709551615", UINT64_MAX},
        {"16777215t", 16777215ull << 40},  // largest count of terabytes that fits
    };
    for (const Case &c : cases) {
        const ParamValue v = good(spec, c.text);
        EXPECT_EQ(v.u, c.bytes) << c.text;
        EXPECT_EQ(v.text, std::to_string(c.bytes)) << c.text;
    }
}

TEST(ParamValue, SizeRejectsNegativeGarbageAndOverflow) {
    const ParamSpec spec = make_spec(PLEXUS_PARAM_SIZE, "btl_sm_max_send_size");
    for (const char *t : {"-1", "-64k", "-0"}) bad(spec, t, "is negative");
    for (const char *t : {"k", "lots", "64x", "64kk", "64ibk", "512ib", "1.5g", "0x10", "64 k b",
                          "64p", "1e3", "+"})
        bad(spec, t, "is not a size");
    for (const char *t :
         {"18446744073709551616", "16777216t", "17179869184g", "99999999999999999999999k"})
        bad(spec, t, "is too large");
    bad(spec, "", "is empty");
    EXPECT_THAT(describe_accepted(spec), HasSubstr("k, m, g or t suffix"));
}

TEST(ParamValue, DoubleAcceptsFiniteNumbers) {
    const ParamSpec spec = make_spec(PLEXUS_PARAM_DOUBLE);
    struct Case {
        const char *text;
        double value;
        const char *canonical;
    };
    const Case cases[] = {
        {"0.5", 0.5, "0.5"},
        {"+0.5", 0.5, "0.5"},
        {"-2", -2.0, "-2"},
        {"1e-3", 0.001, "0.001"},
        {".25", 0.25, "0.25"},
        {"3.", 3.0, "3"},
        {" 1E2 ", 100.0, "100"},
        {"1.7976931348623157e308", 1.7976931348623157e308, "1.7976931348623157e+308"},
    };
    for (const Case &c : cases) {
        const ParamValue v = good(spec, c.text);
        EXPECT_EQ(v.d, c.value) << c.text;
        EXPECT_EQ(v.text, c.canonical) << c.text;
    }
}

TEST(ParamValue, DoubleRejectsNanInfJunkAndOverflow) {
    const ParamSpec spec = make_spec(PLEXUS_PARAM_DOUBLE, "btl_sm_weight");
    for (const char *t : {"nan", "NaN", "inf", "-inf", "infinity", "+inf"})
        bad(spec, t, "is not a finite number");
    for (const char *t : {"abc", "1.5x", "1e", "1,5", "0x1p3", "+-1", "+", "1 2"})
        bad(spec, t, "is not a number");
    for (const char *t : {"1e999", "-1e999", "1e-400"})
        bad(spec, t, "is out of range for a double");
    bad(spec, "", "is empty");
}

TEST(ParamValue, StringKeepsTextAsIs) {
    const ParamSpec spec = make_spec(PLEXUS_PARAM_STRING);
    EXPECT_EQ(good(spec, "").text, "");
    EXPECT_EQ(good(spec, "  spaced out  ").text, "  spaced out  ");
    EXPECT_EQ(good(spec, "a,b=c#d").text, "a,b=c#d");
    const std::string with_nul("a\0b", 3);
    EXPECT_EQ(good(spec, with_nul).text, with_nul);
}

TEST(ParamValue, EnumMatchesCaseInsensitivelyAndGivesListedSpelling) {
    const ParamSpec spec = enum_spec();
    ParamValue v = good(spec, "ltdl");
    EXPECT_EQ(v.i, 0);
    EXPECT_EQ(v.text, "ltdl");
    v = good(spec, " BOOST ");
    EXPECT_EQ(v.i, 1);
    EXPECT_EQ(v.text, "boost");
}

TEST(ParamValue, EnumRejectsOtherValuesListingTheValidOnes) {
    const ParamSpec spec = enum_spec();
    bad(spec, "dlopen", "is not a valid value");
    bad(spec, "ltd", "is not a valid value");
    bad(spec, "ltdl,boost", "is not a valid value");
    bad(spec, "", "is empty");
    std::string error;
    parse_param_value(spec, "dlopen", &error);
    EXPECT_EQ(error,
              "mca_base_loader: 'dlopen' is not a valid value (accepted: one of: ltdl, boost)");
}

TEST(ParamValue, ListTrimsElementsAndJoinsCanonically) {
    const ParamSpec spec = make_spec(PLEXUS_PARAM_LIST);
    ParamValue v = good(spec, " sm , tcp,self ");
    EXPECT_EQ(v.list, (std::vector<std::string>{"sm", "tcp", "self"}));
    EXPECT_EQ(v.text, "sm,tcp,self");
    v = good(spec, "one");
    EXPECT_EQ(v.list, std::vector<std::string>{"one"});
    v = good(spec, "a b, c");
    EXPECT_EQ(v.list, (std::vector<std::string>{"a b", "c"}));
    for (const char *empty : {"", "   "}) {
        v = good(spec, empty);
        EXPECT_TRUE(v.list.empty());
        EXPECT_EQ(v.text, "");
    }
}

TEST(ParamValue, ListRejectsEmptyElements) {
    const ParamSpec spec = make_spec(PLEXUS_PARAM_LIST, "btl");
    for (const char *t : {"a,,b", "a,", ",a", ",", "a, ,b", " , "})
        bad(spec, t, "has an empty element");
}

TEST(ParamValue, ControlCharactersInValuesAreEscapedInErrors) {
    std::string error;
    const std::string with_nul{'1', '\0', '2'};
    EXPECT_FALSE(parse_param_value(make_spec(PLEXUS_PARAM_INT), with_nul, &error));
    EXPECT_THAT(error, HasSubstr("'1\\x002' is not an integer"));
    EXPECT_EQ(error.find('\0'), std::string::npos);
    EXPECT_FALSE(parse_param_value(make_spec(PLEXUS_PARAM_BOOL), "\x1b[31m", &error));
    EXPECT_THAT(error, HasSubstr("'\\x1b[31m'"));
}

TEST(ParamValue, NeverCrashesOnArbitraryBytes) {
    std::string junk;
    for (int i = 0; i < 256; ++i) junk += static_cast<char>(i);
    ParamSpec specs[] = {make_spec(PLEXUS_PARAM_BOOL),   make_spec(PLEXUS_PARAM_INT),
                         make_spec(PLEXUS_PARAM_SIZE),   make_spec(PLEXUS_PARAM_DOUBLE),
                         make_spec(PLEXUS_PARAM_STRING), enum_spec(),
                         make_spec(PLEXUS_PARAM_LIST)};
    for (const ParamSpec &spec : specs) {
        for (size_t len = 0; len <= junk.size(); len += 17) {
            std::string error;
            (void)parse_param_value(spec, std::string_view(junk).substr(0, len), &error);
        }
    }
    std::string error;
    const std::string huge(100000, '9');
    EXPECT_FALSE(parse_param_value(make_spec(PLEXUS_PARAM_INT), huge, &error));
    EXPECT_LT(error.size(), 1000u);  // long values are cut in messages
}

TEST(ParamValue, UnknownTypeIsAnErrorNotACrash) {
    // 7: past PLEXUS_PARAM_LIST yet inside the enum's value range, so the cast is defined in C++.
    ParamSpec spec = make_spec(static_cast<plexus_param_type_t>(7));
    std::string error;
    EXPECT_FALSE(parse_param_value(spec, "1", &error));
    EXPECT_THAT(error, HasSubstr("test_x: '1'"));
    EXPECT_STREQ(param_type_name(static_cast<plexus_param_type_t>(7)), "unknown");
}

TEST(ParamValue, TypeNames) {
    EXPECT_STREQ(param_type_name(PLEXUS_PARAM_BOOL), "bool");
    EXPECT_STREQ(param_type_name(PLEXUS_PARAM_INT), "int");
    EXPECT_STREQ(param_type_name(PLEXUS_PARAM_SIZE), "size");
    EXPECT_STREQ(param_type_name(PLEXUS_PARAM_DOUBLE), "double");
    EXPECT_STREQ(param_type_name(PLEXUS_PARAM_STRING), "string");
    EXPECT_STREQ(param_type_name(PLEXUS_PARAM_ENUM), "enum");
    EXPECT_STREQ(param_type_name(PLEXUS_PARAM_LIST), "list");
}

TEST(ParamValue, DescribeAccepted) {
    EXPECT_EQ(describe_accepted(int_range(0, 64)), "an integer from 0 to 64");
    EXPECT_EQ(describe_accepted(enum_spec()), "one of: ltdl, boost");
    EXPECT_EQ(describe_accepted(make_spec(PLEXUS_PARAM_STRING)), "any text");
    EXPECT_THAT(describe_accepted(make_spec(PLEXUS_PARAM_BOOL)), HasSubstr("enabled/disabled"));
    EXPECT_THAT(describe_accepted(make_spec(PLEXUS_PARAM_DOUBLE)), HasSubstr("finite"));
    EXPECT_THAT(describe_accepted(make_spec(PLEXUS_PARAM_LIST)), HasSubstr("comma-separated"));
}

}  // namespace
}  // namespace plexus::mca
