// Unit tests of the parameter sources: the mca-params file format, the drop-in directory's order,
// the environment prefix, the command line, and how unreadable or malformed input is reported.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "base/param_sources.h"

namespace plexus::mca {

// Lets gtest compare and print settings field by field. In plexus::mca, not the anonymous
// namespace, so that argument-dependent lookup from inside gtest finds them.
bool operator==(const Setting &a, const Setting &b) {
    return a.name == b.name && a.value == b.value && a.kind == b.kind && a.origin == b.origin;
}
void PrintTo(const Setting &s, std::ostream *os) {
    *os << "{" << s.name << "=" << s.value << ", " << source_kind_name(s.kind) << ", " << s.origin
        << "}";
}

namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class ParamSources : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/plexus_param_sources_XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    // Writes contents to dir_/relative (creating parent directories) and returns the full path.
    std::string write(const std::string &relative, const std::string &contents) {
        const std::filesystem::path path = std::filesystem::path(dir_) / relative;
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary) << contents;
        return path.string();
    }

    std::string path(const std::string &relative) const { return dir_ + "/" + relative; }

    std::vector<Setting> collect_file(const std::string &contents,
                                      std::vector<std::string> *errors) {
        SourceConfig config;
        config.system_file = write("sys.conf", contents);
        return collect_settings(config, errors);
    }

    std::string dir_;
};

TEST_F(ParamSources, ReadsEverySourceInPrecedenceOrder) {
    SourceConfig config;
    config.system_file = write("etc/plexus/mca-params.conf", "sys_a = 1\nsys_b = 2\n");
    config.system_dropin_dir = path("etc/plexus/mca-params.d");
    // Written in reverse order: the order read must come from the names, not the directory.
    write("etc/plexus/mca-params.d/20-second.conf", "dropin_b = from20\n");
    write("etc/plexus/mca-params.d/10-first.conf", "dropin_a = from10\n");
    write("etc/plexus/mca-params.d/README", "not = read\n");
    write("etc/plexus/mca-params.d/30.conf.bak", "not = read\n");
    write("etc/plexus/mca-params.d/.hidden.conf", "not = read\n");
    write("etc/plexus/mca-params.d/subdir.conf/x.conf", "not = read\n");
    config.user_file = write("home/.plexus/mca-params.conf", "user_a = u\n");
    config.environment = {{"PATH", "/bin"},
                          {"PLEXUS_MCA_env_a", "e"},
                          {"PLEXUS_MCA_", "no name"},
                          {"plexus_mca_lower", "prefix is case-sensitive"},
                          {"XPLEXUS_MCA_y", "not a prefix"},
                          {"PLEXUS_MCA_env_b", ""}};
    config.cli = {{"cli_a", "c1"}, {"cli_a", "c2"}};
    std::vector<std::string> errors;
    const std::vector<Setting> settings = collect_settings(config, &errors);
    EXPECT_THAT(errors, IsEmpty());
    const std::string dropin = config.system_dropin_dir;
    EXPECT_THAT(
        settings,
        ElementsAre(
            Setting{"sys_a", "1", SourceKind::SystemFile, config.system_file + ":1"},
            Setting{"sys_b", "2", SourceKind::SystemFile, config.system_file + ":2"},
            Setting{"dropin_a", "from10", SourceKind::SystemDropIn, dropin + "/10-first.conf:1"},
            Setting{"dropin_b", "from20", SourceKind::SystemDropIn, dropin + "/20-second.conf:1"},
            Setting{"user_a", "u", SourceKind::UserFile, config.user_file + ":1"},
            Setting{"env_a", "e", SourceKind::Env, "env PLEXUS_MCA_env_a"},
            Setting{"env_b", "", SourceKind::Env, "env PLEXUS_MCA_env_b"},
            Setting{"cli_a", "c1", SourceKind::Cli, "cli"},
            Setting{"cli_a", "c2", SourceKind::Cli, "cli"}));
}

