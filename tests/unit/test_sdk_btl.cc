// The SDK's BTL pieces shared by btl_sm, btl_openib and btl_tcp: the sending side of a fast
// channel (plexus/sdk/btl_fast_channel.hpp: every operation from every state, a grant, the
// reported state and the counts), the module handle, the receive-callback table
// (plexus/sdk/btl_module.hpp) and the parameter checks (plexus/sdk/btl_limits.hpp).
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>


#include <plexus/btl.h>
#include <plexus/sdk/btl_fast_channel.hpp>
#include <plexus/sdk/btl_limits.hpp>
#include <plexus/sdk/btl_module.hpp>

using plexus::sdk::FastChannel;
using plexus::sdk::FastState;
using plexus::sdk::FastStep;
using plexus::sdk::FastWant;

namespace {

FastChannel in_state(FastState s, FastWant w = FastWant::Active) {
    FastChannel f;
    f.state = s;
    f.want = w;
    return f;
}

struct Outcome {
    int rc;
    FastStep step;
    FastState state;
    FastWant want;
    bool no_auto;
};

Outcome apply(FastChannel f, plexus_btl_fast_op_t op) {
    FastStep step = FastStep::Nothing;
    const int rc = f.apply(op, &step);
    return {rc, step, f.state, f.want, f.no_auto};
}

std::vector<std::string> g_log;
void record_log(const plexus_component_t *, int, const char *fmt, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    g_log.emplace_back(buf);
}

}  // namespace

TEST(SdkFastChannel, CreateAsksOnceAndLeavesTheStateToTheComponent) {
    Outcome o = apply(in_state(FastState::None), PLEXUS_BTL_FAST_CREATE);
    EXPECT_EQ(o.rc, PLEXUS_SUCCESS);
    EXPECT_EQ(o.step, FastStep::Request);
    EXPECT_EQ(o.state, FastState::None);  // the component may still refuse (no capacity)
    o = apply(in_state(FastState::Pending, FastWant::Quiesced), PLEXUS_BTL_FAST_CREATE);
    EXPECT_EQ(o.step, FastStep::Nothing);
    EXPECT_EQ(o.want, FastWant::Active);
    for (FastState s : {FastState::Active, FastState::Quiesced}) {
        o = apply(in_state(s), PLEXUS_BTL_FAST_CREATE);
        EXPECT_EQ(o.rc, PLEXUS_SUCCESS);
        EXPECT_EQ(o.step, FastStep::Nothing);
        EXPECT_EQ(o.state, s);
    }
    FastChannel f;
    f.no_auto = true;
    f.requested();
    EXPECT_EQ(f.state, FastState::Pending);
    EXPECT_EQ(f.want, FastWant::Active);
    EXPECT_FALSE(f.no_auto);
}

TEST(SdkFastChannel, QuiesceAndResumeNeedAChannelAndWaitForAPendingOne) {
    for (plexus_btl_fast_op_t op : {PLEXUS_BTL_FAST_QUIESCE, PLEXUS_BTL_FAST_RESUME}) {
        const Outcome o = apply(in_state(FastState::None), op);
        EXPECT_EQ(o.rc, PLEXUS_ERR_NOT_FOUND);
        EXPECT_EQ(o.state, FastState::None);
    }
    EXPECT_EQ(apply(in_state(FastState::Active), PLEXUS_BTL_FAST_QUIESCE).state, FastState::Quiesced);
    EXPECT_EQ(apply(in_state(FastState::Quiesced), PLEXUS_BTL_FAST_RESUME).state, FastState::Active);
    EXPECT_EQ(apply(in_state(FastState::Quiesced), PLEXUS_BTL_FAST_QUIESCE).state, FastState::Quiesced);
    EXPECT_EQ(apply(in_state(FastState::Active), PLEXUS_BTL_FAST_RESUME).state, FastState::Active);
    Outcome o = apply(in_state(FastState::Pending), PLEXUS_BTL_FAST_QUIESCE);
    EXPECT_EQ(o.state, FastState::Pending);
    EXPECT_EQ(o.want, FastWant::Quiesced);
    o = apply(in_state(FastState::Pending, FastWant::Quiesced), PLEXUS_BTL_FAST_RESUME);
    EXPECT_EQ(o.want, FastWant::Active);
}

