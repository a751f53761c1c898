// The component SDK (plexus/sdk/): PLEXUS_HOST_HAS on tables of older minors and NULL members,
// the parameter helpers registering each type through a host whose param_register feeds the
// core's real registry, the descriptor glue producing what the core's descriptor check accepts,
// the BTL parameters the core registers read back by btl_limits, the RAII helpers, and libraries
// opened at their first use.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>


#include <plexus/btl.h>
#include <plexus/coll.h>
#include <plexus/sdk/btl_entry_points.hpp>
#include <plexus/sdk/btl_limits.hpp>
#include <plexus/sdk/descriptor.hpp>
#include <plexus/sdk/host.hpp>
#include <plexus/sdk/on_demand_library.hpp>
#include <plexus/sdk/param.hpp>
#include <plexus/sdk/process_module.hpp>
#include <plexus/sdk/progress.hpp>
#include <plexus/sdk/reason.hpp>

#include "mca/btl_common_params.h"
#include "mca/descriptor_check.h"
#include "base/param_registry.h"
#include "registry_host.h"

namespace {

using plexus::mca::ParamRegistry;
using plexus::mca::Setting;
using plexus::mca::SourceKind;

// ---- PLEXUS_HOST_HAS -------------------------------------------------------------------------

int fake_job_info(plexus_job_info_t *) { return PLEXUS_SUCCESS; }
int fake_mem_bind(void *, size_t) { return PLEXUS_SUCCESS; }
int fake_is_set(const char *name) { return std::strcmp(name, "btl_x_set") == 0 ? 1 : 0; }

std::vector<std::string> g_logged;
void fake_log(const plexus_component_t *, int, const char *fmt, ...) {
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    g_logged.emplace_back(text);
}

// A table as a core of host API 1.<minor> hands it over: struct_size ends after that minor's
// last member. Every member is set, also those beyond struct_size, as stale memory would be.
plexus_host_api_t table_of_minor(int minor) {
    plexus_host_api_t h{};
    h.major = PLEXUS_HOST_API_MAJOR;
    h.minor = static_cast<uint16_t>(minor);
    h.log = fake_log;
    h.job_info = fake_job_info;
    h.mem_bind_local = fake_mem_bind;
    h.param_is_set = fake_is_set;
    switch (minor) {
    case 0: h.struct_size = offsetof(plexus_host_api_t, job_info); break;
    case 1: h.struct_size = offsetof(plexus_host_api_t, mem_bind_local); break;
    case 2: h.struct_size = offsetof(plexus_host_api_t, shm); break;
    default: h.struct_size = sizeof h;
    }
    return h;
}

TEST(SdkHost, MembersBeyondAnOlderTablesSizeAreMissing) {
    const plexus_host_api_t h10 = table_of_minor(0), h11 = table_of_minor(1), h12 = table_of_minor(2),
                            h13 = table_of_minor(3);
    EXPECT_TRUE(PLEXUS_HOST_HAS(&h10, log));
    EXPECT_FALSE(PLEXUS_HOST_HAS(&h10, job_info));
    EXPECT_TRUE(PLEXUS_HOST_HAS(&h11, job_info));
    EXPECT_FALSE(PLEXUS_HOST_HAS(&h11, mem_bind_local));
    // The check that turned NUMA binding off: a 1.2 table is shorter than this build's struct,
    // yet it has mem_bind_local.
    ASSERT_LT(h12.struct_size, sizeof(plexus_host_api_t));
    EXPECT_TRUE(PLEXUS_HOST_HAS(&h12, mem_bind_local));
    EXPECT_FALSE(PLEXUS_HOST_HAS(&h12, param_is_set));
    EXPECT_TRUE(PLEXUS_HOST_HAS(&h13, param_is_set));
}

TEST(SdkHost, NullMembersNullTablesAndOtherMajorsAreMissing) {
    plexus_host_api_t h = table_of_minor(3);
    h.mem_bind_local = nullptr;
    EXPECT_FALSE(PLEXUS_HOST_HAS(&h, mem_bind_local));
    EXPECT_FALSE(PLEXUS_HOST_HAS(&h, shm)) << "1.3's service tables are NULL until filled";
    const plexus_host_api_t *none = nullptr;
    EXPECT_FALSE(PLEXUS_HOST_HAS(none, log));
    h = table_of_minor(3);
    h.major = PLEXUS_HOST_API_MAJOR + 1;
    EXPECT_FALSE(PLEXUS_HOST_HAS(&h, log)) << "another major is another layout";
    EXPECT_FALSE(plexus::sdk::host_compatible(&h));
}

TEST(SdkHost, AMissingMemberIsLoggedWithWhatIsDoneInstead) {
    g_logged.clear();
    const plexus_host_api_t h12 = table_of_minor(2);
    EXPECT_TRUE(PLEXUS_HOST_HAS_OR_LOG(&h12, nullptr, mem_bind_local, "first-touch placement"));
    EXPECT_TRUE(g_logged.empty());
    const plexus_host_api_t h11 = table_of_minor(1);
    EXPECT_FALSE(PLEXUS_HOST_HAS_OR_LOG(&h11, nullptr, mem_bind_local, "first-touch placement"));
    ASSERT_EQ(g_logged.size(), 1u);
    EXPECT_NE(g_logged[0].find("host API 1.1 has no mem_bind_local: first-touch placement"), std::string::npos)
        << g_logged[0];
}

TEST(SdkHost, ParamIsSetAsksTheHostOrAssumesWhatTheCallerSays) {
    using plexus::sdk::IfUnknown;
    const plexus_host_api_t h13 = table_of_minor(3);
    EXPECT_TRUE(plexus::sdk::param_is_set(&h13, "btl_x_set", IfUnknown::default_value));
    EXPECT_FALSE(plexus::sdk::param_is_set(&h13, "btl_x_left", IfUnknown::user_set));
    const plexus_host_api_t h12 = table_of_minor(2);
    EXPECT_TRUE(plexus::sdk::param_is_set(&h12, "btl_x_left", IfUnknown::user_set));
    EXPECT_FALSE(plexus::sdk::param_is_set(&h12, "btl_x_set", IfUnknown::default_value));
}

// ---- parameters through the core's registry ---------------------------------------------------

// A host of this build whose parameters live in registry.
plexus_host_api_t registry_host(ParamRegistry *registry) {
    plexus_host_api_t h = table_of_minor(3);
    plexus::test::use_registry(&h, registry);
    return h;
}

Setting env(const std::string &name, const std::string &value) {
    return Setting{name, value, SourceKind::Env, "env PLEXUS_MCA_" + name};
}

using plexus::test::named_component;

constexpr const char *kColours[] = {"red", "green", "blue", nullptr};

TEST(SdkParam, EveryTypeReachesItsStorage) {
    ParamRegistry registry({env("coll_demo_flag", "yes"), env("coll_demo_count", "-7"),
                            env("coll_demo_bytes", "64k"), env("coll_demo_ratio", "0.25"),
                            env("coll_demo_words", "a, b,c"), env("coll_demo_colour", "blue")});
    const plexus_host_api_t host = registry_host(&registry);
    const plexus_component_t self = named_component("coll", "demo");
    int flag = 0, colour = 0;
    int64_t count = 0;
    uint64_t bytes = 0;
    double ratio = 0;
    const char *text = nullptr;
    const char *const *words = nullptr;
    using namespace plexus::sdk;
    ASSERT_EQ(register_params(&host, &self,
                              {bool_param("flag", &flag, "no", "A switch.", 5),
                               int_param("count", &count, "3", "A count.", 5).range(-10, 10),
                               size_param("bytes", &bytes, "1k", "A size.", 5),
                               double_param("ratio", &ratio, "1.5", "A ratio.", 5),
                               string_param("text", &text, "left alone", "A text.", 5),
                               list_param("words", &words, "", "Words.", 5),
                               enum_param("colour", &colour, kColours, "red", "A colour.", 5)}),
              PLEXUS_SUCCESS);
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(count, -7);
    EXPECT_EQ(bytes, 65536u);
    EXPECT_DOUBLE_EQ(ratio, 0.25);
    ASSERT_NE(text, nullptr);
    EXPECT_STREQ(text, "left alone");
    ASSERT_NE(words, nullptr);
    EXPECT_STREQ(words[0], "a");
    EXPECT_STREQ(words[2], "c");
    EXPECT_EQ(words[3], nullptr);
    EXPECT_EQ(colour, 2);
    EXPECT_TRUE(registry.errors().empty());
}

TEST(SdkParam, TheRangeIsEnforcedAndARefusalStopsRegistration) {
    ParamRegistry registry({env("coll_demo_count", "11")});
    const plexus_host_api_t host = registry_host(&registry);
    const plexus_component_t self = named_component("coll", "demo");
    int64_t count = 0;
    uint64_t after = 0;
    using namespace plexus::sdk;
    ASSERT_EQ(register_params(&host, &self, {int_param("count", &count, "3", "A count.", 5).range(-10, 10)}),
              PLEXUS_SUCCESS);
    EXPECT_EQ(count, 3) << "out of range: the default stays";
    ASSERT_EQ(registry.errors().size(), 1u);
    EXPECT_NE(registry.errors()[0].find("coll_demo_count"), std::string::npos) << registry.errors()[0];
    // A duplicate is refused by the core: the parameters after it are not registered.
    EXPECT_NE(register_params(&host, &self,
                              {int_param("count", &count, "3", "Again.", 5), size_param("after", &after, "1k",
                                                                                        "After.", 5)}),
              PLEXUS_SUCCESS);
    EXPECT_EQ(registry.find("coll_demo_after"), nullptr);
}

// ---- the BTL parameters the core registers ------------------------------------------------------

plexus::sdk::BtlLimits limits_with(std::vector<Setting> settings, const char *name = "demo") {
    ParamRegistry registry(std::move(settings));
    std::string err;
    EXPECT_TRUE(plexus::mca::register_btl_common_params(registry, name, &err)) << err;
    EXPECT_TRUE(registry.errors().empty());
    const plexus_host_api_t host = registry_host(&registry);
    const plexus_component_t self = named_component("btl", name);
    return plexus::sdk::btl_limits(&host, &self, {4096, 65536, PLEXUS_BTL_EXCLUSIVITY_HIGH});
}

TEST(SdkBtlLimits, TheComponentsOwnUnlessTheUserSetsThem) {
    plexus::sdk::BtlLimits l = limits_with({});
    EXPECT_EQ(l.eager_limit, 4096u);
    EXPECT_EQ(l.max_send_size, 65536u);
    EXPECT_EQ(l.exclusivity, PLEXUS_BTL_EXCLUSIVITY_HIGH);
    l = limits_with({env("btl_demo_eager_limit", "8k"), env("btl_demo_max_send_size", "1m"),
                     env("btl_demo_exclusivity", "300")});
    EXPECT_EQ(l.eager_limit, 8192u);
    EXPECT_EQ(l.max_send_size, 1u << 20);
    EXPECT_EQ(l.exclusivity, 300u);
    l = limits_with({env("btl_other_eager_limit", "8k")});
    EXPECT_EQ(l.eager_limit, 4096u) << "another BTL's setting";
}

TEST(SdkBtlLimits, ABadValueIsNamedAndAnInconsistentPairIsRefused) {
    ParamRegistry registry({env("btl_demo_exclusivity", "70000")});
    std::string err;
    ASSERT_TRUE(plexus::mca::register_btl_common_params(registry, "demo", &err)) << err;
    ASSERT_EQ(registry.errors().size(), 1u);
    EXPECT_NE(registry.errors()[0].find("btl_demo_exclusivity"), std::string::npos) << registry.errors()[0];
    const std::string msg = plexus::sdk::check_btl_limits("demo", {64 * 1024, 32 * 1024, 0});
    EXPECT_NE(msg.find("btl_demo_eager_limit"), std::string::npos) << msg;
    EXPECT_NE(msg.find("btl_demo_max_send_size"), std::string::npos) << msg;
    EXPECT_NE(plexus::sdk::check_btl_limits("demo", {100, 32 * 1024, 0}).find("from 256 bytes"), std::string::npos);
    EXPECT_EQ(plexus::sdk::check_btl_limits("demo", {32 * 1024, 32 * 1024, 0}), "");
}

TEST(SdkBtlLimits, TheCoreNamesASettingTheModuleDoesNotReport) {
    ParamRegistry registry({env("btl_demo_eager_limit", "8k"), env("btl_demo_exclusivity", "300")});
    std::string err;
    ASSERT_TRUE(plexus::mca::register_btl_common_params(registry, "demo", &err)) << err;
    plexus_btl_module_t m{};
    m.name = "demo";
    m.eager_limit = 8192;
    m.max_send_size = 65536;
    m.exclusivity = PLEXUS_BTL_EXCLUSIVITY_HIGH;
    const std::vector<std::string> w = plexus::mca::btl_limits_not_applied(registry, m);
    ASSERT_EQ(w.size(), 1u) << "eager_limit is applied, max_send_size left alone, exclusivity ignored";
    EXPECT_NE(w[0].find("btl_demo_exclusivity is 300"), std::string::npos) << w[0];
    EXPECT_NE(w[0].find("reports 16384"), std::string::npos) << w[0];
    m.exclusivity = 300;
    EXPECT_TRUE(plexus::mca::btl_limits_not_applied(registry, m).empty());
}

// ---- the descriptor glue ----------------------------------------------------------------------

struct Calls {
    const plexus_component_t *self_at_register = nullptr;
    const plexus_component_t *self_at_open = nullptr;
    bool throw_in_query = false;
};
Calls g_calls;

struct Demo {
    static constexpr plexus::sdk::Identity identity{"plexus-sdk-test", "BSD-3-Clause", "sdk test coll", {2, 3, 4}};
    static int register_params(const plexus_host_api_t *, const plexus_component_t *self) {
        g_calls.self_at_register = self;
        return PLEXUS_SUCCESS;
    }
    static int open(const plexus_host_api_t *, const plexus_component_t *self, plexus_reason_t *) {
        g_calls.self_at_open = self;
        return PLEXUS_SUCCESS;
    }
    static int close() { return PLEXUS_SUCCESS; }
    static int query(const void *, plexus_query_result_t *result) {
        if (g_calls.throw_in_query) throw std::runtime_error("query went wrong");
        return plexus::sdk::offer(result, 33, nullptr);
    }
};

// Without register_params: the descriptor's is NULL.
struct Bare {
    static constexpr plexus::sdk::Identity identity{"plexus-sdk-test", "BSD-3-Clause", "sdk test btl", {1, 0, 0}};
    static int open(const plexus_host_api_t *, const plexus_component_t *, plexus_reason_t *) {
        throw std::bad_alloc();
    }
    static int close() { return PLEXUS_SUCCESS; }
    static int query(const void *, plexus_query_result_t *result) {
        return plexus::sdk::decline(result, "not for scope %d", 7);
    }
};

}  // namespace

