// Unit tests of dpm_ud's module and of a meeting that breaks off: the SDK's fill_dpm_module sets
// the version and exactly the entry points named (plexus/sdk/dpm_module.hpp), dpm_ud's module is
// complete; and when the other root vanishes after the cards (the exchange failing mid-way), each
// side returns the meeting's error class naming what it waited for, with the inter-communicator it
// had built still in *intercomm, which is how the core learns what to free (dpm.h); two roots that
// meet hand the same pair secret to their cores, which the key and each nonce change.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <plexus/sdk/dpm_module.hpp>

#include "components/dpm_ud/meeting.h"
#include "components/dpm_ud/pair_secret.h"
#include "components/dpm_ud/roots.h"
#include "components/dpm_ud/stream.h"
#include "components/dpm_ud/ud_module.h"

using namespace plexus::dpm_ud;

namespace {

// ---- the SDK helper ----

int fake_init(plexus_dpm_module_t *, const plexus_dpm_services_t *, plexus_coll_comm_t *, plexus_coll_comm_t **) {
    return 0;
}
int fake_finalize(plexus_dpm_module_t *) { return 0; }
int fake_lookup(plexus_dpm_module_t *, const char *, char *) { return 0; }

TEST(SdkDpmModule, FillsTheVersionAndExactlyTheNamedEntryPoints) {
    plexus_dpm_module_t m;
    std::memset(&m, 0xa5, sizeof m);  // whatever was there before must not survive
    plexus::sdk::fill_dpm_module(&m, {.init = fake_init, .finalize = fake_finalize, .lookup = fake_lookup});
    EXPECT_EQ(m.struct_size, sizeof m);
    EXPECT_EQ(m.major, PLEXUS_DPM_MAJOR);
    EXPECT_EQ(m.minor, PLEXUS_DPM_MINOR);
    EXPECT_EQ(m.init, &fake_init);
    EXPECT_EQ(m.finalize, &fake_finalize);
    EXPECT_EQ(m.lookup, &fake_lookup);
    EXPECT_EQ(m.spawn, nullptr);
    EXPECT_EQ(m.open_port, nullptr);
    EXPECT_EQ(m.close_port, nullptr);
    EXPECT_EQ(m.accept, nullptr);
    EXPECT_EQ(m.connect, nullptr);
    EXPECT_EQ(m.join, nullptr);
    EXPECT_EQ(m.disconnect, nullptr);
    EXPECT_EQ(m.publish, nullptr);
    EXPECT_EQ(m.unpublish, nullptr);
}

TEST(SdkDpmModule, DpmUdsModuleHasEveryOperationAndLeavesNamesToTheJobManager) {
    UdParams params{};
    plexus_dpm_module_t *m = create_module(nullptr, nullptr, &params);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->struct_size, sizeof *m);
    EXPECT_EQ(m->major, PLEXUS_DPM_MAJOR);
    for (auto fn : {(void *)m->init, (void *)m->finalize, (void *)m->spawn, (void *)m->open_port, (void *)m->close_port,
                    (void *)m->accept, (void *)m->connect, (void *)m->join, (void *)m->disconnect})
        EXPECT_NE(fn, nullptr);
    EXPECT_EQ(m->publish, nullptr);
    EXPECT_EQ(m->lookup, nullptr);
    EXPECT_EQ(m->unpublish, nullptr);
    destroy_module();
}

// ---- a meeting of two single-process groups over a socket, with a core faked around it ----

plexus_coll_comm_t *const kLocal = reinterpret_cast<plexus_coll_comm_t *>(0x1000);
plexus_coll_comm_t *const kBuilt = reinterpret_cast<plexus_coll_comm_t *>(0x2000);
constexpr uint32_t kCid = 7;

std::atomic<int> g_built{0};  // both roots build at once in the pair-secret test
std::mutex g_secrets_lock;
std::vector<std::vector<uint8_t>> g_secrets;  // each build's pair secret (empty: none)
uint32_t g_agreed = kCid;  // the id intercomm_create must be given
std::string g_error;