TEST(SdkFastChannel, DropGivesBackAChannelInUseAndMarksAPendingOne) {
    for (FastState s : {FastState::Active, FastState::Quiesced}) {
        const Outcome o = apply(in_state(s), PLEXUS_BTL_FAST_DROP);
        EXPECT_EQ(o.rc, PLEXUS_SUCCESS);
        EXPECT_EQ(o.step, FastStep::GiveBack);
        EXPECT_EQ(o.state, FastState::None);
        EXPECT_TRUE(o.no_auto);
    }
    Outcome o = apply(in_state(FastState::Pending), PLEXUS_BTL_FAST_DROP);
    EXPECT_EQ(o.step, FastStep::Nothing);  // given back when the grant arrives
    EXPECT_EQ(o.state, FastState::Pending);
    EXPECT_EQ(o.want, FastWant::Dropped);
    EXPECT_TRUE(o.no_auto);
    o = apply(in_state(FastState::None), PLEXUS_BTL_FAST_DROP);
    EXPECT_EQ(o.rc, PLEXUS_SUCCESS);
    EXPECT_EQ(o.step, FastStep::Nothing);
    EXPECT_TRUE(o.no_auto);
    EXPECT_EQ(apply(in_state(FastState::Active), static_cast<plexus_btl_fast_op_t>(99)).rc, PLEXUS_ERR_BAD_PARAM);
}

TEST(SdkFastChannel, AGrantIsTakenAsAskedInTheMeantimeOrGoesBack) {
    FastChannel f = in_state(FastState::Pending, FastWant::Quiesced);
    EXPECT_TRUE(f.granted(true));
    EXPECT_EQ(f.state, FastState::Quiesced);
    EXPECT_TRUE(f.in_use());
    f = in_state(FastState::Pending);
    EXPECT_TRUE(f.granted(true));
    EXPECT_EQ(f.state, FastState::Active);
    EXPECT_FALSE(f.granted(true)) << "a repeated grant is not a new channel";
    f = in_state(FastState::Pending, FastWant::Dropped);
    EXPECT_FALSE(f.granted(true));
    f = in_state(FastState::Pending);
    EXPECT_FALSE(f.granted(false));
    EXPECT_EQ(f.state, FastState::Pending);
    EXPECT_FALSE(in_state(FastState::None).granted(true));
}

TEST(SdkFastChannel, TheReportedStateAndTheCounts) {
    EXPECT_EQ(in_state(FastState::None).reported(), PLEXUS_BTL_FAST_NONE);
    EXPECT_EQ(in_state(FastState::Pending).reported(), PLEXUS_BTL_FAST_PENDING);
    EXPECT_EQ(in_state(FastState::Pending, FastWant::Quiesced).reported(), PLEXUS_BTL_FAST_PENDING);
    EXPECT_EQ(in_state(FastState::Pending, FastWant::Dropped).reported(), PLEXUS_BTL_FAST_NONE);
    EXPECT_EQ(in_state(FastState::Active).reported(), PLEXUS_BTL_FAST_ACTIVE);
    EXPECT_EQ(in_state(FastState::Quiesced).reported(), PLEXUS_BTL_FAST_QUIESCED);
    struct Ep {
        FastChannel out;
    };
    std::vector<std::unique_ptr<Ep>> eps;
    for (FastState s : {FastState::Active, FastState::None, FastState::Quiesced, FastState::Active,
                        FastState::Pending})
        eps.push_back(std::make_unique<Ep>(Ep{in_state(s)}));
    const plexus_btl_fast_stats_t st =
        plexus::sdk::count_fast_channels(eps, [](const auto &ep) -> const FastChannel & { return ep->out; });
    EXPECT_EQ(st.active, 2u);
    EXPECT_EQ(st.quiesced, 1u);
    EXPECT_EQ(st.incoming, 0u);
    EXPECT_EQ(st.fast_sends, 0u);
}

