// The repository: file-name parsing, scanning folders, duplicates, failures with file, cause
// and hint, and the static table, with every loader this build has.
#include <gtest/gtest.h>

#include <plexus/btl.h>

#include <cstdio>
#include <filesystem>

#include "mca/component_repository.h"
#include "plugin_paths.h"

using namespace plexus::mca;
namespace fs = std::filesystem;

TEST(ComponentFileName, SplitsFrameworkAndName) {
    std::string fw, name;
    ASSERT_TRUE(parse_component_file_name("plexus_coll_shm_inter.so", &fw, &name));
    EXPECT_EQ(fw, "coll");
    EXPECT_EQ(name, "shm_inter");
    ASSERT_TRUE(parse_component_file_name("plexus_reconf_pro.so", &fw, &name));
    EXPECT_EQ(fw, "reconf");
    EXPECT_FALSE(parse_component_file_name("plexus_foo_bar.so", &fw, &name));
    EXPECT_FALSE(parse_component_file_name("plexus_btl_.so", &fw, &name));
    EXPECT_FALSE(parse_component_file_name("libplexus.so", &fw, &name));
    EXPECT_FALSE(parse_component_file_name("plexus_btl_sm.la", &fw, &name));
}

class Repository : public ::testing::TestWithParam<std::string> {
protected:
    std::unique_ptr<Loader> loader = make_loader(GetParam());
};

TEST_P(Repository, FindsEveryGoodComponentOnce) {
    ComponentRepository repo(*loader, {plexus::test::good_plugin_dir()}, nullptr);
    repo.scan();
    EXPECT_TRUE(repo.failures().empty());
    for (const char *fw : {"btl", "coll", "osc", "dpm", "reconf"}) {
        ComponentRecord *c = repo.find(fw, "good");
        ASSERT_NE(c, nullptr) << fw;
        EXPECT_EQ(c->origin, plexus::test::good_plugin_dir() + "/plexus_" + fw + "_good.so");
        EXPECT_STREQ(c->desc->name, "good");
        EXPECT_EQ(repo.find(c->desc), c);
    }
    auto btls = repo.in_framework("btl");
    ASSERT_EQ(btls.size(), 3u);
    EXPECT_EQ(btls[0]->name, "good");
    EXPECT_EQ(btls[1]->name, "nodev");
    EXPECT_EQ(btls[2]->name, "other");
}

TEST_P(Repository, RecordsEachBrokenPluginWithItsCause) {
    ComponentRepository repo(*loader, {plexus::test::broken_plugin_dir()}, nullptr);
    repo.scan();
    EXPECT_TRUE(repo.components().empty());
    ASSERT_EQ(repo.failures().size(), 3u);
    const LoadFailure *undef = repo.failure_for("btl", "undefsym");
    ASSERT_NE(undef, nullptr);
    EXPECT_NE(undef->cause.find("undefined symbol: plexus_test_symbol_that_does_not_exist"), std::string::npos)
        << undef->cause;
    EXPECT_NE(undef->hint.find("rebuild"), std::string::npos);
    const LoadFailure *abi = repo.failure_for("btl", "abinext");
    ASSERT_NE(abi, nullptr);
    EXPECT_NE(abi->cause.find("built for MCA ABI 2."), std::string::npos) << abi->cause;
    const LoadFailure *wrong = repo.failure_for("coll", "wrongfw");
    ASSERT_NE(wrong, nullptr);
    EXPECT_NE(wrong->cause.find("framework 'osc'"), std::string::npos) << wrong->cause;
    EXPECT_NE(wrong->file.find("plexus_coll_wrongfw.so"), std::string::npos);
}

TEST_P(Repository, AFileTheFilterRefusesIsNotedNotOpenedUntilAsked) {
    ComponentRepository repo(*loader, {plexus::test::broken_plugin_dir()}, nullptr);
    std::vector<std::string> asked;
    repo.scan([&](const std::string &fw, const std::string &name) {
        asked.push_back(fw + "_" + name);
        return name != "undefsym";
    });
    EXPECT_EQ(asked.size(), 3u);
    EXPECT_EQ(repo.failure_for("btl", "undefsym"), nullptr);  // never opened: no failure yet
    ASSERT_EQ(repo.deferred().size(), 1u);
    EXPECT_EQ(repo.deferred()[0].path, plexus::test::broken_plugin_dir() + "/plexus_btl_undefsym.so");
    EXPECT_EQ(repo.failures().size(), 2u);
    EXPECT_TRUE(repo.load_deferred([](const std::string &, const std::string &) { return false; }).empty());
    EXPECT_EQ(repo.deferred().size(), 1u);
    EXPECT_TRUE(repo.load_deferred().empty());  // it fails when opened, naming file and cause
    EXPECT_TRUE(repo.deferred().empty());
    const LoadFailure *undef = repo.failure_for("btl", "undefsym");
    ASSERT_NE(undef, nullptr);
    EXPECT_NE(undef->cause.find("undefined symbol"), std::string::npos) << undef->cause;
}

