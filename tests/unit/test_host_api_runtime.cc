// Unit tests of the host API 1.1 members, called the way a component calls them (through the
// table, with its own descriptor): job info, secret, shm prefix, cards keyed by the caller,
// fence, progress wait, and the version a component checks before using any of them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstddef>
#include <cstring>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "mca/mca_core.h"
#include "plugin_paths.h"
#include "runtime/runtime.h"

using namespace plexus;
using ::testing::HasSubstr;

namespace {

class HostApiRuntime : public ::testing::Test {
protected:
    void SetUp() override {
        unsetenv("PMIX_NAMESPACE");
        mca::CoreOptions o;
        o.search_default_folder = false;
        o.sources.environment = {{"PLEXUS_MCA_mca_base_component_path", test::good_plugin_dir()}};
        core = std::make_unique<mca::McaCore>(std::move(o));
        ASSERT_TRUE(core->init());
        host = core->host_api();
        const mca::ComponentRecord *c = core->repository().find("btl", "good");
        ASSERT_NE(c, nullptr) << "the good test component was not found in " << test::good_plugin_dir();
        self = c->desc;
    }
    void TearDown() override {
        while (runtime::Runtime::current()) runtime::Runtime::finalize();
    }
    std::unique_ptr<mca::McaCore> core;
    const plexus_host_api_t *host = nullptr;
    const plexus_component_t *self = nullptr;
};

// Host API 1.3: whether the user set a parameter, from where the registry resolved it.
TEST_F(HostApiRuntime, ParamIsSetTellsTheUsersSettingFromTheDefault) {
    EXPECT_EQ(host->param_is_set("mca_base_component_path"), 1);  // the fixture's environment
    EXPECT_EQ(host->param_is_set("btl_base_verbose"), 0);
    EXPECT_EQ(host->param_is_set("btl_no_such_parameter"), PLEXUS_ERR_NOT_FOUND);
    EXPECT_EQ(host->param_is_set(nullptr), PLEXUS_ERR_BAD_PARAM);
}

TEST_F(HostApiRuntime, TheTableIsVersionOneSixAndHasEveryNewMember) {
    EXPECT_EQ(PLEXUS_HOST_API_MINOR, 6);
    EXPECT_EQ(host->major, PLEXUS_HOST_API_MAJOR);
    EXPECT_EQ(host->minor, 6);
    EXPECT_EQ(host->struct_size, sizeof(plexus_host_api_t));
    // What a component built for 1.1 checks before calling the last member.
    EXPECT_GE(host->struct_size, offsetof(plexus_host_api_t, progress_wait) + sizeof(void *));
    // And one built for 1.2, and for 1.3.
    EXPECT_GE(host->struct_size, offsetof(plexus_host_api_t, mem_bind_local) + sizeof(void *));
    EXPECT_GE(host->struct_size, offsetof(plexus_host_api_t, param_is_set) + sizeof(void *));
    EXPECT_GE(host->struct_size, offsetof(plexus_host_api_t, proc_on_this_node) + sizeof(void *));
    EXPECT_GE(host->struct_size, offsetof(plexus_host_api_t, ipv4_interfaces) + sizeof(void *));
    EXPECT_GE(host->struct_size, offsetof(plexus_host_api_t, peer_secrets) + sizeof(void *));
    for (const void *fn : {(const void *)host->job_info, (const void *)host->job_secret,
                           (const void *)host->shm_name_prefix, (const void *)host->modex_put,
                           (const void *)host->modex_get, (const void *)host->fence,
                           (const void *)host->abort, (const void *)host->progress_wait,
                           (const void *)host->mem_bind_local, (const void *)host->shm,
                           (const void *)host->dgram, (const void *)host->param_is_set,
                           (const void *)host->proc_on_this_node, (const void *)host->ipv4_interfaces})
        EXPECT_NE(fn, nullptr);
    // 1.0 members kept their places: a 1.0 component still finds them.
    EXPECT_LT(offsetof(plexus_host_api_t, topology_self_cpuset), offsetof(plexus_host_api_t, job_info));
    EXPECT_LT(offsetof(plexus_host_api_t, progress_wait), offsetof(plexus_host_api_t, mem_bind_local));
    EXPECT_EQ(host->mem_bind_local(nullptr, 64), PLEXUS_ERR_BAD_PARAM);
}

TEST_F(HostApiRuntime, ThePkgConfigFileSaysTheSameVersions) {
    const char *top = std::getenv("PLEXUS_TOP_BUILDDIR");
    if (!top) GTEST_SKIP() << "run through make check";
    std::ifstream pc(std::string(top) + "/framework/plexus-component.pc");
    ASSERT_TRUE(pc) << "no plexus-component.pc in " << top;
    std::string text((std::istreambuf_iterator<char>(pc)), std::istreambuf_iterator<char>());
    EXPECT_THAT(text, HasSubstr("host_api_major=" + std::to_string(PLEXUS_HOST_API_MAJOR) + "\n"));
    EXPECT_THAT(text, HasSubstr("host_api_minor=" + std::to_string(PLEXUS_HOST_API_MINOR) + "\n"));
    EXPECT_THAT(text, HasSubstr("mca_abi_major=" + std::to_string(PLEXUS_MCA_ABI_MAJOR) + "\n"));
    EXPECT_THAT(text, HasSubstr("mca_abi_minor=" + std::to_string(PLEXUS_MCA_ABI_MINOR) + "\n"));
}

TEST_F(HostApiRuntime, NothingBeforeTheRuntimeStarts) {
    plexus_job_info_t info{};
    info.struct_size = sizeof info;
    EXPECT_EQ(host->job_info(&info), PLEXUS_ERR_NOT_AVAILABLE);
    uint8_t secret[PLEXUS_JOB_SECRET_LEN];
    EXPECT_EQ(host->job_secret(secret, sizeof secret), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_EQ(host->modex_put(self, "x", 1), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_EQ(host->fence(), PLEXUS_ERR_NOT_AVAILABLE);
}

TEST_F(HostApiRuntime, JobInfoFillsWhatTheCallerKnows) {
    runtime::RuntimeSession rt;
    ASSERT_TRUE(rt.status());
    plexus_job_info_t info;
    std::memset(&info, 0x5a, sizeof info);
    info.struct_size = sizeof info;
    ASSERT_EQ(host->job_info(&info), PLEXUS_SUCCESS);
    EXPECT_EQ(info.rank, 0u);
    EXPECT_EQ(info.size, 1u);
    EXPECT_EQ(info.local_rank, 0u);
    EXPECT_EQ(info.local_size, 1u);
    EXPECT_EQ(info.node_id, 0u);
    EXPECT_EQ(info.appnum, 0u);
    EXPECT_EQ(info.universe_size, -1);
    EXPECT_EQ(info.oversubscribed, 0);  // a singleton has a CPU to itself
    EXPECT_EQ(info.cpus_online, static_cast<uint32_t>(sysconf(_SC_NPROCESSORS_ONLN)));
    EXPECT_STREQ(info.nspace, ("singleton-" + std::to_string(getpid())).c_str());

    // A caller built when the struct ended before nspace: nothing past its end is written.
    plexus_job_info_t old;
    std::memset(&old, 0x5a, sizeof old);
    old.struct_size = offsetof(plexus_job_info_t, nspace);
    ASSERT_EQ(host->job_info(&old), PLEXUS_SUCCESS);
    EXPECT_EQ(old.struct_size, offsetof(plexus_job_info_t, nspace));
    EXPECT_EQ(old.size, 1u);
    EXPECT_EQ(old.nspace[0], 0x5a);
    old.struct_size = 4;
    EXPECT_EQ(host->job_info(&old), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(host->job_info(nullptr), PLEXUS_ERR_BAD_PARAM);
}

// Host API 1.4: the launcher's local peers (a singleton is alone on its node); processes the
// runtime cannot place are left to the caller.
TEST_F(HostApiRuntime, ProcOnThisNodeFollowsTheLocalPeers) {
    EXPECT_EQ(host->proc_on_this_node(nullptr, 0), PLEXUS_ERR_NOT_AVAILABLE);  // no runtime yet
    runtime::RuntimeSession rt;
    ASSERT_TRUE(rt.status());
    EXPECT_EQ(host->proc_on_this_node(nullptr, 0), 1);
    EXPECT_EQ(host->proc_on_this_node(rt->job().nspace.c_str(), 0), 1);
    EXPECT_EQ(host->proc_on_this_node(nullptr, 1), PLEXUS_ERR_NOT_FOUND);
    EXPECT_EQ(host->proc_on_this_node("another-job", 0), PLEXUS_ERR_NOT_FOUND);
}

// Host API 1.5: the interfaces the dgram facility looks up, for every component alike; loopback
// is up on every machine the tests run on. A short array gets the count, never an overrun.
TEST_F(HostApiRuntime, Ipv4InterfacesListLoopbackAndCountBeyondTheRoom) {
    size_t count = 0;
    ASSERT_EQ(host->ipv4_interfaces(nullptr, 0, &count), PLEXUS_SUCCESS);
    ASSERT_GE(count, 1u);
    std::vector<plexus_ipv4_interface_t> ifs(count + 1);
    ifs.back().addr = 0xdeadbeef;
    size_t again = 0;
    ASSERT_EQ(host->ipv4_interfaces(ifs.data(), count, &again), PLEXUS_SUCCESS);
    EXPECT_EQ(again, count);
    EXPECT_EQ(ifs.back().addr, 0xdeadbeefu) << "written beyond max";
    bool lo = false;
    for (size_t i = 0; i < count; ++i) {
        const plexus_ipv4_interface_t &f = ifs[i];
        EXPECT_NE(f.name[0], '\0');
        EXPECT_NE(f.index, 0u) << f.name;
        if (f.addr == 0x7f000001u) {
            lo = true;
            EXPECT_TRUE(f.flags & PLEXUS_IF_LOOPBACK) << f.name;
            EXPECT_EQ(f.netmask, 0xff000000u) << f.name;
        }
    }
    EXPECT_TRUE(lo) << "127.0.0.1 is not among the interfaces";
    EXPECT_EQ(host->ipv4_interfaces(nullptr, 2, &count), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(host->ipv4_interfaces(ifs.data(), 1, nullptr), PLEXUS_ERR_BAD_PARAM);
}

// Host API 1.6: the secrets registered for another job's process, newest first, a short buffer
// counted and never overrun; none for this job's processes (theirs is the job secret) or a
// forgotten one.
TEST_F(HostApiRuntime, PeerSecretsAreTheRegisteredOnesNewestFirst) {
    runtime::RuntimeSession rt;
    ASSERT_TRUE(rt.status());
    runtime::PeerSecrets::Secret a{}, b{};
    a.fill(0xa1);
    b.fill(0xb2);
    rt->peer_secrets().add({"other-job", 3}, a);
    rt->peer_secrets().add({"other-job", 3}, b);
    uint8_t buf[3 * PLEXUS_PEER_SECRET_LEN];
    std::memset(buf, 0x55, sizeof buf);
    size_t count = 9;
    ASSERT_EQ(host->peer_secrets("other-job", 3, buf, 1, &count), PLEXUS_SUCCESS);
    EXPECT_EQ(count, 2u);
    EXPECT_EQ(std::memcmp(buf, b.data(), PLEXUS_PEER_SECRET_LEN), 0);
    EXPECT_EQ(buf[PLEXUS_PEER_SECRET_LEN], 0x55) << "written beyond max";
    ASSERT_EQ(host->peer_secrets("other-job", 3, buf, 3, &count), PLEXUS_SUCCESS);
    EXPECT_EQ(std::memcmp(buf + PLEXUS_PEER_SECRET_LEN, a.data(), PLEXUS_PEER_SECRET_LEN), 0);
    EXPECT_EQ(host->peer_secrets("other-job", 4, buf, 3, &count), PLEXUS_ERR_NOT_FOUND);
    EXPECT_EQ(count, 0u);
    rt->peer_secrets().add({rt->job().nspace, 0}, a);
    EXPECT_EQ(host->peer_secrets(rt->job().nspace.c_str(), 0, buf, 3, &count), PLEXUS_ERR_NOT_FOUND);
    EXPECT_EQ(rt->peer_secrets().forget({"other-job", 3}), 2u);
    EXPECT_EQ(host->peer_secrets("other-job", 3, buf, 3, &count), PLEXUS_ERR_NOT_FOUND);
    EXPECT_EQ(host->peer_secrets(nullptr, 3, buf, 3, &count), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(host->peer_secrets("other-job", 3, nullptr, 1, &count), PLEXUS_ERR_BAD_PARAM);
}

TEST_F(HostApiRuntime, SecretAndPrefixAgreeWithTheRuntime) {
    runtime::RuntimeSession rt;
    ASSERT_TRUE(rt.status());
    uint8_t secret[PLEXUS_JOB_SECRET_LEN];
    ASSERT_EQ(host->job_secret(secret, sizeof secret), PLEXUS_SUCCESS);
    runtime::JobSecret s;
    ASSERT_TRUE(rt->secret(&s));
    EXPECT_EQ(std::memcmp(secret, s.bytes().data(), sizeof secret), 0);
    EXPECT_EQ(host->job_secret(secret, sizeof secret - 1), PLEXUS_ERR_BAD_PARAM);

    char prefix[64];
    ASSERT_EQ(host->shm_name_prefix(prefix, sizeof prefix), PLEXUS_SUCCESS);
    EXPECT_EQ(std::string(prefix), "plexus-" + s.hex().substr(0, 16) + "-");
    EXPECT_TRUE(std::regex_match(prefix, std::regex("plexus-[0-9a-f]{16}-")));
    char small[8];
    EXPECT_EQ(host->shm_name_prefix(small, sizeof small), PLEXUS_ERR_OUT_OF_RESOURCE);
}

TEST_F(HostApiRuntime, CardsAreKeyedByTheCallingComponent) {
    runtime::RuntimeSession rt;
    ASSERT_TRUE(rt.status());
    const unsigned char card[] = {0, 1, 2, 0xff, 'b', 't', 'l'};
    ASSERT_EQ(host->modex_put(self, card, sizeof card), PLEXUS_SUCCESS);
    ASSERT_EQ(host->fence(), PLEXUS_SUCCESS);
    const void *data = nullptr;
    size_t len = 0;
    ASSERT_EQ(host->modex_get(self, nullptr, 0, &data, &len, -1), PLEXUS_SUCCESS);
    ASSERT_EQ(len, sizeof card);
    EXPECT_EQ(std::memcmp(data, card, len), 0);
    const runtime::Modex::Card *direct = nullptr;
    ASSERT_TRUE(rt->modex().get(rt->job().self(), "btl_good", 1, &direct));  // plexus.card.btl_good
    EXPECT_EQ(direct->size(), sizeof card);

    // Another component has no card of its own yet.
    const plexus_component_t *other = core->repository().find("coll", "good")->desc;
    EXPECT_EQ(host->modex_get(other, nullptr, 0, &data, &len, 10), PLEXUS_ERR_NOT_FOUND);
    // A caller that is not a loaded component is refused.
    plexus_component_t stranger = *self;
    EXPECT_EQ(host->modex_put(&stranger, card, sizeof card), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(host->modex_get(self, nullptr, 0, nullptr, &len, 10), PLEXUS_ERR_BAD_PARAM);
}

TEST_F(HostApiRuntime, ProgressWaitPollsTheEngineUntilDone) {
    struct Count {
        int polls = 0;
        static int poll(void *c) { return ++static_cast<Count *>(c)->polls, 0; }
        static int done(void *c) { return static_cast<Count *>(c)->polls >= 3; }
    } count;
    ASSERT_EQ(host->progress_register(&Count::poll, &count), PLEXUS_SUCCESS);
    EXPECT_EQ(host->progress_wait(&Count::done, &count, -1), PLEXUS_SUCCESS);
    EXPECT_EQ(count.polls, 3);
    auto never = [](void *) { return 0; };
    EXPECT_EQ(host->progress_wait(never, &count, 1), PLEXUS_ERR_TIMEOUT);
    EXPECT_EQ(host->progress_wait(nullptr, &count, 1), PLEXUS_ERR_BAD_PARAM);
    host->progress_unregister(&Count::poll, &count);
}

TEST_F(HostApiRuntime, AbortEndsTheJob) {
    EXPECT_EXIT(
        {
            runtime::RuntimeSession rt;
            host->abort(5, "component gave up");
        },
        ::testing::ExitedWithCode(5), "component gave up");
}

}  // namespace
