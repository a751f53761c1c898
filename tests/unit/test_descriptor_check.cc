// The descriptor check: a valid descriptor passes, and each defect on its own is reported with its
// own cause; the deliberately broken test components are caught once loaded.
#include <gmock/gmock.h>

#include <string>

#include <gtest/gtest.h>

#include <plexus/btl.h>
#include <plexus/osc.h>

#include "mca/descriptor_check.h"
#include "mca/loader.h"
#include "plugin_paths.h"

namespace plexus::mca {
namespace {

using ::testing::HasSubstr;

int fake_open(const plexus_host_api_t *, plexus_reason_t *) { return PLEXUS_SUCCESS; }
int fake_close() { return PLEXUS_SUCCESS; }
int fake_query(const void *, plexus_query_result_t *) { return PLEXUS_SUCCESS; }

plexus_component_t valid_btl() {
    return {PLEXUS_COMPONENT_INIT(btl, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, demo, 1, 2, 3),
            "plexus-btl-demo",
            "BSD-3-Clause",
            "demo btl",
            nullptr,
            fake_open,
            fake_close,
            fake_query};
}

std::string v(unsigned major, unsigned minor) {
    return std::to_string(major) + "." + std::to_string(minor);
}
const std::string kCoreAbi = v(PLEXUS_MCA_ABI_MAJOR, PLEXUS_MCA_ABI_MINOR);
const std::string kFrameworkList = "btl, coll, osc, dpm, reconf";

// The cause for d checked against file plexus_btl_demo.so; "" when it passes.
std::string cause_of(const plexus_component_t &d, std::string_view fw = "btl",
                     std::string_view name = "demo") {
    auto problem = check_descriptor(&d, fw, name);
    return problem ? problem->cause : "";
}

TEST(DescriptorCheck, ValidDescriptorPasses) {
    const auto d = valid_btl();
    EXPECT_EQ(check_descriptor(&d, "btl", "demo"), std::nullopt);
    EXPECT_EQ(check_descriptor(&d, {}, {}), std::nullopt) << "static-table form";
}

TEST(DescriptorCheck, RegisterParamsMayBeNull) {
    auto d = valid_btl();
    d.register_params = nullptr;
    EXPECT_EQ(cause_of(d), "");
}

TEST(DescriptorCheck, LargerStructFromSameAbiPasses) {
    auto d = valid_btl();
    d.struct_size += 64;
    EXPECT_EQ(cause_of(d), "");
}

TEST(DescriptorCheck, NullPointer) {
    EXPECT_NE(check_descriptor(nullptr, "btl", "demo"), std::nullopt);
}

TEST(DescriptorCheck, BadMagic) {
    auto d = valid_btl();
    d.magic = 0xdeadbeef;
    EXPECT_THAT(cause_of(d), HasSubstr("not a Plexus component (bad magic 0xdeadbeef"));
}

TEST(DescriptorCheck, BadMagicWinsOverEverythingElse) {
    plexus_component_t d{};  // all zero, as an alien struct might be
    d.magic = 0x12345678;
    EXPECT_THAT(cause_of(d), HasSubstr("bad magic 0x12345678"));
}

TEST(DescriptorCheck, StructTooSmall) {
    auto d = valid_btl();
    d.struct_size = 16;
    const std::string cause = cause_of(d);
    EXPECT_THAT(cause, HasSubstr("16 bytes"));
    EXPECT_THAT(cause, HasSubstr(std::to_string(sizeof(plexus_component_t))));
}

TEST(DescriptorCheck, StructOneByteShortOfQuery) {
    auto d = valid_btl();
    d.struct_size = sizeof(plexus_component_t) - 1;
    EXPECT_THAT(cause_of(d), HasSubstr("bytes"));
}

TEST(DescriptorCheck, AbiMajorNewer) {
    auto d = valid_btl();
    d.abi_major = PLEXUS_MCA_ABI_MAJOR + 1;
    d.abi_minor = 0;
    auto problem = check_descriptor(&d, "btl", "demo");
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->cause, "built for MCA ABI " + v(PLEXUS_MCA_ABI_MAJOR + 1, 0) +
                                  ", this core supports " + kCoreAbi);
    EXPECT_THAT(problem->hint, HasSubstr("pkg-config plexus-component"));
}

TEST(DescriptorCheck, AbiMajorOlder) {
    auto d = valid_btl();
    d.abi_major = PLEXUS_MCA_ABI_MAJOR - 1;
    EXPECT_THAT(cause_of(d),
                HasSubstr("built for MCA ABI " + std::to_string(PLEXUS_MCA_ABI_MAJOR - 1) + "."));
}

TEST(DescriptorCheck, AbiMinorNewer) {
    auto d = valid_btl();
    d.abi_minor = PLEXUS_MCA_ABI_MINOR + 5;
    EXPECT_EQ(cause_of(d), "built for a newer core (MCA ABI " +
                               v(PLEXUS_MCA_ABI_MAJOR, PLEXUS_MCA_ABI_MINOR + 5) + " > " +
                               kCoreAbi + ")");
}

TEST(DescriptorCheck, FrameworkNull) {
    auto d = valid_btl();
    d.framework = nullptr;
    const std::string cause = cause_of(d);
    EXPECT_THAT(cause, HasSubstr("NULL"));
    EXPECT_THAT(cause, HasSubstr(kFrameworkList));
}

TEST(DescriptorCheck, FrameworkUnknown) {
    auto d = valid_btl();
    d.framework = "bt1";
    const auto problem = check_descriptor(&d, "btl", "demo");
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->cause, "unknown framework 'bt1'");
    EXPECT_THAT(problem->hint, HasSubstr("did you mean 'btl'?"));
    EXPECT_THAT(problem->hint, HasSubstr(kFrameworkList));
}

