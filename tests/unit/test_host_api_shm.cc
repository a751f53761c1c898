// Unit tests of host API 1.3's shm service table (plexus/shm.h), called the way a component calls
// it: bad arguments are PLEXUS_ERR_BAD_PARAM with a reason, never a crash; segments are named
// from the job's shm prefix, unguessable and 0600; descriptors that do not match are refused.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <regex>
#include <string>

#include <plexus/shm.h>

#include "mca/mca_core.h"
#include "plugin_paths.h"
#include "runtime/runtime.h"

using namespace plexus;

namespace {

class HostApiShm : public ::testing::Test {
protected:
    void SetUp() override {
        unsetenv("PMIX_NAMESPACE");
        mca::CoreOptions o;
        o.search_default_folder = false;
        o.sources.environment = {{"PLEXUS_MCA_mca_base_component_path", test::good_plugin_dir()}};
        core = std::make_unique<mca::McaCore>(std::move(o));
        ASSERT_TRUE(core->init());
        ASSERT_GE(core->host_api()->struct_size, offsetof(plexus_host_api_t, shm) + sizeof(void *));
        shm = core->host_api()->shm;
        ASSERT_NE(shm, nullptr);
    }
    void TearDown() override {
        while (runtime::Runtime::current()) runtime::Runtime::finalize();
    }
    static plexus_shm_create_args_t args(uint64_t size, const char *label = "test", uint32_t flags = 0) {
        plexus_shm_create_args_t a{};
        a.struct_size = sizeof a;
        a.size = size;
        a.label = label;
        a.flags = flags;
        a.expected_peers = 1;
        return a;
    }
    plexus_shm_segment_info_t info(const plexus_shm_segment_t *seg) {
        plexus_shm_segment_info_t i{};
        i.struct_size = sizeof i;
        EXPECT_EQ(shm->segment_info(seg, &i), PLEXUS_SUCCESS);
        return i;
    }
    std::unique_ptr<mca::McaCore> core;
    const plexus_shm_services_t *shm = nullptr;
};

std::string job_prefix() {
    std::string p;
    EXPECT_TRUE(runtime::Runtime::current()->shm_prefix(&p));
    return p;
}

TEST_F(HostApiShm, TheTableIsVersionedAndComplete) {
    EXPECT_EQ(shm->struct_size, sizeof(plexus_shm_services_t));
    EXPECT_EQ(shm->major, PLEXUS_SHM_MAJOR);
    EXPECT_EQ(shm->minor, PLEXUS_SHM_MINOR);
    for (const void *fn : {(const void *)shm->fd_passing_available, (const void *)shm->segment_create,
                           (const void *)shm->segment_attach, (const void *)shm->segment_describe,
                           (const void *)shm->segment_info, (const void *)shm->segment_unlink,
                           (const void *)shm->segment_detach, (const void *)shm->single_copy_available,
                           (const void *)shm->single_copy_probe, (const void *)shm->single_copy})
        EXPECT_NE(fn, nullptr);
    EXPECT_EQ(sizeof(plexus_shm_desc_t), 112u) << "the descriptor travels in cards: its size is ABI";
}

TEST_F(HostApiShm, NoSegmentBeforeTheRuntimeStarts) {
    plexus_shm_segment_t *seg = reinterpret_cast<plexus_shm_segment_t *>(1);
    plexus_reason_t why{};
    const auto a = args(4096);
    EXPECT_EQ(shm->segment_create(&a, &seg, &why), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_EQ(seg, nullptr);
    EXPECT_NE(std::string(why.text).find("runtime"), std::string::npos) << why.text;
}

TEST_F(HostApiShm, BadArgumentsAreBadParameters) {
    runtime::RuntimeSession rt;
    ASSERT_TRUE(rt.status());
    plexus_shm_segment_t *seg = nullptr;
    plexus_reason_t why{};
    auto refused = [&](const plexus_shm_create_args_t *a, plexus_shm_segment_t **out, const char *what) {
        why = plexus_reason_t{};
        EXPECT_EQ(shm->segment_create(a, out, &why), PLEXUS_ERR_BAD_PARAM) << what;
        EXPECT_NE(why.text[0], '\0') << what << ": no reason";
    };
    auto a = args(4096);
    refused(nullptr, &seg, "no args");
    refused(&a, nullptr, "no out");
    a.struct_size = 8;
    refused(&a, &seg, "short struct");
    for (const char *label : {"", "Caps", "a-b", "seventeen_chars_x", "../x"}) {
        a = args(4096, label);
        refused(&a, &seg, label);
    }
    a = args(4096, nullptr);
    refused(&a, &seg, "no label");
    a = args(0);
    refused(&a, &seg, "0 bytes");
    a = args(4096, "test", 0x80);
    refused(&a, &seg, "unknown flag");
    EXPECT_EQ(shm->segment_attach(nullptr, &seg, &why), PLEXUS_ERR_BAD_PARAM);

    // Handles that were never given out, or are gone.
    int not_a_segment = 0;
    auto *fake = reinterpret_cast<plexus_shm_segment_t *>(&not_a_segment);
    plexus_shm_desc_t d{};
    plexus_shm_segment_info_t i{};
    i.struct_size = sizeof i;
    for (plexus_shm_segment_t *h : {static_cast<plexus_shm_segment_t *>(nullptr), fake}) {
        EXPECT_EQ(shm->segment_describe(h, &d), PLEXUS_ERR_BAD_PARAM);
        EXPECT_EQ(shm->segment_info(h, &i), PLEXUS_ERR_BAD_PARAM);
        EXPECT_EQ(shm->segment_unlink(h, 0), PLEXUS_ERR_BAD_PARAM);
        EXPECT_EQ(shm->segment_detach(h), PLEXUS_ERR_BAD_PARAM);
    }
    a = args(4096);
    ASSERT_EQ(shm->segment_create(&a, &seg, &why), PLEXUS_SUCCESS) << why.text;
    i.struct_size = 4;
    EXPECT_EQ(shm->segment_info(seg, &i), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(shm->segment_describe(seg, nullptr), PLEXUS_ERR_BAD_PARAM);
    ASSERT_EQ(shm->segment_describe(seg, &d), PLEXUS_SUCCESS);
    plexus_shm_segment_t *peer = nullptr;
    ASSERT_EQ(shm->segment_attach(&d, &peer, &why), PLEXUS_SUCCESS) << why.text;
    EXPECT_EQ(shm->segment_unlink(peer, 0), PLEXUS_ERR_BAD_PARAM) << "a peer removed the owner's name";
    EXPECT_EQ(shm->segment_detach(peer), PLEXUS_SUCCESS);
    EXPECT_EQ(shm->segment_detach(seg), PLEXUS_SUCCESS);
    EXPECT_EQ(shm->segment_detach(seg), PLEXUS_ERR_BAD_PARAM) << "detached twice";

    char buf[8];
    const plexus_shm_iovec_t l{buf, sizeof buf};
    const plexus_shm_remote_iovec_t r{reinterpret_cast<uint64_t>(&d), 4};
    EXPECT_EQ(shm->single_copy(0, &l, 1, &r, 1, 0, &why), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(shm->single_copy(getpid(), &l, 1, &r, 1, 0, &why), PLEXUS_ERR_BAD_PARAM);
    EXPECT_NE(std::string(why.text).find("8 local bytes but 4"), std::string::npos) << why.text;
    EXPECT_EQ(shm->single_copy(getpid(), nullptr, 1, &r, 1, 0, nullptr), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(shm->single_copy_probe(-1, 0, 0, &why), PLEXUS_ERR_BAD_PARAM);
}

TEST_F(HostApiShm, NamedSegmentsArePrivateUnguessableAndCarryTheJobPrefix) {
    runtime::RuntimeSession rt;
    ASSERT_TRUE(rt.status());
    const std::string prefix = job_prefix();
    plexus_shm_segment_t *a = nullptr, *b = nullptr;
    plexus_reason_t why{};
    const auto named = args(100000, "osc", PLEXUS_SHM_CREATE_NAMED);
    ASSERT_EQ(shm->segment_create(&named, &a, &why), PLEXUS_SUCCESS) << why.text;
    ASSERT_EQ(shm->segment_create(&named, &b, &why), PLEXUS_SUCCESS) << why.text;
    const auto ia = info(a), ib = info(b);
    EXPECT_TRUE(std::regex_match(ia.name, std::regex("/" + prefix + "osc-[0-9a-f]{16}"))) << ia.name;
    EXPECT_STRNE(ia.name, ib.name);
    struct stat st {};
    ASSERT_EQ(::stat((std::string("/dev/shm") + ia.name).c_str(), &st), 0) << ia.name;
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_EQ(st.st_uid, ::getuid());
    EXPECT_EQ(ia.owned, 1);
    EXPECT_EQ(ia.named, 1);
    EXPECT_GE(ia.size, 100000u);
    EXPECT_EQ(ia.size % ::sysconf(_SC_PAGESIZE), 0u) << "usable bytes are whole pages";
    EXPECT_EQ(ia.owner_pid, ::getpid());
    EXPECT_EQ(shm->segment_unlink(a, 1), 0) << "unlinked before its expected peer attached";
    EXPECT_EQ(shm->segment_detach(a), PLEXUS_SUCCESS);
    EXPECT_NE(::stat((std::string("/dev/shm") + ia.name).c_str(), &st), 0) << "detach left the name";
    EXPECT_EQ(shm->segment_unlink(b, 0), 1);
    EXPECT_NE(::stat((std::string("/dev/shm") + ib.name).c_str(), &st), 0);
    EXPECT_EQ(shm->segment_detach(b), PLEXUS_SUCCESS);
}

TEST_F(HostApiShm, AnAnonymousSegmentIsSharedThroughItsDescriptor) {
    runtime::RuntimeSession rt;
    ASSERT_TRUE(rt.status());
    plexus_reason_t why{};
    if (shm->fd_passing_available(&why) != 1) GTEST_SKIP() << why.text;
    plexus_shm_segment_t *owner = nullptr, *peer = nullptr;
    const auto a = args(3 * 4096 + 5, "sm");
    ASSERT_EQ(shm->segment_create(&a, &owner, &why), PLEXUS_SUCCESS) << why.text;
    const auto io = info(owner);
    EXPECT_EQ(io.anonymous, 1);
    EXPECT_EQ(io.named, 0);
    struct stat st {};
    EXPECT_NE(::stat((std::string("/dev/shm") + io.name).c_str(), &st), 0) << "an anonymous segment has a name";
    plexus_shm_desc_t d{};
    ASSERT_EQ(shm->segment_describe(owner, &d), PLEXUS_SUCCESS);
    ASSERT_EQ(shm->segment_attach(&d, &peer, &why), PLEXUS_SUCCESS) << why.text;
    const auto ip = info(peer);
    EXPECT_EQ(ip.owned, 0);
    EXPECT_EQ(ip.size, io.size);
    std::memcpy(static_cast<char *>(io.base) + io.size - 6, "shared", 6);
    EXPECT_EQ(std::memcmp(static_cast<char *>(ip.base) + ip.size - 6, "shared", 6), 0);
    EXPECT_EQ(info(owner).attached, 1u);
    EXPECT_EQ(shm->segment_detach(peer), PLEXUS_SUCCESS);
    EXPECT_EQ(shm->segment_detach(owner), PLEXUS_SUCCESS);
}

TEST_F(HostApiShm, AForeignDescriptorIsRefusedWithAReason) {
    runtime::RuntimeSession rt;
    ASSERT_TRUE(rt.status());
    plexus_reason_t why{};
    plexus_shm_segment_t *owner = nullptr, *peer = nullptr;
    const auto a = args(4096, "test", PLEXUS_SHM_CREATE_NAMED);
    ASSERT_EQ(shm->segment_create(&a, &owner, &why), PLEXUS_SUCCESS) << why.text;
    plexus_shm_desc_t d{};
    ASSERT_EQ(shm->segment_describe(owner, &d), PLEXUS_SUCCESS);
    plexus_shm_desc_t forged = d;
    forged.tag ^= 0x5a5a;  // the right name, but not the descriptor of what it names
    why = plexus_reason_t{};
    EXPECT_EQ(shm->segment_attach(&forged, &peer, &why), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(peer, nullptr);
    EXPECT_NE(std::string(why.text).find("another segment"), std::string::npos) << why.text;
    std::memset(&forged, 0xff, sizeof forged);
    EXPECT_EQ(shm->segment_attach(&forged, &peer, &why), PLEXUS_ERR_BAD_PARAM);
    // Another name leading, through the owner's descriptor, to this segment.
    forged = d;
    std::snprintf(forged.name, sizeof forged.name, "/%sgone-0000000000000000", job_prefix().c_str());
    EXPECT_EQ(shm->segment_attach(&forged, &peer, &why), PLEXUS_ERR_BAD_PARAM);
    EXPECT_NE(std::string(why.text).find("another segment"), std::string::npos) << why.text;
    forged.owner_fd = -1;  // no descriptor to borrow: the owner's socket gives it for the tag,
    EXPECT_EQ(shm->segment_attach(&forged, &peer, &why), PLEXUS_ERR_BAD_PARAM) << why.text;
    EXPECT_NE(std::string(why.text).find("another segment"), std::string::npos) << why.text;
    forged.tag ^= 1;  // and for no other tag: nothing to open
    EXPECT_EQ(shm->segment_attach(&forged, &peer, &why), PLEXUS_ERR_UNREACH) << why.text;
    EXPECT_NE(std::string(why.text).find(forged.name), std::string::npos) << why.text;
    EXPECT_NE(std::string(why.text).find("offers no segment with that tag"), std::string::npos) << why.text;
    EXPECT_EQ(info(owner).attached, 0u);
    EXPECT_EQ(shm->segment_detach(owner), PLEXUS_SUCCESS);
}

TEST_F(HostApiShm, SingleCopyThroughTheTable) {
    plexus_reason_t why{};
    ASSERT_EQ(shm->single_copy_available(&why), 1) << why.text;
    static volatile uint64_t word = 0xfeedull;
    EXPECT_EQ(shm->single_copy_probe(getpid(), reinterpret_cast<uint64_t>(&word), 0xfeed, &why), PLEXUS_SUCCESS);
    const char src[] = "one copy";
    char dst[sizeof src] = {};
    const plexus_shm_iovec_t l{dst, sizeof dst};
    const plexus_shm_remote_iovec_t r{reinterpret_cast<uint64_t>(src), sizeof src};
    ASSERT_EQ(shm->single_copy(getpid(), &l, 1, &r, 1, 0, &why), PLEXUS_SUCCESS) << why.text;
    EXPECT_STREQ(dst, src);
}

}  // namespace
