// Unit tests of btl_tcp between jobs (key_choice.h): the key is chosen by the other process's
// namespace (the job secret within the job, the secret shared with that process between jobs,
// named in the hello by its id); two modules of two jobs sharing a secret connect and carry
// messages both ways; a hello from a job this process shares no secret with, and one naming the
// key of another job, are refused, counted and named; the connector with no secret fails at once,
// naming the job; a core before host API 1.6 is declined with a message.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "components/btl_tcp/key_choice.h"
#include "components/btl_tcp/tests/tcp_test_host.h"

using namespace plexus::btl_tcp;
using namespace tcp_test;

namespace {

constexpr uint8_t kTag = 0x05;

std::vector<uint8_t> secret(uint8_t fill) { return std::vector<uint8_t>(PLEXUS_PEER_SECRET_LEN, fill); }

std::vector<uint8_t> id_of(const std::vector<uint8_t> &s) {
    HandshakeKey k;
    EXPECT_TRUE(k.derive(s.data(), s.size()));
    uint8_t id[kKeyIdBytes];
    EXPECT_TRUE(k.key_id(id));
    return {id, id + sizeof id};
}

Hello hello_from(const char *nspace, uint32_t rank, const std::vector<uint8_t> &id) {
    Hello h;
    EXPECT_TRUE(make_hello(nspace, rank, "jobA", 0, &h));
    std::copy(id.begin(), id.end(), h.key_id);
    return h;
}

class KeyChoice : public ::testing::Test {
protected:
    void SetUp() override { reset(); }
};

TEST_F(KeyChoice, WithinTheJobTheJobSecretsKeyWithIdZero) {
    g_peer_secrets[{"jobA", 1}] = {secret(9)};  // never asked: the namespace decides
    PairKey key;
    uint8_t id[kKeyIdBytes] = {1, 1, 1};
    std::string why;
    ASSERT_TRUE(key_to(&kHost, "jobA", "jobA", 1, &key, id, &why)) << why;
    EXPECT_EQ(key, nullptr);
    EXPECT_EQ(std::vector<uint8_t>(id, id + kKeyIdBytes), std::vector<uint8_t>(kKeyIdBytes, 0));
    const Hello h = hello_from("jobA", 1, std::vector<uint8_t>(kKeyIdBytes, 0));
    ASSERT_TRUE(key_from(&kHost, "jobA", h, &key, &why)) << why;
    EXPECT_EQ(key, nullptr);
}

TEST_F(KeyChoice, BetweenJobsTheNewestSharedSecretAndItsId) {
    g_peer_secrets[{"jobB", 2}] = {secret(2), secret(1)};
    PairKey key;
    uint8_t id[kKeyIdBytes];
    std::string why;
    ASSERT_TRUE(key_to(&kHost, "jobA", "jobB", 2, &key, id, &why)) << why;
    ASSERT_NE(key, nullptr);
    EXPECT_EQ(std::vector<uint8_t>(id, id + kKeyIdBytes), id_of(secret(2)));
}

TEST_F(KeyChoice, TheAcceptorFindsTheSecretTheHelloNamesAmongTheShared) {
    g_peer_secrets[{"jobB", 2}] = {secret(2), secret(1)};
    PairKey key;
    std::string why;
    ASSERT_TRUE(key_from(&kHost, "jobA", hello_from("jobB", 2, id_of(secret(1))), &key, &why)) << why;
    ASSERT_NE(key, nullptr);
    uint8_t id[kKeyIdBytes];
    ASSERT_TRUE(key->key_id(id));
    EXPECT_EQ(std::vector<uint8_t>(id, id + kKeyIdBytes), id_of(secret(1)));
}

TEST_F(KeyChoice, AJobWithoutASharedSecretIsRefusedNamed) {
    PairKey key;
    uint8_t id[kKeyIdBytes];
    std::string why;
    EXPECT_FALSE(key_to(&kHost, "jobA", "jobC", 0, &key, id, &why));
    EXPECT_NE(why.find("no secret shared with job jobC"), std::string::npos) << why;
    why.clear();
    EXPECT_FALSE(key_from(&kHost, "jobA", hello_from("jobC", 0, id_of(secret(3))), &key, &why));
    EXPECT_NE(why.find("no secret shared with job jobC"), std::string::npos) << why;
    EXPECT_EQ(key, nullptr);
}

// jobC's process names the key of the secret this process shares with jobB: not one shared with
// jobC, so refused, whatever it could prove with it.
TEST_F(KeyChoice, AHelloNamingAnotherJobsKeyIsRefused) {
    g_peer_secrets[{"jobB", 0}] = {secret(2)};
    g_peer_secrets[{"jobC", 0}] = {secret(3)};
    PairKey key;
    std::string why;
    EXPECT_FALSE(key_from(&kHost, "jobA", hello_from("jobC", 0, id_of(secret(2))), &key, &why));
    EXPECT_NE(why.find("rank 0 of job jobC named a key that is none of the 1 secret(s)"), std::string::npos) << why;
    EXPECT_EQ(key, nullptr);
}

TEST_F(KeyChoice, ACoreBeforeHostApi16IsDeclinedWithAMessage) {
    plexus_host_api_t old = make_host();
    old.struct_size = offsetof(plexus_host_api_t, peer_secrets);
    old.minor = 5;
    g_peer_secrets[{"jobB", 0}] = {secret(2)};
    PairKey key;
    uint8_t id[kKeyIdBytes];
    std::string why;
    EXPECT_FALSE(key_to(&old, "jobA", "jobB", 0, &key, id, &why));
    EXPECT_NE(why.find("host API before 1.6"), std::string::npos) << why;
    // Within the job nothing changes.
    EXPECT_TRUE(key_to(&old, "jobA", "jobA", 1, &key, id, &why));
}

// ---- two modules of two jobs over loopback ----
struct Inbox {
    std::vector<std::string> got;
    static void on_message(void *ctx, const plexus_btl_recv_desc_t *m) {
        static_cast<Inbox *>(ctx)->got.emplace_back(static_cast<const char *>(m->data), m->len);
    }
};

struct Proc {
    std::string nspace;
    std::unique_ptr<TcpModule> module;
    Inbox inbox;
    plexus_btl_endpoint_t *ep = nullptr;  // to the other one
};

class TwoJobs : public ::testing::Test {
protected:
    void SetUp() override { reset(); }