TEST(DescriptorCheck, FrameworkInterfaceMajorDiffers) {
    auto d = valid_btl();
    d.framework_major = PLEXUS_BTL_MAJOR + 1;
    EXPECT_THAT(cause_of(d),
                HasSubstr("btl interface " + v(PLEXUS_BTL_MAJOR + 1, PLEXUS_BTL_MINOR) +
                          ", this core implements " + v(PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR)));
}

TEST(DescriptorCheck, FrameworkInterfaceMinorNewer) {
    auto d = valid_btl();
    d.framework_minor = PLEXUS_BTL_MINOR + 1;
    EXPECT_THAT(cause_of(d),
                HasSubstr("newer btl interface (" + v(PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR + 1) +
                          " > " + v(PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR) + ")"));
}

TEST(DescriptorCheck, NameNull) {
    auto d = valid_btl();
    d.name = nullptr;
    EXPECT_THAT(cause_of(d, "btl", {}), HasSubstr("no component name"));
}

TEST(DescriptorCheck, NameEmpty) {
    auto d = valid_btl();
    d.name = "";
    EXPECT_THAT(cause_of(d, "btl", {}), HasSubstr("component name is empty"));
}

TEST(DescriptorCheck, NameWithBadCharacters) {
    for (const char *bad : {"Demo", "de-mo", "de mo", "démo"}) {
        auto d = valid_btl();
        d.name = bad;
        EXPECT_THAT(cause_of(d, "btl", {}),
                    HasSubstr("'" + std::string(bad) + "' is not [a-z0-9_]+"))
            << bad;
    }
}

TEST(DescriptorCheck, FrameworkDiffersFromFileName) {
    auto d = valid_btl();
    d.framework = "osc";
    d.framework_major = PLEXUS_OSC_MAJOR;
    d.framework_minor = PLEXUS_OSC_MINOR;
    auto problem = check_descriptor(&d, "coll", "demo");
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->cause, "descriptor says framework 'osc' but the file name says 'coll'");
    EXPECT_THAT(problem->hint, HasSubstr("plexus_osc_demo.so"));
}

TEST(DescriptorCheck, NameDiffersFromFileName) {
    const auto d = valid_btl();
    auto problem = check_descriptor(&d, "btl", "other");
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->cause, "descriptor says name 'demo' but the file name says 'other'");
    EXPECT_THAT(problem->hint, HasSubstr("plexus_btl_demo.so"));
}

TEST(DescriptorCheck, OpenNull) {
    auto d = valid_btl();
    d.open = nullptr;
    EXPECT_THAT(cause_of(d), HasSubstr("no open function"));
}

TEST(DescriptorCheck, CloseNull) {
    auto d = valid_btl();
    d.close = nullptr;
    EXPECT_THAT(cause_of(d), HasSubstr("no close function"));
}

TEST(DescriptorCheck, QueryNull) {
    auto d = valid_btl();
    d.query = nullptr;
    EXPECT_THAT(cause_of(d), HasSubstr("no query function"));
}

// The broken test components, loaded as the repository would, through each backend.
class BrokenComponentTest : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        loader_ = make_loader(GetParam());
        ASSERT_NE(loader_, nullptr);
    }

    // The check's cause for the descriptor in broken/plexus_<fw>_<name>.so.
    std::string cause_for(const std::string &fw, const std::string &name) {
        const std::string path = test::broken_plugin_dir() + "/plexus_" + fw + "_" + name + ".so";
        std::string error;
        auto object = loader_->open(path, &error);
        if (!object) return "load failed: " + error;
        auto d = static_cast<const plexus_component_t *>(
            object->symbol("plexus_" + fw + "_" + name + "_component"));
        if (!d) return "no descriptor symbol";
        auto problem = check_descriptor(d, fw, name);
        return problem ? problem->cause : "";
    }

    std::unique_ptr<Loader> loader_;
};

TEST_P(BrokenComponentTest, AbiNextIsRefusedForItsAbi) {
    EXPECT_THAT(cause_for("btl", "abinext"),
                HasSubstr("built for MCA ABI " + std::to_string(PLEXUS_MCA_ABI_MAJOR + 1) + "."));
}

TEST_P(BrokenComponentTest, WrongFrameworkIsCaught) {
    const std::string cause = cause_for("coll", "wrongfw");
    EXPECT_THAT(cause, HasSubstr("framework 'osc'"));
    EXPECT_THAT(cause, HasSubstr("'coll'"));
}

TEST_P(BrokenComponentTest, UndefinedSymbolNeverReachesTheCheck) {
    EXPECT_THAT(cause_for("btl", "undefsym"),
                HasSubstr("load failed: undefined symbol: plexus_test_symbol_that_does_not_exist"));
}

INSTANTIATE_TEST_SUITE_P(Backends, BrokenComponentTest, ::testing::ValuesIn(loader_names()),
                         [](const auto &info) { return info.param; });

}  // namespace
}  // namespace plexus::mca