int one(plexus_coll_comm_t *) { return 1; }
int zero(plexus_coll_comm_t *) { return 0; }
int bcast(plexus_coll_module_t *, void *, int, plexus_coll_dtype_t *, int, plexus_coll_comm_t *) { return 0; }
int gather(plexus_coll_module_t *, const void *s, int n, plexus_coll_dtype_t *, void *r, int, plexus_coll_dtype_t *,
           int, plexus_coll_comm_t *) {
    std::memcpy(r, s, static_cast<size_t>(n));
    return 0;
}
int gatherv(plexus_coll_module_t *, const void *s, int n, plexus_coll_dtype_t *, void *r, const int[], const int displs[],
            plexus_coll_dtype_t *, int, plexus_coll_comm_t *) {
    if (n > 0) std::memcpy(static_cast<char *>(r) + displs[0], s, static_cast<size_t>(n));
    return 0;
}
int own_cards(void **blob, size_t *len) {
    *len = 8;
    *blob = std::calloc(1, *len);
    return 0;
}
int provide_cards(const plexus_dpm_proc_t *, const void *, size_t) { return 0; }
int local_proc(plexus_coll_comm_t *, int rank, plexus_dpm_proc_t *out) {
    out->nspace = "here";
    out->rank = static_cast<uint32_t>(rank);
    return 0;
}
int context_id(plexus_coll_comm_t *, uint32_t at_least, uint32_t *cid) {
    *cid = at_least > kCid ? at_least : kCid;
    return 0;
}
int intercomm_create(plexus_coll_comm_t *, const plexus_dpm_remote_group_t *remote, plexus_coll_comm_t **out) {
    ++g_built;
    EXPECT_EQ(remote->context_id, g_agreed);
    {
        std::lock_guard<std::mutex> g(g_secrets_lock);
        const uint8_t *p = remote->pair_secret;
        g_secrets.push_back(p ? std::vector<uint8_t>(p, p + PLEXUS_PEER_SECRET_LEN) : std::vector<uint8_t>{});
    }
    *out = kBuilt;
    return 0;
}
void set_error(const char *fmt, ...) {
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    g_error = text;
}
void host_log(const plexus_component_t *, int, const char *, ...) {}

struct FakeCore {
    plexus_coll_functions_t fns{};
    plexus_coll_services_t coll{};
    plexus_dpm_services_t s{};
    plexus_host_api_t host{};
    MeetingContext c;

    FakeCore() {
        fns.bcast = bcast;
        fns.gather = gather;
        fns.gatherv = gatherv;
        coll.comm_rank = zero;
        coll.comm_size = one;
        coll.dispatch = &fns;
        s.struct_size = sizeof s;
        s.coll = &coll;
        s.context_id = context_id;
        s.intercomm_create = intercomm_create;
        s.set_error = set_error;
        s.local_proc = local_proc;
        s.own_cards = own_cards;
        s.provide_cards = provide_cards;
        host.log = host_log;
        c.s = &s;
        c.host = &host;
        c.timeout_ms = 2000;
        c.fail_class = PLEXUS_DPM_ERR_PORT;
        g_built = 0;
        g_secrets.clear();
        g_agreed = kCid;
        g_error.clear();
    }
};

Message cards_of(Kind k, uint64_t session, uint32_t cid = kCid) {
    Message m;
    m.kind = k;
    m.session = session;
    m.cid = cid;
    m.procs.push_back({"there", 0, Bytes(8, 1)});
    return m;
}

