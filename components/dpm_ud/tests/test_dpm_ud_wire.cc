// Unit tests of what dpm_ud puts on the wire and its root-to-root connection: every message kind
// comes back as written; every truncation, a wrong magic or version, counts out of range and
// random bytes are refused with a reason, never followed; port names and the children's
// environment round-trip and anything else is refused; frames over a socket arrive whole, an
// oversized one is refused and a silent peer times out naming what was awaited; rc mode's proofs
// bind key, role, session and both nonces, a connection without the key is refused and counted
// while the real one gets through.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "components/dpm_ud/address.h"
#include "components/dpm_ud/rc_connection.h"
#include "components/dpm_ud/stream.h"
#include "components/dpm_ud/wire.h"

using namespace plexus::dpm_ud;

namespace {

Message sample(Kind k) {
    Message m;
    m.kind = k;
    m.session = 0x0123456789abcdefull;
    m.group_size = 3;
    m.group_id = "plexrun.4711.2";
    m.deadline_ms = 1700000000123ull;
    m.rc = k == Kind::hello_ack ? 1 : 0;
    m.rc_port = k == Kind::hello_ack ? 40123 : 0;
    for (size_t i = 0; i < m.nonce.size(); ++i) m.nonce[i] = static_cast<uint8_t>(i * 7 + 1);
    m.cid = 4242;
    m.procs = {{"plexrun.4711.2", 0, {4, 0, 0, 0, 9}}, {"other:job", 4000000000u, {}}, {"x", 2, Bytes(3000, 0xab)}};
    m.status = k == Kind::done ? 50 : 0;
    m.text = k == Kind::done ? "process 1 could not build" : "";
    // Fields a kind does not carry are not sent: clear them so the round trip compares equal.
    const bool group = k == Kind::hello || k == Kind::hello_ack;
    const bool procs = k == Kind::cards || k == Kind::cards_ack;
    const bool status = k == Kind::cards_ack || k == Kind::done;
    if (!group) m.group_size = 0, m.group_id.clear(), m.deadline_ms = 0, m.rc = 0, m.rc_port = 0, m.nonce = {};
    if (!procs) m.procs.clear();
    if (!status) m.status = 0, m.text.clear();
    if (k == Kind::done || k == Kind::done_ack) m.cid = 0;
    return m;
}

const Kind kAll[] = {Kind::hello, Kind::hello_ack, Kind::propose, Kind::propose_ack,
                     Kind::cards, Kind::cards_ack, Kind::done,    Kind::done_ack};

}  // namespace

TEST(DpmUdWire, EveryKindRoundTrips) {
    for (Kind k : kAll) {
        const Message m = sample(k);
        const Bytes b = encode(m);
        std::string why;
        auto back = decode(b.data(), b.size(), &why);
        ASSERT_TRUE(back) << kind_name(k) << ": " << why;
        EXPECT_EQ(*back, m) << kind_name(k);
    }
}

TEST(DpmUdWire, TheHelloIsOneSmallDatagram) {
    // The paper's point: group size, id and context id in one datagram.
    EXPECT_LT(encode(sample(Kind::hello)).size(), 100u);
}

TEST(DpmUdWire, EveryTruncationIsRefused) {
    for (Kind k : kAll) {
        const Bytes b = encode(sample(k));
        for (size_t n = 0; n < b.size(); ++n) {
            std::string why;
            EXPECT_FALSE(decode(b.data(), n, &why)) << kind_name(k) << " cut to " << n << " bytes";
            EXPECT_FALSE(why.empty());
        }
    }
}

TEST(DpmUdWire, TrailingBytesMagicVersionAndKindAreChecked) {
    Bytes b = encode(sample(Kind::propose));
    std::string why;
    Bytes longer = b;
    longer.push_back(0);
    EXPECT_FALSE(decode(longer.data(), longer.size(), &why));
    EXPECT_NE(why.find("after the message"), std::string::npos) << why;
    Bytes bad = b;
    bad[0] ^= 1;
    EXPECT_FALSE(decode(bad.data(), bad.size(), &why));
    EXPECT_NE(why.find("magic"), std::string::npos) << why;
    bad = b;
    bad[4] = 2;
    EXPECT_FALSE(decode(bad.data(), bad.size(), &why));
    EXPECT_NE(why.find("version 2"), std::string::npos) << why;
    bad = b;
    bad[5] = 99;
    EXPECT_FALSE(decode(bad.data(), bad.size(), &why));
    EXPECT_NE(why.find("kind 99"), std::string::npos) << why;
}