TEST_F(ParamSources, DropInFilesSortBytewise) {
    SourceConfig config;
    config.system_dropin_dir = path("d");
    write("d/b.conf", "x = b\n");
    write("d/B.conf", "x = B\n");
    write("d/a10.conf", "x = a10\n");
    write("d/a9.conf", "x = a9\n");
    std::vector<std::string> values;
    for (const Setting &s : collect_settings(config, nullptr)) values.push_back(s.value);
    EXPECT_THAT(values, ElementsAre("B", "a10", "a9", "b"));
}

TEST_F(ParamSources, FileFormatTrimsStripsQuotesAndSkipsComments) {
    std::vector<std::string> errors;
    const std::vector<Setting> settings = collect_file(
        "# a comment\n"
        "   # an indented comment = not a setting\n"
        "\n"
        "   \t \n"
        "  spaced\t=\t  value with spaces  \n"
        "quoted = \"  kept inside  \"\n"
        "tight=1\n"
        "has_equals = a=b\n"
        "inline = x # not a comment\n"
        "empty =\n"
        "empty_quotes = \"\"\n"
        "one_quote = \"\n"
        "half_quoted = \"abc\n"
        "crlf = yes\r\n"
        "no_newline_at_end = last",
        &errors);
    EXPECT_THAT(errors, IsEmpty());
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const Setting &s : settings) pairs.emplace_back(s.name, s.value);
    using P = std::pair<std::string, std::string>;
    EXPECT_THAT(
        pairs,
        ElementsAre(P{"spaced", "value with spaces"}, P{"quoted", "  kept inside  "},
                    P{"tight", "1"}, P{"has_equals", "a=b"}, P{"inline", "x # not a comment"},
                    P{"empty", ""}, P{"empty_quotes", ""}, P{"one_quote", "\""},
                    P{"half_quoted", "\"abc"}, P{"crlf", "yes"}, P{"no_newline_at_end", "last"}));
    ASSERT_EQ(settings.size(), 11u);
    EXPECT_EQ(settings[0].origin, path("sys.conf") + ":5");
    EXPECT_EQ(settings[10].origin, path("sys.conf") + ":15");
}

TEST_F(ParamSources, Utf8ByteOrderMarkIsIgnored) {
    std::vector<std::string> errors;
    const std::vector<Setting> settings = collect_file("\xEF\xBB\xBFname = v\n", &errors);
    EXPECT_THAT(errors, IsEmpty());
    ASSERT_EQ(settings.size(), 1u);
    EXPECT_EQ(settings[0].name, "name");
}

TEST_F(ParamSources, MalformedLinesAreReportedWithFileAndLineAndSkipped) {
    std::vector<std::string> errors;
    const std::vector<Setting> settings = collect_file(
        "good_1 = 1\n"
        "no equals sign\n"
        "= value without name\n"
        "bad-name = 1\n"
        "bad name = 1\n"
        "good_2 = 2\n"
        "  \"quoted\" = 3\n"
        "dotted.name = 4\r\n",
        &errors);
    const std::string file = path("sys.conf");
    EXPECT_THAT(errors,
                ElementsAre(file + ":2: expected 'name = value', got 'no equals sign'",
                            file + ":3: expected 'name = value', got '= value without name'",
                            file + ":4: expected 'name = value', got 'bad-name = 1'",
                            file + ":5: expected 'name = value', got 'bad name = 1'",
                            file + ":7: expected 'name = value', got '  \"quoted\" = 3'",
                            file + ":8: expected 'name = value', got 'dotted.name = 4'"));
    ASSERT_EQ(settings.size(), 2u);
    EXPECT_EQ(settings[0].origin, file + ":1");
    EXPECT_EQ(settings[1].name, "good_2");
    EXPECT_EQ(settings[1].origin, file + ":6");
}

TEST_F(ParamSources, MalformedLineInDropInNamesThatFile) {
    SourceConfig config;
    config.system_dropin_dir = path("d");
    const std::string file = write("d/50-x.conf", "ok = 1\noops\n");
    std::vector<std::string> errors;
    collect_settings(config, &errors);
    EXPECT_THAT(errors, ElementsAre(file + ":2: expected 'name = value', got 'oops'"));
}