TEST_P(Repository, LoadingADeferredFileAddsItsComponent) {
    ComponentRepository repo(*loader, {plexus::test::good_plugin_dir()}, nullptr);
    repo.scan([](const std::string &fw, const std::string &) { return fw != "osc"; });
    EXPECT_EQ(repo.find("osc", "good"), nullptr);
    ASSERT_NE(repo.find("btl", "good"), nullptr);
    auto added = repo.load_deferred([](const std::string &fw, const std::string &) { return fw == "osc"; });
    ASSERT_EQ(added.size(), 1u);
    EXPECT_EQ(added[0], repo.find("osc", "good"));
    EXPECT_EQ(repo.in_framework("osc").size(), 1u);
}

TEST_P(Repository, SecondCopyOfADeferredFileIsStillADuplicate) {
    fs::path dir = fs::temp_directory_path() / ("plexus-dup-deferred-" + std::to_string(getpid()));
    fs::create_directories(dir);
    fs::copy_file(plexus::test::good_plugin_dir() + "/plexus_btl_good.so", dir / "plexus_btl_good.so",
                  fs::copy_options::overwrite_existing);
    ComponentRepository repo(*loader, {plexus::test::good_plugin_dir(), dir.string()}, nullptr);
    repo.scan([](const std::string &, const std::string &name) { return name != "good"; });
    ASSERT_EQ(repo.failures().size(), 1u);
    EXPECT_NE(repo.failures()[0].cause.find("duplicate: btl_good was already found in " +
                                            plexus::test::good_plugin_dir() + "/plexus_btl_good.so"),
              std::string::npos)
        << repo.failures()[0].cause;
    fs::remove_all(dir);
}

TEST_P(Repository, SecondCopyIsADuplicateAndTheFirstWins) {
    fs::path dir = fs::temp_directory_path() / ("plexus-dup-" + std::to_string(getpid()));
    fs::create_directories(dir);
    fs::copy_file(plexus::test::good_plugin_dir() + "/plexus_btl_good.so", dir / "plexus_btl_good.so",
                  fs::copy_options::overwrite_existing);
    ComponentRepository repo(*loader, {plexus::test::good_plugin_dir(), dir.string()}, nullptr);
    repo.scan();
    ASSERT_EQ(repo.failures().size(), 1u);
    EXPECT_NE(repo.failures()[0].cause.find("duplicate: btl_good was already found in " +
                                            plexus::test::good_plugin_dir()),
              std::string::npos)
        << repo.failures()[0].cause;
    EXPECT_EQ(repo.find("btl", "good")->origin, plexus::test::good_plugin_dir() + "/plexus_btl_good.so");
    fs::remove_all(dir);
}

TEST_P(Repository, UnknownFrameworkAndJunkFilesAreFailuresNotCrashes) {
    fs::path dir = fs::temp_directory_path() / ("plexus-junk-" + std::to_string(getpid()));
    fs::create_directories(dir);
    { std::FILE *f = std::fopen((dir / "plexus_btl_junk.so").c_str(), "w"); std::fputs("not elf", f); std::fclose(f); }
    { std::FILE *f = std::fopen((dir / "plexus_nosuchfw_x.so").c_str(), "w"); std::fclose(f); }
    { std::FILE *f = std::fopen((dir / "README").c_str(), "w"); std::fclose(f); }
    ComponentRepository repo(*loader, {dir.string()}, nullptr);
    repo.scan();
    ASSERT_EQ(repo.failures().size(), 2u);
    EXPECT_NE(repo.failure_for("btl", "junk"), nullptr);
    bool named_fw = false;
    for (const auto &f : repo.failures())
        named_fw |= f.cause.find("names no known framework ('nosuchfw')") != std::string::npos;
    EXPECT_TRUE(named_fw);
    fs::remove_all(dir);
}

namespace {
int ok_open(const plexus_host_api_t *, plexus_reason_t *) { return PLEXUS_SUCCESS; }
int ok_close() { return PLEXUS_SUCCESS; }
int ok_query(const void *, plexus_query_result_t *) { return PLEXUS_SUCCESS; }
const plexus_component_t kLinkedIn = {
    PLEXUS_COMPONENT_INIT(btl, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, linkedin, 1, 2, 3),
    "plexus-tests", "BSD-3-Clause", "a component in the static table", nullptr, ok_open, ok_close, ok_query};
plexus_component_t kBrokenStatic = kLinkedIn;
}  // namespace

TEST_P(Repository, StaticTableComesFirstAndIsChecked) {
    kBrokenStatic.abi_major = PLEXUS_MCA_ABI_MAJOR + 3;
    const plexus_component_t *table[] = {&kLinkedIn, &kBrokenStatic, nullptr};
    ComponentRepository repo(*loader, {plexus::test::good_plugin_dir()}, table);
    repo.scan();
    ComponentRecord *c = repo.find("btl", "linkedin");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->origin, "static (linked into libplexus)");
    EXPECT_EQ(c->version(), "1.2.3");
    EXPECT_EQ(repo.components().front()->name, "linkedin");
    ASSERT_EQ(repo.failures().size(), 1u);
    EXPECT_EQ(repo.failures()[0].file, "(static)");
    EXPECT_NE(repo.failures()[0].cause.find("built for MCA ABI 4."), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Loaders, Repository, ::testing::ValuesIn(loader_names()),
                         [](const auto &info) { return info.param; });
