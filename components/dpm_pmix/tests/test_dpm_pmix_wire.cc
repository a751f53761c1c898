// Unit tests of what dpm_pmix puts on the wire: handshake messages and port names come back as
// written, and anything else is refused with a reason; the socket channel carries messages in
// order and gives up at its timeout, or when the other end closes, with a message; the name
// channel takes back what it sent when a meeting is abandoned.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "components/dpm_pmix/channel.h"
#include "components/dpm_pmix/handshake_message.h"
#include "components/dpm_pmix/port_name.h"

using namespace plexus::dpm_pmix;

TEST(DpmPmixMessage, RoundTripWithGroup) {
    HandshakeMessage m{4242, {{"plexrun-77-1", 0}, {"plexrun-77-1", 1}, {"other", 4000000000u}}, {}};
    std::string why;
    auto back = decode(encode(m), &why);
    ASSERT_TRUE(back) << why;
    EXPECT_EQ(back->cid, 4242u);
    EXPECT_EQ(back->group, m.group);
}

TEST(DpmPmixMessage, RoundTripWithoutGroup) {
    std::string why;
    auto back = decode(encode({7, {}, {}}), &why);
    ASSERT_TRUE(back) << why;
    EXPECT_EQ(back->cid, 7u);
    EXPECT_TRUE(back->group.empty());
    EXPECT_TRUE(back->key.empty());
}

// The first message carries the root's half of the pair secret, before the group.
TEST(DpmPmixMessage, RoundTripWithKeyHalf) {
    std::vector<uint8_t> half(kKeyBytes);
    for (size_t i = 0; i < half.size(); ++i) half[i] = static_cast<uint8_t>(i * 37 + 250);
    HandshakeMessage m{9, {{"ns", 0}}, half};
    const std::string text = encode(m);
    EXPECT_NE(text.find("cid 9\nkey fa1f44"), std::string::npos) << text;
    std::string why;
    auto back = decode(text, &why);
    ASSERT_TRUE(back) << why;
    EXPECT_EQ(back->key, half);
    EXPECT_EQ(back->group, m.group);
}

TEST(DpmPmixMessage, AMalformedKeyIsRefused) {
    std::string why;
    EXPECT_FALSE(decode("cid 3\nkey 00\n", &why));
    EXPECT_NE(why.find("64 hex digits"), std::string::npos) << why;
    EXPECT_FALSE(decode("cid 3\nkey " + std::string(64, 'g') + "\n", &why));
    EXPECT_FALSE(decode("cid 3\nkey " + std::string(64, 'A') + "\n", &why));  // lower case only
    // One key, before the group.
    EXPECT_FALSE(decode("cid 3\nproc ns 0\nkey " + std::string(64, '0') + "\n", &why));
    EXPECT_FALSE(decode("cid 3\nkey " + std::string(64, '0') + "\nkey " + std::string(64, '1') + "\n", &why));
}

TEST(DpmPmixMessage, GarbageIsRefused) {
    std::string why;
    EXPECT_FALSE(decode("", &why));
    EXPECT_FALSE(decode("cid -1\n", &why));
    EXPECT_FALSE(decode("cid 99999999999\n", &why));
    EXPECT_FALSE(decode("hello 3\n", &why));
    EXPECT_FALSE(decode("cid 3\nproc ns\n", &why));
    EXPECT_FALSE(decode("cid 3\nproc ns x\n", &why));
    EXPECT_FALSE(decode("cid 3\nprocs ns 1\n", &why));
    EXPECT_NE(why.find("process 0"), std::string::npos) << why;
}

TEST(DpmPmixPort, RoundTrip) {
    PortName p{"plexrun-12:weird:ns", 3, 17, 0x0123456789abcdefull};
    const std::string text = format_port(p);
    EXPECT_EQ(text, "plexus-port:plexrun-12:weird:ns:3:17:0123456789abcdef");
    std::string why;
    auto back = parse_port(text, &why);
    ASSERT_TRUE(back) << why;
    EXPECT_EQ(back->nspace, p.nspace);
    EXPECT_EQ(back->rank, 3u);
    EXPECT_EQ(back->serial, 17u);
    EXPECT_EQ(back->nonce, p.nonce);
}

TEST(DpmPmixPort, MalformedNamesAreRefused) {
    std::string why;
    for (const char *bad : {"", "port", "plexus-port:", "plexus-port:ns:1:2", "plexus-port::1:2:0123456789abcdef",
                            "plexus-port:ns:x:2:0123456789abcdef", "plexus-port:ns:1:2:0123",
                            "plexus-port:ns:1:2:0123456789abcdeg", "tcp://127.0.0.1:5000"})
        EXPECT_FALSE(parse_port(bad, &why)) << bad;
}

namespace {

std::string g_error;

void set_error(const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    g_error = buf;
}

plexus_dpm_services_t fake_services() {
    plexus_dpm_services_t s{};
    s.struct_size = sizeof s;
    s.set_error = set_error;
    return s;
}

struct SocketPair {
    int fd[2] = {-1, -1};
    SocketPair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fd), 0); }
    ~SocketPair() {
        for (int f : fd)
            if (f >= 0) ::close(f);
    }
};

}  // namespace