PLEXUS_SDK_COMPONENT(coll, sdkdemo, PLEXUS_COLL_MAJOR, PLEXUS_COLL_MINOR, Demo);
PLEXUS_SDK_COMPONENT(btl, sdkbare, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, Bare);

namespace {

TEST(SdkDescriptor, TheCoresCheckAcceptsIt) {
    const plexus_component_t &d = PLEXUS_COMPONENT_SYMBOL(coll, sdkdemo);
    const auto problem = plexus::mca::check_descriptor(&d, "coll", "sdkdemo");
    EXPECT_FALSE(problem) << problem->cause;
    EXPECT_EQ(d.magic, PLEXUS_COMPONENT_MAGIC);
    EXPECT_EQ(d.struct_size, sizeof(plexus_component_t));
    EXPECT_STREQ(d.framework, "coll");
    EXPECT_STREQ(d.name, "sdkdemo");
    EXPECT_EQ(d.framework_major, PLEXUS_COLL_MAJOR);
    EXPECT_EQ(d.version_major, 2);
    EXPECT_EQ(d.version_release, 4);
    EXPECT_STREQ(d.package, "plexus-sdk-test");
    EXPECT_FALSE(plexus::mca::check_descriptor(&PLEXUS_COMPONENT_SYMBOL(btl, sdkbare), "btl", "sdkbare"));
    EXPECT_EQ(PLEXUS_COMPONENT_SYMBOL(btl, sdkbare).register_params, nullptr);
}

TEST(SdkDescriptor, EntryPointsHandTheComponentItsOwnDescriptor) {
    const plexus_component_t &d = PLEXUS_COMPONENT_SYMBOL(coll, sdkdemo);
    const plexus_host_api_t host = table_of_minor(3);
    g_calls = {};
    ASSERT_NE(d.register_params, nullptr);
    EXPECT_EQ(d.register_params(&host, nullptr), PLEXUS_SUCCESS);
    EXPECT_EQ(g_calls.self_at_register, &d);
    plexus_reason_t why{};
    EXPECT_EQ(d.open(&host, &why), PLEXUS_SUCCESS);
    EXPECT_EQ(g_calls.self_at_open, &d);
    plexus_query_result_t result{};
    EXPECT_EQ(d.query(nullptr, &result), PLEXUS_SUCCESS);
    EXPECT_EQ(result.priority, 33);
    EXPECT_EQ(d.query(nullptr, nullptr), PLEXUS_ERR_BAD_PARAM);
}

TEST(SdkDescriptor, AnotherHostMajorIsRefusedWithTheReason) {
    const plexus_component_t &d = PLEXUS_COMPONENT_SYMBOL(coll, sdkdemo);
    plexus_host_api_t host = table_of_minor(3);
    host.major = PLEXUS_HOST_API_MAJOR + 1;
    g_calls = {};
    EXPECT_EQ(d.register_params(&host, &d), PLEXUS_ERR_NOT_AVAILABLE);
    plexus_reason_t why{};
    EXPECT_EQ(d.open(&host, &why), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_NE(std::string(why.text).find("host API"), std::string::npos) << why.text;
    EXPECT_EQ(g_calls.self_at_open, nullptr) << "the component's open must not run";
    EXPECT_EQ(d.open(nullptr, &why), PLEXUS_ERR_NOT_AVAILABLE);
}

TEST(SdkDescriptor, ExceptionsBecomeErrorCodesWithTheirReason) {
    const plexus_component_t &demo = PLEXUS_COMPONENT_SYMBOL(coll, sdkdemo);
    g_calls = {};
    g_calls.throw_in_query = true;
    plexus_query_result_t result{};
    EXPECT_EQ(demo.query(nullptr, &result), PLEXUS_ERROR);
    EXPECT_STREQ(result.why.text, "query went wrong");
    const plexus_component_t &bare = PLEXUS_COMPONENT_SYMBOL(btl, sdkbare);
    const plexus_host_api_t host = table_of_minor(3);
    plexus_reason_t why{};
    EXPECT_EQ(bare.open(&host, &why), PLEXUS_ERR_OUT_OF_RESOURCE);
    EXPECT_STREQ(why.text, "out of memory");
    result = {};
    EXPECT_EQ(bare.query(nullptr, &result), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_STREQ(result.why.text, "not for scope 7");
}

// ---- RAII and the module of a process-wide component -------------------------------------------

struct Registered {
    plexus_progress_fn_t fn = nullptr;
    void *ctx = nullptr;
    int registrations = 0;
    int unregistrations = 0;
};
Registered g_progress;
int record_register(plexus_progress_fn_t fn, void *ctx) {
    g_progress.fn = fn;
    g_progress.ctx = ctx;
    ++g_progress.registrations;
    return PLEXUS_SUCCESS;
}
int record_unregister(plexus_progress_fn_t fn, void *ctx) {
    EXPECT_EQ(fn, g_progress.fn);
    EXPECT_EQ(ctx, g_progress.ctx);
    ++g_progress.unregistrations;
    return PLEXUS_SUCCESS;
}
int poll_nothing(void *) { return 0; }

TEST(SdkProgress, RegisteredOnceAndUnregisteredWithItsOwner) {
    g_progress = {};
    plexus_host_api_t host = table_of_minor(3);
    host.progress_register = record_register;
    host.progress_unregister = record_unregister;
    int ctx = 0;
    {
        plexus::sdk::ProgressRegistration r;
        EXPECT_FALSE(r.active());
        EXPECT_EQ(r.start(&host, poll_nothing, &ctx), PLEXUS_SUCCESS);
        EXPECT_EQ(r.start(&host, poll_nothing, &ctx), PLEXUS_SUCCESS);
        EXPECT_TRUE(r.active());
        EXPECT_EQ(g_progress.registrations, 1);
        EXPECT_EQ(g_progress.unregistrations, 0);
    }
    EXPECT_EQ(g_progress.unregistrations, 1);
    plexus::sdk::ProgressRegistration never;
    EXPECT_EQ(never.start(&host, nullptr, &ctx), PLEXUS_ERR_BAD_PARAM);
}

// A module whose open() fails when told to, for ProcessModule and the BTL entry points.
struct FakeBtl {
    struct Handle {
        plexus_btl_module_t api;
        FakeBtl *self;
    };
    explicit FakeBtl(bool ok) : ok_(ok) { handle_.self = this; }
    int open(plexus_reason_t *why) {
        if (!ok_) plexus::sdk::set_reason(why, "no fake device");
        return ok_ ? PLEXUS_SUCCESS : PLEXUS_ERR_NOT_AVAILABLE;
    }
    plexus_btl_module_t *api() { return &handle_.api; }

    int add_procs(size_t n, const plexus_btl_proc_t *, plexus_btl_endpoint_t **) { return int(n); }
    int del_procs(size_t, plexus_btl_endpoint_t *const *) { return 0; }
    int register_recv(uint8_t, plexus_btl_recv_fn_t, void *) { return 0; }
    int send(int *ep, uint8_t tag, const void *, size_t hlen, const void *, size_t plen) {
        last_ep = ep;
        return int(tag + hlen + plen);
    }
    int register_mem(void *, size_t, plexus_btl_mem_handle_t *) { return 0; }
    int deregister_mem(plexus_btl_mem_handle_t *) { return 0; }
    int rdma(int *ep, void *, size_t, const plexus_btl_mem_handle_t *, uint64_t, plexus_btl_rdma_done_fn_t, void *,
             bool write) {
        last_ep = ep;
        return write ? 2 : 1;
    }
    size_t pending() const { return 5; }
#ifdef PLEXUS_BTL_HAS_SEND_PACK
    int send_pack(int *ep, uint8_t tag, const void *, size_t hlen, plexus_btl_pack_fn_t, void *, size_t offset,
                  size_t plen) {
        last_ep = ep;
        return int(tag + hlen + offset + plen);
    }
#endif

    bool ok_;
    Handle handle_{};
    int *last_ep = nullptr;
};

struct FakeAccess {
    static FakeBtl *module(plexus_btl_module_t *m) { return reinterpret_cast<FakeBtl::Handle *>(m)->self; }
    static int *endpoint(plexus_btl_endpoint_t *ep) { return reinterpret_cast<int *>(ep); }
};

TEST(SdkProcessModule, KeptOnlyWhenItsOpenSucceeds) {
    plexus::sdk::ProcessModule<FakeBtl> slot;
    plexus_query_result_t result{};
    EXPECT_EQ(slot.query(&result, 40), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_STREQ(result.why.text, "not opened");
    plexus_reason_t why{};
    EXPECT_EQ(slot.open(&why, [] { return std::make_unique<FakeBtl>(false); }), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_STREQ(why.text, "no fake device");
    EXPECT_EQ(slot.get(), nullptr);
    EXPECT_EQ(slot.open(&why, [] { return std::make_unique<FakeBtl>(true); }), PLEXUS_SUCCESS);
    result = {};
    EXPECT_EQ(slot.query(&result, 40), PLEXUS_SUCCESS);
    EXPECT_EQ(result.priority, 40);
    EXPECT_EQ(result.module, slot.get()->api());
    EXPECT_EQ(slot.close(), PLEXUS_SUCCESS);
    EXPECT_EQ(slot.get(), nullptr);
}

TEST(SdkBtlEntryPoints, ForwardToTheModuleAndRefuseNoEndpoint) {
    FakeBtl module(true);
    plexus_btl_module_t *m = module.api();
    plexus::sdk::install_btl_entry_points<FakeAccess>(m);
    int peer = 0;
    auto *ep = reinterpret_cast<plexus_btl_endpoint_t *>(&peer);
    EXPECT_EQ(m->add_procs(m, 3, nullptr, nullptr), 3);
    EXPECT_EQ(m->send(m, ep, 10, nullptr, 2, nullptr, 3), 15);
    EXPECT_EQ(module.last_ep, &peer);
    EXPECT_EQ(m->send(m, nullptr, 10, nullptr, 2, nullptr, 3), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(m->get(m, ep, nullptr, 0, nullptr, 0, nullptr, nullptr), 1);
    EXPECT_EQ(m->put(m, ep, nullptr, 0, nullptr, 0, nullptr, nullptr), 2);
    EXPECT_EQ(m->get(m, nullptr, nullptr, 0, nullptr, 0, nullptr, nullptr), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(m->pending(m), 5u);
#ifdef PLEXUS_BTL_HAS_SEND_PACK  // btl.h 1.2: installed because the module has it
    ASSERT_NE(m->send_pack, nullptr);
    EXPECT_EQ(m->send_pack(m, ep, 1, nullptr, 2, nullptr, nullptr, 3, 4), 10);
    EXPECT_EQ(m->send_pack(m, nullptr, 1, nullptr, 2, nullptr, nullptr, 3, 4), PLEXUS_ERR_BAD_PARAM);
#endif
    EXPECT_EQ(m->fast_channel, nullptr) << "only install_fast_channels sets them";
    const plexus::sdk::BtlLimits limits{1024, 2048, 77};
    plexus::sdk::apply_btl_limits(limits, m);
    EXPECT_EQ(m->eager_limit, 1024u);
    EXPECT_EQ(m->max_send_size, 2048u);
    EXPECT_EQ(m->exclusivity, 77u);
}

TEST(SdkOnDemandLibrary, ResolvesALibrarysFunctionOnFirstUse) {
    plexus::sdk::OnDemandLibrary lib("libc.so.6", "PLEXUS_TEST_NO_SUCH_VARIABLE", "the test");
    int (*get_pid)() = nullptr;
    std::string why;
    ASSERT_TRUE(lib.resolve("getpid", &get_pid, &why)) << why;
    EXPECT_EQ(get_pid(), ::getpid());
    EXPECT_EQ(lib.path(), "libc.so.6");
}

TEST(SdkOnDemandLibrary, AMissingFunctionIsNamedWithItsLibrary) {
    plexus::sdk::OnDemandLibrary lib("libc.so.6", nullptr, "the test");
    void (*fn)() = nullptr;
    std::string why;
    EXPECT_FALSE(lib.resolve("plexus_no_such_function", &fn, &why));
    EXPECT_NE(why.find("libc.so.6 (libc.so.6) has no plexus_no_such_function, which the test needs"), std::string::npos)
        << why;
    EXPECT_EQ(fn, nullptr);
}

TEST(SdkOnDemandLibrary, AMissingLibraryIsNamedWithTheLoadersReasonEveryTime) {
    plexus::sdk::OnDemandLibrary lib("libplexus_absent.so.9", "PLEXUS_TEST_NO_SUCH_VARIABLE", "the feature");
    for (int i = 0; i < 2; ++i) {
        std::string why;
        EXPECT_FALSE(lib.open(&why));
        EXPECT_NE(why.find("the feature needs libplexus_absent.so.9, which cannot be loaded: "), std::string::npos) << why;
        EXPECT_NE(why.find("libplexus_absent.so.9: cannot open shared object file"), std::string::npos) << why;
        EXPECT_NE(why.find("point PLEXUS_TEST_NO_SUCH_VARIABLE at it"), std::string::npos) << why;
    }
}

TEST(SdkOnDemandLibrary, TheOverrideNamesTheFileTriedAndItsVariable) {
    ::setenv("PLEXUS_TEST_ON_DEMAND_FILE", "/nonexistent/libplexus_other.so", 1);
    plexus::sdk::OnDemandLibrary lib("libc.so.6", "PLEXUS_TEST_ON_DEMAND_FILE", "the feature");
    std::string why;
    EXPECT_FALSE(lib.open(&why));
    ::unsetenv("PLEXUS_TEST_ON_DEMAND_FILE");
    EXPECT_EQ(lib.path(), "/nonexistent/libplexus_other.so");
    EXPECT_NE(why.find("the feature needs libc.so.6, which cannot be loaded from /nonexistent/libplexus_other.so "
                       "(set by PLEXUS_TEST_ON_DEMAND_FILE): "),
              std::string::npos)
        << why;
}

}  // namespace