TEST(DpmUdMeeting, AnAnswererWhoseStarterVanishesAfterTheCardsFailsKeepingWhatItBuilt) {
    int sv[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    FakeCore core;
    const uint64_t session = 42;
    std::thread starter([&] {  // hello, cards, then gone before done
        Stream st(sv[1], true, 2000, "answerer");
        std::string why;
        Message ack, cards_ack;
        st.recv(&ack, &why);
        EXPECT_EQ(ack.kind, Kind::hello_ack);
        st.send(cards_of(Kind::cards, session), &why);
        st.recv(&cards_ack, &why);
        EXPECT_EQ(cards_ack.kind, Kind::cards_ack);
    });
    Stream stream(sv[0], true, 2000, "the vanishing starter");
    Message hello;
    hello.kind = Kind::hello;
    hello.session = session;
    hello.group_size = 1;
    hello.group_id = "there";
    hello.cid = kCid;
    AnswerRoot root(&stream, hello, 2000);
    plexus_coll_comm_t *inter = nullptr;
    const int rc = meet_as_answerer(core.c, {kLocal, 0}, &root, PLEXUS_DPM_SUCCESS, "", &inter);
    starter.join();
    EXPECT_EQ(rc, PLEXUS_DPM_ERR_PORT);
    EXPECT_NE(g_error.find("reading from the vanishing starter: the other side closed the connection"), std::string::npos)
        << g_error;
    EXPECT_EQ(g_built.load(), 1);
    EXPECT_EQ(inter, kBuilt);  // half-built: the core frees it, knowing it from here
}

TEST(DpmUdMeeting, AStarterWhoseAnswererVanishesBeforeDoneFailsKeepingWhatItBuilt) {
    int sv[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    FakeCore core;
    std::thread answerer([&] {  // hello_ack, cards_ack, then gone before done_ack
        Stream st(sv[1], true, 2000, "starter");
        std::string why;
        Message hello, cards;
        st.recv(&hello, &why);
        Message ack;
        ack.kind = Kind::hello_ack;
        ack.session = hello.session;
        ack.group_size = 1;
        ack.group_id = "there";
        ack.cid = kCid;
        st.send(ack, &why);
        st.recv(&cards, &why);
        EXPECT_EQ(cards.kind, Kind::cards);
        st.send(cards_of(Kind::cards_ack, hello.session), &why);
    });
    Stream stream(sv[0], true, 2000, "the vanishing answerer");
    StarterRoot root(&stream, 2000);
    plexus_coll_comm_t *inter = nullptr;
    const int rc = meet_as_starter(core.c, {kLocal, 0}, &root, 43, PLEXUS_DPM_SUCCESS, "", &inter);
    answerer.join();
    EXPECT_EQ(rc, PLEXUS_DPM_ERR_PORT);
    // Writing done or reading its answer, whichever met the closed socket first.
    EXPECT_NE(g_error.find("the vanishing answerer"), std::string::npos) << g_error;
    EXPECT_EQ(g_built.load(), 1);
    EXPECT_EQ(inter, kBuilt);
}

// The other group proposes a higher id: one propose round, then the cards, the build and done,
// each step in its order (the starter spreads the hello's answer alone when the ids differ).
TEST(DpmUdMeeting, AStarterWhoseIdDiffersAgreesInARoundAndMeets) {
    int sv[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    FakeCore core;
    g_agreed = 9;
    std::thread answerer([&] {
        Stream st(sv[1], true, 2000, "starter");
        std::string why;
        Message hello, in;
        st.recv(&hello, &why);
        Message ack;
        ack.kind = Kind::hello_ack;
        ack.session = hello.session;
        ack.group_size = 1;
        ack.group_id = "there";
        ack.cid = 9;
        st.send(ack, &why);
        st.recv(&in, &why);
        EXPECT_EQ(in.kind, Kind::propose);
        EXPECT_EQ(in.cid, 9u);
        Message pa;
        pa.kind = Kind::propose_ack;
        pa.session = hello.session;
        pa.cid = 9;
        st.send(pa, &why);
        st.recv(&in, &why);
        EXPECT_EQ(in.kind, Kind::cards);
        EXPECT_EQ(in.cid, 9u);
        st.send(cards_of(Kind::cards_ack, hello.session, 9), &why);
        st.recv(&in, &why);
        EXPECT_EQ(in.kind, Kind::done);
        Message da;
        da.kind = Kind::done_ack;
        da.session = hello.session;
        st.send(da, &why);
    });
    Stream stream(sv[0], true, 2000, "the answerer");
    StarterRoot root(&stream, 2000);
    plexus_coll_comm_t *inter = nullptr;
    const int rc = meet_as_starter(core.c, {kLocal, 0}, &root, 44, PLEXUS_DPM_SUCCESS, "", &inter);
    answerer.join();
    EXPECT_EQ(rc, PLEXUS_DPM_SUCCESS) << g_error;
    EXPECT_EQ(g_built.load(), 1);
    EXPECT_EQ(inter, kBuilt);
}

// Two roots meeting over a socket (a join: no key) give their cores one and the same secret,
// not zero.
TEST(DpmUdMeeting, BothGroupsBuildWithTheSamePairSecret) {
    int sv[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    FakeCore core;
    int answer_rc = -1;
    std::thread answerer([&] {
        Stream st(sv[1], true, 2000, "starter");
        std::string why;
        Message hello;
        ASSERT_EQ(st.recv(&hello, &why), 0) << why;
        AnswerRoot root(&st, hello, 2000);
        plexus_coll_comm_t *inter = nullptr;
        answer_rc = meet_as_answerer(core.c, {kLocal, 0}, &root, PLEXUS_DPM_SUCCESS, "", &inter);
    });
    Stream stream(sv[0], true, 2000, "the answerer");
    StarterRoot root(&stream, 2000);
    plexus_coll_comm_t *inter = nullptr;
    const int rc = meet_as_starter(core.c, {kLocal, 0}, &root, 45, PLEXUS_DPM_SUCCESS, "", &inter);
    answerer.join();
    EXPECT_EQ(rc, PLEXUS_DPM_SUCCESS) << g_error;
    EXPECT_EQ(answer_rc, PLEXUS_DPM_SUCCESS) << g_error;
    ASSERT_EQ(g_secrets.size(), 2u);
    ASSERT_EQ(g_secrets[0].size(), size_t{PLEXUS_PEER_SECRET_LEN});
    EXPECT_EQ(g_secrets[0], g_secrets[1]);
    EXPECT_NE(g_secrets[0], std::vector<uint8_t>(PLEXUS_PEER_SECRET_LEN, 0));
}

TEST(DpmUdPairSecret, TheKeyTheSessionAndEachNonceChangeIt) {
    Key k{};
    k.fill(1);
    Nonce s{}, a{};
    s.fill(2);
    a.fill(3);
    const PairSecret base = pair_secret(k, 7, s, a);
    EXPECT_EQ(base, pair_secret(k, 7, s, a));
    Key k2 = k;
    k2[31] ^= 1;
    Nonce s2 = s, a2 = a;
    s2[0] ^= 1;
    a2[15] ^= 1;
    EXPECT_NE(base, pair_secret(k2, 7, s, a));
    EXPECT_NE(base, pair_secret(k, 8, s, a));
    EXPECT_NE(base, pair_secret(k, 7, s2, a));
    EXPECT_NE(base, pair_secret(k, 7, s, a2));
    EXPECT_NE(base, pair_secret(k, 7, a, s));  // the roles are not interchangeable
}

}  // namespace