TEST_F(ParamSources, MissingFilesAndDirectoriesAreSkippedSilently) {
    SourceConfig config;
    config.system_file = path("nope/mca-params.conf");
    config.system_dropin_dir = path("nope/mca-params.d");
    config.user_file = path("nope/user.conf");
    std::vector<std::string> errors;
    EXPECT_THAT(collect_settings(config, &errors), IsEmpty());
    EXPECT_THAT(errors, IsEmpty());
    // Empty paths (no HOME, for instance) too.
    EXPECT_THAT(collect_settings(SourceConfig{}, &errors), IsEmpty());
    EXPECT_THAT(errors, IsEmpty());
    // A path through a regular file is as missing as one through nothing.
    config.system_dropin_dir = write("plain", "") + "/mca-params.d";
    EXPECT_THAT(collect_settings(config, &errors), IsEmpty());
    EXPECT_THAT(errors, IsEmpty());
}

TEST_F(ParamSources, AFileThatCannotBeReadIsAnError) {
    SourceConfig config;
    config.system_file = path("adir");
    std::filesystem::create_directories(config.system_file);
    config.user_file = write("user.conf", "still_read = 1\n");
    std::vector<std::string> errors;
    const std::vector<Setting> settings = collect_settings(config, &errors);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_THAT(errors[0], HasSubstr(config.system_file + ": cannot read: "));
    ASSERT_EQ(settings.size(), 1u);  // the other sources are still read
    EXPECT_EQ(settings[0].name, "still_read");
}

TEST_F(ParamSources, PermissionDeniedIsAnError) {
    if (geteuid() == 0) GTEST_SKIP() << "root reads files regardless of their mode";
    SourceConfig config;
    config.system_file = write("locked.conf", "x = 1\n");
    config.system_dropin_dir = path("locked.d");
    write("locked.d/a.conf", "y = 1\n");
    ASSERT_EQ(chmod(config.system_file.c_str(), 0), 0);
    ASSERT_EQ(chmod(config.system_dropin_dir.c_str(), 0), 0);
    std::vector<std::string> errors;
    EXPECT_THAT(collect_settings(config, &errors), IsEmpty());
    chmod(config.system_dropin_dir.c_str(), 0700);  // so TearDown can remove it
    ASSERT_EQ(errors.size(), 2u);
    EXPECT_THAT(errors[0], HasSubstr(config.system_file + ": cannot read: "));
    EXPECT_THAT(errors[1], HasSubstr(config.system_dropin_dir + ": cannot read: "));
}

// Sets or unsets an environment variable for one test and restores it afterwards.
class ScopedEnv {
public:
    ScopedEnv(const char *name, const char *value) : name_(name) {
        if (const char *old = std::getenv(name)) old_ = old;
        value ? setenv(name, value, 1) : unsetenv(name);
    }
    ~ScopedEnv() { old_ ? setenv(name_, old_->c_str(), 1) : unsetenv(name_); }

private:
    const char *name_;
    std::optional<std::string> old_;
};

TEST_F(ParamSources, FromProcessUsesSysconfdirHomeAndEnviron) {
    ScopedEnv home("HOME", dir_.c_str());
    ScopedEnv var("PLEXUS_MCA_test_from_process", "a=b");
    const SourceConfig config = SourceConfig::from_process("/opt/px/etc");
    EXPECT_EQ(config.system_file, "/opt/px/etc/plexus/mca-params.conf");
    EXPECT_EQ(config.system_dropin_dir, "/opt/px/etc/plexus/mca-params.d");
    EXPECT_EQ(config.user_file, dir_ + "/.plexus/mca-params.conf");
    EXPECT_THAT(config.environment, testing::Contains(std::pair<std::string, std::string>{
                                        "PLEXUS_MCA_test_from_process", "a=b"}));
    EXPECT_THAT(config.cli, IsEmpty());
}