    // Opens rank 0 of nspace, with a job secret of its own.
    void open(Proc &p, const std::string &nspace, uint8_t job_secret_fill) {
        g_nspace = nspace;
        g_rank = 0;
        g_size = 1;
        std::fill(std::begin(g_secret), std::end(g_secret), job_secret_fill);
        p.nspace = nspace;
        TcpParams params;
        params.connect_timeout = 400;
        params.handshake_timeout = 2000;
        p.module = std::make_unique<TcpModule>(&kHost, nullptr, params);
        plexus_reason_t why{};
        ASSERT_EQ(p.module->open(&why), PLEXUS_SUCCESS) << why.text;
        p.module->register_recv(kTag, Inbox::on_message, &p.inbox);
    }
    void add(Proc &p, const Proc &other) {
        plexus_btl_proc_t proc{7, 0, other.nspace.c_str()};
        ASSERT_EQ(p.module->add_procs(1, &proc, &p.ep), PLEXUS_SUCCESS);
        ASSERT_NE(p.ep, nullptr);
    }
    int send(Proc &from, const std::string &text) {
        return from.module->send(reinterpret_cast<Endpoint *>(from.ep), kTag, "", 0, text.data(), text.size());
    }
    bool progress_until(const std::function<bool()> &done) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!done()) {
            if (std::chrono::steady_clock::now() > end) return false;
            a.module->progress();
            b.module->progress();
        }
        return true;
    }
    Proc a, b;
};

TEST_F(TwoJobs, ProcessesSharingTheirMeetingsSecretConnectAndTalkBothWays) {
    open(a, "jobA", 0x11);
    open(b, "jobB", 0x22);  // another job secret: only the shared one can open the connection
    g_peer_secrets[{"jobB", 0}] = {secret(5)};
    g_peer_secrets[{"jobA", 0}] = {secret(5)};
    add(a, b);
    add(b, a);
    ASSERT_EQ(send(a, "from A"), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return b.inbox.got.size() == 1; }));
    EXPECT_EQ(b.inbox.got[0], "from A");
    ASSERT_EQ(send(b, "from B"), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return a.inbox.got.size() == 1; }));
    EXPECT_EQ(a.inbox.got[0], "from B");
    EXPECT_EQ(a.module->refused() + b.module->refused(), 0u);
    EXPECT_EQ(a.module->connections(), 1u);
    EXPECT_TRUE(g_aborts.empty());
}

// B holds a secret for A, A none for B: A refuses B's hello, counted and naming jobB; B, with no
// connection, ends its job at the connect timeout.
TEST_F(TwoJobs, AHelloFromAJobWithoutSecretIsRefusedAndCounted) {
    open(a, "jobA", 0x11);
    open(b, "jobB", 0x22);
    g_peer_secrets[{"jobA", 0}] = {secret(5)};
    add(a, b);
    add(b, a);
    ASSERT_EQ(send(b, "let me in"), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return a.module->refused() >= 1 && !g_aborts.empty(); }));
    EXPECT_NE(a.module->last_refusal().find("no secret shared with job jobB"), std::string::npos)
        << a.module->last_refusal();
    EXPECT_TRUE(a.inbox.got.empty());
}

// Both hold secrets for each other, but not the same one (a stale one, or an impostor's): the
// id B names is none of A's, so A refuses; nothing is delivered.
TEST_F(TwoJobs, AHelloProvingAnotherSecretIsRefused) {
    open(a, "jobA", 0x11);
    open(b, "jobB", 0x22);
    g_peer_secrets[{"jobB", 0}] = {secret(5)};
    g_peer_secrets[{"jobA", 0}] = {secret(6)};
    add(a, b);
    add(b, a);
    ASSERT_EQ(send(b, "let me in"), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return a.module->refused() >= 1 && !g_aborts.empty(); }));
    EXPECT_NE(a.module->last_refusal().find("named a key that is none of"), std::string::npos)
        << a.module->last_refusal();
    EXPECT_TRUE(a.inbox.got.empty());
}

// The connector with no secret for the other job sends nothing: its job ends at once, naming it.
TEST_F(TwoJobs, SendingToAJobWithoutSecretFailsNamingIt) {
    open(a, "jobA", 0x11);
    open(b, "jobB", 0x22);
    add(a, b);
    EXPECT_EQ(send(a, "hello?"), PLEXUS_ERR_UNREACH);
    ASSERT_FALSE(g_aborts.empty());
    EXPECT_NE(g_aborts[0].second.find("no secret shared with job jobB"), std::string::npos) << g_aborts[0].second;
    EXPECT_EQ(b.module->refused(), 0u);
}

}  // namespace
