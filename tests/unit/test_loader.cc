// Loader backends: every backend loads good components strictly and locally, and reports each kind
// of bad file in the dynamic linker's own words. Each test runs once per backend of this build.
#include <gmock/gmock.h>

#include <dlfcn.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include <plexus/component.h>

#include "mca/loader.h"
#include "plexus_config.h"
#include "plugin_paths.h"

namespace plexus::mca {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::Not;

// A scratch folder, removed with everything in it.
class TempDir {
public:
    TempDir() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "plexus_loader_XXXXXX").string();
        if (mkdtemp(pattern.data())) path_ = pattern;
    }
    ~TempDir() {
        std::error_code ignored;
        if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;

    const std::string &path() const { return path_; }

private:
    std::string path_;
};

std::string broken(const std::string &file) { return test::broken_plugin_dir() + "/" + file; }

class LoaderTest : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        loader_ = make_loader(GetParam());
        ASSERT_NE(loader_, nullptr) << "loader_names() lists '" << GetParam() << "'";
    }

    // Opening a file that must fail; returns the error text.
    std::string open_failure(const std::string &path) {
        std::string error;
        auto object = loader_->open(path, &error);
        EXPECT_EQ(object, nullptr) << path << " loaded but should not have";
        EXPECT_FALSE(error.empty()) << "no error text for " << path;
        return error;
    }

    std::unique_ptr<Loader> loader_;
};

TEST_P(LoaderTest, NameMatchesTheOneItWasMadeBy) { EXPECT_EQ(loader_->name(), GetParam()); }

TEST_P(LoaderTest, LoadsGoodComponentAndFindsItsDescriptor) {
    const std::string path = test::good_plugin_dir() + "/plexus_btl_good.so";
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << path << " absent: btl_good is built into libplexus (--enable-mca-static)";
    std::string error;
    auto object = loader_->open(path, &error);
    ASSERT_NE(object, nullptr) << error;
    auto desc =
        static_cast<const plexus_component_t *>(object->symbol("plexus_btl_good_component"));
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(desc->magic, PLEXUS_COMPONENT_MAGIC);
    EXPECT_EQ(object->symbol("plexus_btl_nothere_component"), nullptr);
}

// The broken folder is always built as plugins, so this runs whatever configure made static.
TEST_P(LoaderTest, LoadsAnyWellFormedObjectAndMissesAbsentSymbols) {
    std::string error;
    auto object = loader_->open(broken("plexus_coll_wrongfw.so"), &error);
    ASSERT_NE(object, nullptr) << error;
    EXPECT_NE(object->symbol("plexus_coll_wrongfw_component"), nullptr);
    EXPECT_EQ(object->symbol("plexus_coll_nothere_component"), nullptr);
    EXPECT_EQ(object->symbol(""), nullptr);
}

TEST_P(LoaderTest, ExportsDoNotLeakIntoTheGlobalNamespace) {
    std::string error;
    auto object = loader_->open(broken("plexus_coll_wrongfw.so"), &error);
    ASSERT_NE(object, nullptr) << error;
    EXPECT_EQ(dlsym(RTLD_DEFAULT, "plexus_coll_wrongfw_component"), nullptr);
}

TEST_P(LoaderTest, DestroyingTheObjectUnloadsTheFile) {
    const std::string path = broken("plexus_coll_wrongfw.so");
    std::string error;
    ASSERT_NE(loader_->open(path, &error), nullptr) << error;
    void *still_loaded = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
    if (still_loaded) dlclose(still_loaded);
    EXPECT_EQ(still_loaded, nullptr) << "a handle on " << path << " leaked";
}

TEST_P(LoaderTest, ObjectOutlivesItsLoader) {
    std::string error;
    auto object = loader_->open(broken("plexus_coll_wrongfw.so"), &error);
    ASSERT_NE(object, nullptr) << error;
    loader_.reset();
    auto desc =
        static_cast<const plexus_component_t *>(object->symbol("plexus_coll_wrongfw_component"));
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(desc->magic, PLEXUS_COMPONENT_MAGIC);
}

// The point of strict binding: lazily this file loads and the process dies at open(); reaching the
// assertions at all shows the process survived.
TEST_P(LoaderTest, UndefinedSymbolFailsAtLoadWithTheLinkersWords) {
    const std::string error = open_failure(broken("plexus_btl_undefsym.so"));
    EXPECT_THAT(error, HasSubstr("undefined symbol: plexus_test_symbol_that_does_not_exist"));
    EXPECT_THAT(error, Not(HasSubstr("file not found")));
}

TEST_P(LoaderTest, MissingFileSaysSo) {
    TempDir dir;
    ASSERT_FALSE(dir.path().empty());
    EXPECT_THAT(open_failure(dir.path() + "/plexus_btl_nothere.so"), HasSubstr("No such file"));
}

TEST_P(LoaderTest, MissingBareFileNameIsNotSearchedForInTheLibraryPath) {
    // "libc.so.6" would be found by a library path search; a loader opens files, not sonames.
    EXPECT_THAT(open_failure("libc.so.6"), HasSubstr("No such file"));
}

TEST_P(LoaderTest, NonElfFileGivesTheLinkersReason) {
    TempDir dir;
    ASSERT_FALSE(dir.path().empty());
    const std::string path = dir.path() + "/plexus_btl_junk.so";
    std::ofstream(path)
        << "This is a text file that happens to be named like a component, and it is "
           "long enough that the dynamic linker reads a whole ELF header from it.\n";
    EXPECT_THAT(open_failure(path),
                AnyOf(HasSubstr("invalid ELF header"), HasSubstr("file too short")));
}

// Boost.DLL on its own would hand back the main program for this path.
TEST_P(LoaderTest, TheProgramItselfIsNotAComponent) { open_failure("/proc/self/exe"); }

TEST_P(LoaderTest, EmptyPathFails) { open_failure(""); }

TEST_P(LoaderTest, NullErrorPointerIsAllowed) {
    EXPECT_EQ(loader_->open(broken("plexus_btl_undefsym.so"), nullptr), nullptr);
}

INSTANTIATE_TEST_SUITE_P(Backends, LoaderTest, ::testing::ValuesIn(loader_names()),
                         [](const auto &info) { return info.param; });

TEST(LoaderFactory, UnknownNameGivesNoLoader) {
    EXPECT_EQ(make_loader("bogus"), nullptr);
    EXPECT_EQ(make_loader(""), nullptr);
    EXPECT_EQ(make_loader("LTDL"), nullptr);
}

TEST(LoaderFactory, NamesTheBackendsOfThisBuild) {
    const auto names = loader_names();
    EXPECT_THAT(names, ::testing::Contains("ltdl"));
#ifdef PLEXUS_HAVE_BOOST_DLL
    EXPECT_THAT(names, ::testing::Contains("boost"));
#else
    EXPECT_THAT(names, Not(::testing::Contains("boost")));
#endif
    for (const auto &name : names) EXPECT_NE(make_loader(name), nullptr) << name;
}

}  // namespace
}  // namespace plexus::mca