TEST_F(ParamSources, FromProcessWithoutHomeUsesThePasswordDatabase) {
    ScopedEnv home("HOME", nullptr);
    const passwd *pw = getpwuid(getuid());
    const SourceConfig config = SourceConfig::from_process("/etc");
    if (pw && pw->pw_dir && *pw->pw_dir) {
        EXPECT_EQ(config.user_file, std::string(pw->pw_dir) + "/.plexus/mca-params.conf");
    } else {
        EXPECT_EQ(config.user_file, "");
    }
}

TEST_F(ParamSources, NamesPlexrunTookFromItsCommandLineAreCliSettings) {
    SourceConfig config;
    config.environment = {{"PLEXUS_MCA_btl", "sm,self"},
                          {"PLEXUS_MCA_FROM_CLI", " btl , coll_base_verbose,,not_set_anywhere"},
                          {"PLEXUS_MCA_coll_base_verbose", "10"},
                          {"PLEXUS_MCA_osc", "rdma"}};
    config.cli = {{"btl", "tcp"}};
    std::vector<std::string> errors;
    EXPECT_THAT(
        collect_settings(config, &errors),
        ElementsAre(Setting{"btl", "sm,self", SourceKind::Cli, "cli (plexrun --mca)"},
                    Setting{"coll_base_verbose", "10", SourceKind::Cli, "cli (plexrun --mca)"},
                    Setting{"osc", "rdma", SourceKind::Env, "env PLEXUS_MCA_osc"},
                    // plexus_info's own --mca comes after, so it wins within the kind.
                    Setting{"btl", "tcp", SourceKind::Cli, "cli"}));
    EXPECT_THAT(errors, IsEmpty());
}

TEST_F(ParamSources, FromCliIsReservedAndNeverASetting) {
    SourceConfig config;
    config.environment = {{"PLEXUS_MCA_FROM_CLI", ""}, {"PLEXUS_MCA_FROM_CLIX", "1"}};
    std::vector<std::string> errors;
    // Only the exact name is reserved; a longer one is an ordinary (if unknown) setting.
    EXPECT_THAT(collect_settings(config, &errors),
                ElementsAre(Setting{"FROM_CLIX", "1", SourceKind::Env, "env PLEXUS_MCA_FROM_CLIX"}));
}

TEST_F(ParamSources, FromCliNamesNothingWithoutTheVariable) {
    SourceConfig config;
    // A name that only looks listed (the list is in a different variable) stays environment.
    config.environment = {{"PLEXUS_MCA_btl", "sm"}, {"FROM_CLI", "btl"}};
    EXPECT_THAT(collect_settings(config, nullptr),
                ElementsAre(Setting{"btl", "sm", SourceKind::Env, "env PLEXUS_MCA_btl"}));
}

TEST(SourceKindName, NamesEveryKind) {
    EXPECT_STREQ(source_kind_name(SourceKind::Default), "default");
    EXPECT_STREQ(source_kind_name(SourceKind::SystemFile), "system file");
    EXPECT_STREQ(source_kind_name(SourceKind::SystemDropIn), "system drop-in file");
    EXPECT_STREQ(source_kind_name(SourceKind::UserFile), "user file");
    EXPECT_STREQ(source_kind_name(SourceKind::Env), "environment");
    EXPECT_STREQ(source_kind_name(SourceKind::Cli), "command line");
}

TEST(SourceKind, DeclarationOrderIsPrecedenceOrder) {
    EXPECT_LT(SourceKind::Default, SourceKind::SystemFile);
    EXPECT_LT(SourceKind::SystemFile, SourceKind::SystemDropIn);
    EXPECT_LT(SourceKind::SystemDropIn, SourceKind::UserFile);
    EXPECT_LT(SourceKind::UserFile, SourceKind::Env);
    EXPECT_LT(SourceKind::Env, SourceKind::Cli);
}

}  // namespace
}  // namespace plexus::mca