namespace {
struct Owner {
    int id = 7;
};
struct Got {
    uint32_t src = 0;
    uint8_t tag = 0;
    std::string bytes;
    int calls = 0;
};
void on_message(void *ctx, const plexus_btl_recv_desc_t *m) {
    auto *g = static_cast<Got *>(ctx);
    g->src = m->src;
    g->tag = m->tag;
    g->bytes.assign(static_cast<const char *>(m->data), m->len);
    ++g->calls;
}
}  // namespace

TEST(SdkBtlModule, TheHandleLeadsBackToItsOwner) {
    Owner owner;
    plexus::sdk::BtlModuleHandle<Owner> h{};
    h.self = &owner;
    EXPECT_EQ(plexus::sdk::BtlModuleHandle<Owner>::owner(&h.api), &owner);
    EXPECT_EQ(plexus::sdk::kBtlLostPeerStatus, 1);
}

TEST(SdkBtlModule, TheRecvTableDeliversByTagAndWarnsOncePerUnregisteredTag) {
    plexus_host_api_t host{};
    host.struct_size = sizeof host;
    host.log = record_log;
    g_log.clear();
    plexus::sdk::BtlRecvTable table;
    Got got;
    ASSERT_EQ(table.set(3, on_message, &got), PLEXUS_SUCCESS);
    EXPECT_TRUE(table.deliver(&host, nullptr, 42, 3, "abc", 3));
    EXPECT_EQ(got.calls, 1);
    EXPECT_EQ(got.src, 42u);
    EXPECT_EQ(got.tag, 3);
    EXPECT_EQ(got.bytes, "abc");
    EXPECT_FALSE(table.deliver(&host, nullptr, 42, 4, "x", 1));
    EXPECT_FALSE(table.deliver(&host, nullptr, 42, 4, "x", 1));
    ASSERT_EQ(g_log.size(), 1u);
    EXPECT_EQ(g_log[0], "dropping messages with tag 0x04: no callback registered");
    ASSERT_EQ(table.set(3, nullptr, &got), PLEXUS_SUCCESS);  // unregistered again
    EXPECT_FALSE(table.deliver(&host, nullptr, 42, 3, "abc", 3));
    EXPECT_EQ(got.calls, 1);
}

TEST(SdkBtlLimits, TheChecksEveryBtlWithListsAndAQueueMakes) {
    EXPECT_EQ(plexus::sdk::check_if_lists("tcp", "eth0", ""), "");
    EXPECT_EQ(plexus::sdk::check_if_lists("tcp", nullptr, "eth0"), "");
    EXPECT_EQ(plexus::sdk::check_if_lists("openib", "mlx5_0", "mlx5_1"),
              "btl_openib_if_include (mlx5_0) and btl_openib_if_exclude (mlx5_1) are both set; set one of them");
    EXPECT_EQ(plexus::sdk::check_max_queued("tcp", 4096, 4096), "");
    EXPECT_EQ(plexus::sdk::check_max_queued("tcp", 4095, 4096),
              "btl_tcp_max_queued is 4095 bytes, below btl_tcp_max_send_size (4096 bytes); valid: at least "
              "btl_tcp_max_send_size");
    struct Params {
        uint64_t eager_limit = 1000;
        uint64_t max_send_size = 2000;
        uint32_t exclusivity = 5;
    } p;
    const plexus::sdk::BtlLimits l = plexus::sdk::limits_of(p);
    EXPECT_EQ(l.eager_limit, 1000u);
    EXPECT_EQ(l.max_send_size, 2000u);
    EXPECT_EQ(l.exclusivity, 5u);
    // A core without param_lookup: the component's own values stay.
    plexus_host_api_t host{};
    host.struct_size = sizeof host;
    plexus::sdk::read_btl_limits(&host, nullptr, &p);
    EXPECT_EQ(p.eager_limit, 1000u);
    EXPECT_EQ(p.max_send_size, 2000u);
    EXPECT_EQ(p.exclusivity, 5u);
}