TEST(DpmUdWire, ACountBeyondTheBytesIsRefusedBeforeAllocating) {
    Message m = sample(Kind::cards);
    m.procs.clear();
    Bytes b = encode(m);
    // The process count is the last 4 bytes: claim a million processes in an empty message.
    b[b.size() - 4] = 0x40, b[b.size() - 3] = 0x42, b[b.size() - 2] = 0x0f, b[b.size() - 1] = 0;
    std::string why;
    EXPECT_FALSE(decode(b.data(), b.size(), &why));
    EXPECT_NE(why.find("process count"), std::string::npos) << why;
}

TEST(DpmUdWire, RandomBytesAndMutationsNeverCrash) {
    std::mt19937 rng(20);
    std::string why;
    for (int i = 0; i < 3000; ++i) {
        Bytes b = encode(sample(kAll[i % 8]));
        if (i % 3 == 0) {
            b.resize(rng() % 200);
            for (auto &x : b) x = static_cast<uint8_t>(rng());
        } else {
            for (int j = 0; j < 1 + i % 5; ++j) b[rng() % b.size()] = static_cast<uint8_t>(rng());
        }
        decode(b.data(), b.size(), &why);  // refused or whole: never more
    }
    SUCCEED();
}

TEST(DpmUdAddress, PortNamesRoundTrip) {
    Reach r;
    r.address = {1, 1, 0x9c, 0xbb, 127, 0, 0, 1};
    for (size_t i = 0; i < r.key.size(); ++i) r.key[i] = static_cast<uint8_t>(255 - i);
    const std::string name = format_port(r);
    EXPECT_EQ(name.rfind("plexus-ud:0101", 0), 0u) << name;
    std::string why;
    auto back = parse_port(name, &why);
    ASSERT_TRUE(back) << why;
    EXPECT_EQ(back->address, r.address);
    EXPECT_EQ(back->key, r.key);
    EXPECT_EQ(address_text(r.address), "127.0.0.1:40123");
}

TEST(DpmUdAddress, MalformedPortNamesAreRefusedWithAReason) {
    std::string why;
    EXPECT_FALSE(parse_port("no-such-port", &why));
    EXPECT_NE(why.find("both sides must select dpm_ud"), std::string::npos) << why;
    EXPECT_FALSE(parse_port("plexus-port:x:0:1:zz", &why));
    EXPECT_FALSE(parse_port("plexus-ud:0101", &why));
    EXPECT_FALSE(parse_port("plexus-ud:01zz:00", &why));
    EXPECT_FALSE(parse_port("plexus-ud:0101:" + std::string(62, 'a'), &why));  // 31-byte key
    EXPECT_NE(why.find("key"), std::string::npos) << why;
    EXPECT_FALSE(parse_port("plexus-ud::" + std::string(64, 'a'), &why));      // no address
    EXPECT_FALSE(parse_port("plexus-ud:" + std::string(130, '1') + ":" + std::string(64, 'a'), &why));
}

TEST(DpmUdAddress, TheChildrensEnvironmentRoundTrips) {
    Reach r;
    r.address = {2, 1, 0, 7, 0, 0, 0x1a, 0x2b};
    r.key.fill(0x5a);
    uint64_t session = 0;
    std::string why;
    auto back = parse_parent(format_parent(r, 0xfeedface01020304ull), &session, &why);
    ASSERT_TRUE(back) << why;
    EXPECT_EQ(back->address, r.address);
    EXPECT_EQ(session, 0xfeedface01020304ull);
    EXPECT_EQ(address_text(r.address), "LID 7 QPN 0x1a2b");
    EXPECT_FALSE(parse_parent("0101:aa", &session, &why));
    EXPECT_FALSE(parse_parent(format_parent(r, 1) + "00", &session, &why));
}