TEST(DpmPmixFdChannel, MessagesArriveInOrderByteForByte) {
    plexus_dpm_services_t s = fake_services();
    SocketPair sp;
    FdChannel a(&s, sp.fd[0], 2000), b(&s, sp.fd[1], 2000);
    std::string big(100000, '\0');
    for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 31 + 7);
    // The big one is larger than the socket buffer: written while the reader reads.
    ASSERT_EQ(a.send("first"), PLEXUS_DPM_SUCCESS);
    ASSERT_EQ(a.send(""), PLEXUS_DPM_SUCCESS);
    std::string got;
    ASSERT_EQ(b.recv(&got), PLEXUS_DPM_SUCCESS);
    EXPECT_EQ(got, "first");
    ASSERT_EQ(b.recv(&got), PLEXUS_DPM_SUCCESS);
    EXPECT_EQ(got, "");
    ASSERT_EQ(b.send(std::string("x\0y", 3)), PLEXUS_DPM_SUCCESS);
    ASSERT_EQ(a.recv(&got), PLEXUS_DPM_SUCCESS);
    EXPECT_EQ(got, std::string("x\0y", 3));
    pid_t child = ::fork();
    if (child == 0) {
        plexus_dpm_services_t cs = fake_services();
        FdChannel w(&cs, sp.fd[0], 5000);
        ::_exit(w.send(big) == PLEXUS_DPM_SUCCESS ? 0 : 1);
    }
    ASSERT_EQ(b.recv(&got), PLEXUS_DPM_SUCCESS);
    EXPECT_EQ(got, big);
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_EQ(status, 0);
}

TEST(DpmPmixFdChannel, SilentPeerTimesOutNamingTheWait) {
    plexus_dpm_services_t s = fake_services();
    SocketPair sp;
    FdChannel b(&s, sp.fd[1], 50);
    std::string got;
    g_error.clear();
    EXPECT_EQ(b.recv(&got), PLEXUS_DPM_ERR_PORT);
    EXPECT_NE(g_error.find("waited 50 ms"), std::string::npos) << g_error;
}

TEST(DpmPmixFdChannel, ClosedPeerAndGarbageAreErrors) {
    plexus_dpm_services_t s = fake_services();
    {
        SocketPair sp;
        FdChannel b(&s, sp.fd[1], 1000);
        ::close(sp.fd[0]);
        sp.fd[0] = -1;
        std::string got;
        EXPECT_EQ(b.recv(&got), PLEXUS_DPM_ERR_PORT);
        EXPECT_NE(g_error.find("closed the connection"), std::string::npos) << g_error;
    }
    {
        SocketPair sp;
        FdChannel b(&s, sp.fd[1], 1000);
        const char junk[] = "GET / HTTP/1.0\r\n\r\n";  // not a Plexus peer: a huge "length"
        ASSERT_EQ(::write(sp.fd[0], junk, sizeof junk), static_cast<ssize_t>(sizeof junk));
        std::string got;
        EXPECT_EQ(b.recv(&got), PLEXUS_DPM_ERR_PORT);
        EXPECT_NE(g_error.find("not a Plexus MPI_Comm_join"), std::string::npos) << g_error;
    }
}

namespace {

// A name service in memory: what publish_as put and unpublish_as took back.
std::map<std::string, std::string> g_store;
std::vector<std::string> g_withdrawn;

int fake_publish_as(const char *key, const char *value, int) {
    if (g_store.count(key)) return PLEXUS_DPM_ERR_SERVICE;
    g_store[key] = value;
    return PLEXUS_DPM_SUCCESS;
}

int fake_unpublish_as(const char *key) {
    g_withdrawn.push_back(key);
    g_store.erase(key);
    return PLEXUS_DPM_SUCCESS;
}

int fake_lookup_wait(const char *key, int, char **value) {
    auto it = g_store.find(key);
    if (it == g_store.end()) return set_error("waited for '%s'", key), PLEXUS_DPM_ERR_PORT;
    *value = strdup(it->second.c_str());
    g_store.erase(it);  // a one-shot message: reading takes it
    return PLEXUS_DPM_SUCCESS;
}

plexus_dpm_services_t name_services(uint16_t minor) {
    plexus_dpm_services_t s = fake_services();
    s.major = PLEXUS_DPM_SERVICES_MAJOR;
    s.minor = minor;
    s.publish_as = fake_publish_as;
    s.lookup_wait = fake_lookup_wait;
    s.unpublish_as = minor >= 3 ? fake_unpublish_as : nullptr;
    return s;
}

}  // namespace

// A meeting that failed: the messages this side sent, read or not, are taken back; the other
// side's are not touched.
TEST(DpmPmixNameChannel, AbandonTakesBackWhatWasSent) {
    g_store.clear();
    g_withdrawn.clear();
    plexus_dpm_services_t s = name_services(3);
    NameChannel a(&s, "t.p", "t.c", 10), b(&s, "t.c", "t.p", 10);
    ASSERT_EQ(a.send("first"), PLEXUS_DPM_SUCCESS);
    std::string got;
    ASSERT_EQ(b.recv(&got), PLEXUS_DPM_SUCCESS);
    EXPECT_EQ(got, "first");
    ASSERT_EQ(b.send("answer"), PLEXUS_DPM_SUCCESS);
    ASSERT_EQ(a.send("second, never read"), PLEXUS_DPM_SUCCESS);
    a.abandon();
    EXPECT_EQ(g_withdrawn, (std::vector<std::string>{"t.p.0", "t.p.1"}));
    EXPECT_EQ(g_store.count("t.p.1"), 0u);
    EXPECT_EQ(g_store.count("t.c.0"), 1u);  // the other side's message stays for its reader
}

// A core older than services 1.3 has no unpublish_as: abandoning is then a no-op, not a crash.
TEST(DpmPmixNameChannel, AbandonWithAnOlderCoreDoesNothing) {
    g_store.clear();
    g_withdrawn.clear();
    plexus_dpm_services_t s = name_services(2);
    NameChannel a(&s, "u.p", "u.c", 10);
    ASSERT_EQ(a.send("unread"), PLEXUS_DPM_SUCCESS);
    a.abandon();
    EXPECT_TRUE(g_withdrawn.empty());
    EXPECT_EQ(g_store.count("u.p.0"), 1u);
}
