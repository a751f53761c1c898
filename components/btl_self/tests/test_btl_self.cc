// Unit tests of btl_self: it reaches only this process, delivers in progress and never inside
// send (also when a callback sends to itself), reuses its buffers, and does bounded put/get.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstring>
#include <string>
#include <vector>

#include "components/btl_self/self_module.h"

using plexus::btl_self::BufferPool;
using plexus::btl_self::SelfModule;

namespace {

int fake_job_info(plexus_job_info_t *out) {
    plexus_job_info_t j{};
    j.struct_size = out->struct_size;
    j.rank = 3;
    j.size = 4;
    std::snprintf(j.nspace, sizeof j.nspace, "job");
    *out = j;
    return PLEXUS_SUCCESS;
}
int fake_progress(plexus_progress_fn_t, void *) { return PLEXUS_SUCCESS; }
void fake_log(const plexus_component_t *, int, const char *, ...) {}

plexus_host_api_t make_host() {
    plexus_host_api_t h{};
    h.struct_size = sizeof h;
    h.major = PLEXUS_HOST_API_MAJOR;
    h.minor = PLEXUS_HOST_API_MINOR;
    h.job_info = fake_job_info;
    h.progress_register = fake_progress;
    h.progress_unregister = fake_progress;
    h.log = fake_log;
    return h;
}
const plexus_host_api_t kHost = make_host();

class Self : public ::testing::Test {
protected:
    void SetUp() override {
        plexus_reason_t why{};
        ASSERT_EQ(m.open(&why), PLEXUS_SUCCESS) << why.text;
        const plexus_btl_proc_t procs[3] = {{10, 2, "job"}, {11, 3, "job"}, {12, 3, "otherjob"}};
        plexus_btl_endpoint_t *eps[3] = {};
        ASSERT_EQ(m.add_procs(3, procs, eps), PLEXUS_SUCCESS);
        EXPECT_EQ(eps[0], nullptr);
        EXPECT_EQ(eps[2], nullptr);
        ASSERT_NE(eps[1], nullptr);
        me = eps[1];
    }
    SelfModule m{&kHost, nullptr};
    plexus_btl_endpoint_t *me = nullptr;
};

struct Got {
    std::vector<std::string> msgs;
    uint32_t src = 0;
    SelfModule *m = nullptr;
    plexus_btl_endpoint_t *me = nullptr;
    int echoes = 0;
    static void on(void *ctx, const plexus_btl_recv_desc_t *d) {
        auto *g = static_cast<Got *>(ctx);
        g->src = d->src;
        g->msgs.emplace_back(static_cast<const char *>(d->data), d->len);
    }
    // Answers each message by sending to itself again, a few times.
    static void echo(void *ctx, const plexus_btl_recv_desc_t *d) {
        on(ctx, d);
        auto *g = static_cast<Got *>(ctx);
        if (g->echoes-- > 0) g->m->send(g->me, 1, d->data, d->len, nullptr, 0);
    }
};

TEST_F(Self, ReachesOnlyItself) {
    const plexus_btl_module_t *api = m.api();
    EXPECT_EQ(api->exclusivity, PLEXUS_BTL_EXCLUSIVITY_SELF);
    EXPECT_TRUE(api->caps & PLEXUS_BTL_CAP_GET);
    EXPECT_EQ(api->fast_channel, nullptr);
}

TEST_F(Self, DeliversInProgressNotInSend) {
    Got g;
    m.register_recv(1, Got::on, &g);
    ASSERT_EQ(m.send(me, 1, "ab", 2, "cd", 2), PLEXUS_SUCCESS);
    EXPECT_TRUE(g.msgs.empty());
    EXPECT_EQ(m.pending(), 1u);
    EXPECT_EQ(m.progress(), 1);
    ASSERT_EQ(g.msgs.size(), 1u);
    EXPECT_EQ(g.msgs[0], "abcd");
    EXPECT_EQ(g.src, 11u);
    EXPECT_EQ(m.pending(), 0u);
    EXPECT_EQ(m.progress(), 0);
}

// BTL 1.2: the caller's pack function fills the queued message at the offset asked for.
TEST_F(Self, SendPackPacksThePayloadIntoTheQueuedMessage) {
    Got g;
    m.register_recv(1, Got::on, &g);
    auto pack = [](void *ctx, size_t offset, size_t len, void *dst) {
        ++*static_cast<int *>(ctx);
        for (size_t i = 0; i < len; ++i) static_cast<char *>(dst)[i] = static_cast<char>('a' + (offset + i) % 26);
    };
    int calls = 0;
    ASSERT_EQ(m.send_pack(me, 1, "H:", 2, pack, &calls, 3, 5), PLEXUS_SUCCESS);
    ASSERT_EQ(m.send_pack(me, 1, "E", 1, pack, &calls, 0, 0), PLEXUS_SUCCESS);
    EXPECT_EQ(m.send_pack(me, 1, "H", 1, nullptr, nullptr, 0, 4), PLEXUS_ERR_BAD_PARAM);
    m.progress();
    EXPECT_EQ(g.msgs, (std::vector<std::string>{"H:defgh", "E"}));
    EXPECT_EQ(calls, 1) << "an empty payload is not packed";
}

TEST_F(Self, CallbackSendingToItselfWaitsForTheNextProgress) {
    Got g;
    g.m = &m;
    g.me = me;
    g.echoes = 3;
    m.register_recv(1, Got::echo, &g);
    ASSERT_EQ(m.send(me, 1, "x", 1, nullptr, 0), PLEXUS_SUCCESS);
    EXPECT_EQ(m.progress(), 1);
    EXPECT_EQ(g.msgs.size(), 1u);
    EXPECT_EQ(m.pending(), 1u);
    while (m.progress() > 0) {
    }
    EXPECT_EQ(g.msgs.size(), 4u);
}

TEST_F(Self, RefusesOtherEndpointsAndOversizedMessages) {
    EXPECT_EQ(m.send(nullptr, 1, "x", 1, nullptr, 0), PLEXUS_ERR_BAD_PARAM);
    std::vector<char> big(SelfModule::kMaxSendSize + 1);
    EXPECT_EQ(m.send(me, 1, big.data(), big.size(), nullptr, 0), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(m.send(me, 1, big.data(), SelfModule::kMaxSendSize, nullptr, 0), PLEXUS_SUCCESS);
}

// The limits the user sets (btl_self_eager_limit, _max_send_size, _exclusivity, read by the
// component with plexus::sdk::btl_limits) are what the module reports and enforces.
TEST(SelfLimits, TheUsersLimitsAreReportedAndEnforced) {
    SelfModule limited(&kHost, nullptr, plexus::sdk::BtlLimits{512, 4096, 7});
    plexus_reason_t why{};
    ASSERT_EQ(limited.open(&why), PLEXUS_SUCCESS) << why.text;
    EXPECT_EQ(limited.api()->eager_limit, 512u);
    EXPECT_EQ(limited.api()->max_send_size, 4096u);
    EXPECT_EQ(limited.api()->exclusivity, 7u);
    const plexus_btl_proc_t proc{1, 3, "job"};
    plexus_btl_endpoint_t *ep = nullptr;
    ASSERT_EQ(limited.add_procs(1, &proc, &ep), PLEXUS_SUCCESS);
    std::vector<char> bytes(4097);
    EXPECT_EQ(limited.send(ep, 1, bytes.data(), 4097, nullptr, 0), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(limited.send(ep, 1, bytes.data(), 4096, nullptr, 0), PLEXUS_SUCCESS);
}

TEST_F(Self, OrderIsKept) {
    Got g;
    m.register_recv(2, Got::on, &g);
    for (int i = 0; i < 100; ++i) {
        const std::string s = std::to_string(i);
        ASSERT_EQ(m.send(me, 2, s.data(), s.size(), nullptr, 0), PLEXUS_SUCCESS);
    }
    m.progress();
    ASSERT_EQ(g.msgs.size(), 100u);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(g.msgs[i], std::to_string(i));
}

TEST(SelfBufferPool, ReusesSmallBuffersAndFreesLargeOnes) {
    BufferPool pool;
    auto a = pool.take(100);
    const uint8_t *storage = a->bytes.data();
    pool.give(std::move(a));
    EXPECT_EQ(pool.free_count(), 1u);
    auto b = pool.take(50);
    EXPECT_EQ(b->bytes.data(), storage) << "a small message must reuse a kept buffer";
    EXPECT_EQ(pool.free_count(), 0u);
    auto big = pool.take(BufferPool::kPooledCapacity + 1);
    pool.give(std::move(big));
    EXPECT_EQ(pool.free_count(), 0u);
}

TEST_F(Self, GetAndPutStayInsideTheRegion) {
    char region[64];
    std::memset(region, 'r', sizeof region);
    plexus_btl_mem_handle_t h{};
    ASSERT_EQ(m.register_mem(region, sizeof region, &h), PLEXUS_SUCCESS);
    char local[16];
    int done = 0;
    auto on_done = [](void *ctx, int status) { *static_cast<int *>(ctx) += status == PLEXUS_SUCCESS; };
    const auto base = reinterpret_cast<uint64_t>(region);
    ASSERT_EQ(m.rdma(me, local, 16, &h, base + 48, on_done, &done, false), PLEXUS_SUCCESS);
    EXPECT_EQ(done, 1);
    EXPECT_EQ(local[15], 'r');
    std::memset(local, 'p', sizeof local);
    ASSERT_EQ(m.rdma(me, local, 16, &h, base, on_done, &done, true), PLEXUS_SUCCESS);
    EXPECT_EQ(region[0], 'p');
    EXPECT_EQ(region[16], 'r');
    EXPECT_EQ(m.rdma(me, local, 16, &h, base + 49, on_done, &done, false), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(m.rdma(me, local, 16, &h, base - 1, on_done, &done, false), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(done, 2);
    EXPECT_EQ(m.deregister_mem(&h), PLEXUS_SUCCESS);
}

}  // namespace
