// Unit tests of what an endpoint takes from the runtime when the component does not say: the
// job secret as key, the rank as sender, and the runtime's runtime_dgram_* parameters, which
// are registered and read with the runtime's others.
#include <gmock/gmock.h>

#include "dgram_test_support.h"
#include "fake_backend.h"
#include "base/param_registry.h"
#include "base/param_sources.h"
#include "runtime/runtime.h"
#include "runtime/runtime_params.h"

using namespace plexus::test::dgram;
using plexus::runtime::Runtime;
using plexus::runtime::RuntimeSettings;
using plexus::test::FakeBackend;
using plexus::test::launched_job;

namespace {

const std::string kSecretHex = std::string(62, 'c') + "0d";

class DgramDefaults : public ::testing::Test {
protected:
    void start(RuntimeSettings settings = {}) {
        auto b = std::make_unique<FakeBackend>(launched_job(3, 4));
        b->job_strings[Runtime::kSecretKey] = kSecretHex;
        ASSERT_TRUE(Runtime::init(settings, std::move(b)));
    }
    void TearDown() override {
        while (Runtime::current()) Runtime::finalize();
    }
    static Ep open_job_endpoint(const char *label = "test") {
        plexus_dgram_open_args_t a{};
        a.struct_size = sizeof a;
        a.transport = PLEXUS_DGRAM_UDP;
        a.interface = "lo";
        a.label = label;
        a.sender = PLEXUS_DGRAM_SENDER_RANK;
        Ep ep;
        EXPECT_EQ(dg().open(&a, &ep.p, &ep.why), PLEXUS_SUCCESS) << ep.why.text;
        return ep;
    }
};

TEST_F(DgramDefaults, TheJobSecretIsTheKeyAndTheRankTheSender) {
    start();
    Ep a = open_job_endpoint(), b = open_job_endpoint();
    // Whoever holds the secret's bytes speaks the job's datagrams; nobody else does.
    OpenOptions with_secret;
    with_secret.key = Bytes(32, 0xcc);
    with_secret.key[31] = 0x0d;
    Ep c = open_udp(77, with_secret);
    Ep stranger = open_udp(78);

    plexus_dgram_recv_info_t info{};
    Bytes got;
    ASSERT_EQ(a.send(b.address(), pattern(9, 1)), PLEXUS_SUCCESS);
    ASSERT_EQ(b.recv(&got, 1000, &info), PLEXUS_SUCCESS);
    EXPECT_EQ(info.sender, 3u);
    ASSERT_EQ(c.send(b.address(), pattern(9, 2)), PLEXUS_SUCCESS);
    ASSERT_EQ(b.recv(&got, 1000, &info), PLEXUS_SUCCESS);
    EXPECT_EQ(info.sender, 77u);
    ASSERT_EQ(stranger.send(b.address(), pattern(9, 3)), PLEXUS_SUCCESS);
    EXPECT_EQ(b.recv(&got, 200), PLEXUS_ERR_TIMEOUT);
    EXPECT_EQ(b.dropped(PLEXUS_DGRAM_DROP_FOREIGN), 1u);
}

TEST_F(DgramDefaults, TheRuntimesParametersApplyToEveryEndpoint) {
    RuntimeSettings s;
    s.dgram.drop_rate = 1.0;
    s.dgram.mtu = 600;
    start(s);
    Ep a = open_job_endpoint(), b = open_job_endpoint();
    plexus_dgram_limits_t l{};
    l.struct_size = sizeof l;
    ASSERT_EQ(dg().limits(a.p, &l), PLEXUS_SUCCESS);
    EXPECT_EQ(l.mtu, 600u - l.header);
    ASSERT_EQ(a.send(b.address(), pattern(9, 1)), PLEXUS_SUCCESS);
    Bytes got;
    EXPECT_EQ(b.recv(&got, 200), PLEXUS_ERR_TIMEOUT);
    EXPECT_EQ(b.dropped(PLEXUS_DGRAM_DROP_INJECTED), 1u);
}

TEST(DgramParams, TheyAreRegisteredAndReadWithTheRuntimes) {
    plexus::mca::Setting rate;
    rate.name = "runtime_dgram_drop_rate";
    rate.value = "0.125";
    rate.kind = plexus::mca::SourceKind::Env;
    rate.origin = "env PLEXUS_MCA_runtime_dgram_drop_rate";
    plexus::mca::Setting iface = rate;
    iface.name = "runtime_dgram_if";
    iface.value = "eth0";
    plexus::mca::ParamRegistry params({rate, iface});
    plexus::runtime::register_runtime_params(params);
    for (const char *name : {"runtime_dgram_if", "runtime_dgram_drop_rate", "runtime_dgram_drop_seed",
                             "runtime_dgram_mtu", "runtime_dgram_max_message", "runtime_dgram_reassembly_memory",
                             "runtime_dgram_reassembly_timeout_ms", "runtime_dgram_multicast_ttl",
                             "runtime_dgram_rcvbuf"}) {
        const plexus::mca::Param *p = params.find(name);
        ASSERT_NE(p, nullptr) << name;
        EXPECT_FALSE(p->spec.help.empty()) << name;
    }
    const RuntimeSettings s = plexus::runtime::runtime_settings(params);
    EXPECT_DOUBLE_EQ(s.dgram.drop_rate, 0.125);
    EXPECT_EQ(s.dgram.interface, "eth0");
    EXPECT_EQ(s.dgram.reassembly_timeout.count(), 2000);
}

}  // namespace