TEST(DpmUdStream, FramesArriveWholeAndInOrder) {
    int sv[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    Stream a(sv[0], true, 5000, "a"), b(sv[1], true, 5000, "b");
    const Message big = sample(Kind::cards_ack);
    Bytes large(3 << 20);
    for (size_t i = 0; i < large.size(); ++i) large[i] = static_cast<uint8_t>(i * 31 + 7);
    std::string why;
    std::thread writer([&] {
        std::string w;
        a.send(big, &w);
        a.send_frame(large, &w);
    });
    Message got;
    ASSERT_EQ(b.recv(&got, &why), 0) << why;
    EXPECT_EQ(got, big);
    Bytes back;
    ASSERT_EQ(b.recv_frame(&back, large.size(), &why), 0) << why;
    writer.join();
    EXPECT_EQ(back, large);
}

TEST(DpmUdStream, ASilentPeerTimesOutNamingWhatWasAwaited) {
    int sv[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    Stream a(sv[0], true, 50, "the silent one");
    Message m;
    std::string why;
    EXPECT_NE(a.recv(&m, &why), 0);
    EXPECT_NE(why.find("waited 50 ms for the silent one to answer"), std::string::npos) << why;
    close(sv[1]);
    EXPECT_NE(a.recv(&m, &why), 0);
    EXPECT_NE(why.find("closed the connection"), std::string::npos) << why;
}

TEST(DpmUdStream, AnOversizedFrameIsRefused) {
    int sv[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    Stream a(sv[0], true, 1000, "peer"), b(sv[1], true, 1000, "a stranger");
    std::string why;
    ASSERT_EQ(a.send_frame(Bytes(100, 1), &why), 0);
    Bytes got;
    EXPECT_NE(b.recv_frame(&got, 32, &why), 0);
    EXPECT_NE(why.find("a stranger sent a frame of 100 bytes (at most 32)"), std::string::npos) << why;
}

TEST(DpmUdRc, ProofsBindKeyRoleSessionAndNonces) {
    Key k{};
    k.fill(1);
    Nonce s{}, a{};
    s.fill(2), a.fill(3);
    const Mac base = proof(k, "connect", 9, s, a);
    EXPECT_EQ(base, proof(k, "connect", 9, s, a));
    EXPECT_NE(base, proof(k, "accept", 9, s, a));
    EXPECT_NE(base, proof(k, "connect", 10, s, a));
    EXPECT_NE(base, proof(k, "connect", 9, a, s));
    Key other = k;
    other[31] ^= 1;
    EXPECT_NE(base, proof(other, "connect", 9, s, a));
}

TEST(DpmUdRc, AStrangerIsRefusedAndTheRootGetsThrough) {
    Key key{}, wrong{};
    key.fill(7), wrong.fill(8);
    Nonce ns{}, na{};
    ns.fill(1), na.fill(2);
    const uint32_t lo = htonl(INADDR_LOOPBACK);
    std::unique_ptr<Listener> l;
    std::string why;
    ASSERT_EQ(Listener::open(lo, &l, &why), 0) << why;
    std::unique_ptr<Stream> accepted, stranger, root;
    int refused = 0, arc = -1, src = -1, rrc = -1;
    std::string awhy, swhy, rwhy;
    std::thread acceptor([&] { arc = l->accept(key, 77, ns, na, 5000, nullptr, &accepted, &refused, &awhy); });
    src = connect_rc(lo, l->port(), wrong, 77, ns, na, 2000, &stranger, &swhy);
    rrc = connect_rc(lo, l->port(), key, 77, ns, na, 5000, &root, &rwhy);
    acceptor.join();
    EXPECT_NE(src, 0);
    EXPECT_NE(swhy.find("the answering root at 127.0.0.1:"), std::string::npos) << swhy;
    ASSERT_EQ(rrc, 0) << rwhy;
    ASSERT_EQ(arc, 0) << awhy;
    EXPECT_EQ(refused, 1);
    // The connection carries messages both ways.
    ASSERT_EQ(root->send(sample(Kind::propose), &why), 0) << why;
    Message m;
    ASSERT_EQ(accepted->recv(&m, &why), 0) << why;
    EXPECT_EQ(m, sample(Kind::propose));
}

TEST(DpmUdRc, NobodyConnectingTimesOutSayingSo) {
    std::unique_ptr<Listener> l;
    std::string why;
    ASSERT_EQ(Listener::open(htonl(INADDR_LOOPBACK), &l, &why), 0) << why;
    std::unique_ptr<Stream> s;
    int refused = 0;
    Key key{};
    Nonce n{};
    EXPECT_NE(l->accept(key, 1, n, n, 50, nullptr, &s, &refused, &why), 0);
    EXPECT_NE(why.find("within 50 ms (0 refused)"), std::string::npos) << why;
}
