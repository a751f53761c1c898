// Unit tests of the btl_tcp module over real loopback sockets, with several modules in one
// process standing for the ranks of a job and a fake host API: connect on first use, both sides
// connecting at once, a stranger's garbage, silence and forged proofs refused and counted, a peer
// with another secret, partial reads and writes, a peer closing with and without its goodbye, by
// a reset and in the middle of a message, connections from peers not added yet, bad interface
// parameters; the first send to a peer completing the connection before it returns (the peer
// progressed on a thread of its own), both sides and a cycle of ranks sending first, a first send
// inside a receive callback, a peer that never answers.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <functional>
#include <thread>
#include <string>
#include <vector>

#include "components/btl_tcp/frame.h"
#include "components/btl_tcp/handshake.h"
#include "components/btl_tcp/tests/tcp_test_host.h"

using namespace plexus::btl_tcp;
using namespace tcp_test;

namespace {

constexpr uint8_t kTag = 0x05;

struct Inbox {
    struct Msg {
        uint32_t src;
        uint8_t tag;
        std::string bytes;
    };
    std::vector<Msg> got;
    static void on_message(void *ctx, const plexus_btl_recv_desc_t *m) {
        static_cast<Inbox *>(ctx)->got.push_back({m->src, m->tag, std::string(static_cast<const char *>(m->data), m->len)});
    }
};

struct Rank {
    std::unique_ptr<TcpModule> module;
    std::vector<plexus_btl_endpoint_t *> eps;  // by rank
    Inbox inbox;
    plexus_btl_module_t *api() { return module->api(); }
    Endpoint *to(uint32_t r) { return reinterpret_cast<Endpoint *>(eps[r]); }
};

std::string pattern(size_t n, unsigned seed) {
    std::string s(n, '\0');
    for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + seed * 17 + (i >> 8)) & 0xff);
    return s;
}

TcpParams quick_params() {
    TcpParams p;
    p.connect_timeout = 5000;
    p.handshake_timeout = 2000;
    return p;
}

class TcpModuleTest : public ::testing::Test {
protected:
    void SetUp() override { reset(); }
    void TearDown() override { ranks.clear(); }

    // Opens n ranks (each with the secret g_secret holds when it opens) and adds every rank to each.
    void open_ranks(uint32_t n, const TcpParams &p = quick_params(), bool add = true) {
        g_size = n;
        ranks.resize(n);
        for (uint32_t r = 0; r < n; ++r) open_rank(r, p);
        if (add)
            for (uint32_t r = 0; r < n; ++r) add_all(r);
    }
    void open_rank(uint32_t r, const TcpParams &p) {
        g_rank = r;
        auto &rk = ranks[r];
        rk.module = std::make_unique<TcpModule>(&kHost, nullptr, p);
        plexus_reason_t why{};
        ASSERT_EQ(rk.module->open(&why), PLEXUS_SUCCESS) << why.text;
        rk.module->register_recv(kTag, Inbox::on_message, &rk.inbox);
    }
    void add_all(uint32_t r) {
        std::vector<plexus_btl_proc_t> procs;
        for (uint32_t i = 0; i < ranks.size(); ++i) procs.push_back({100 + i, i, g_nspace.c_str()});
        ranks[r].eps.assign(ranks.size(), nullptr);
        ASSERT_EQ(ranks[r].module->add_procs(procs.size(), procs.data(), ranks[r].eps.data()), PLEXUS_SUCCESS);
    }
    // Progresses every open rank until done() or 10 s.
    bool progress_until(const std::function<bool()> &done) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!done()) {
            if (std::chrono::steady_clock::now() > end) return false;
            for (auto &rk : ranks)
                if (rk.module) rk.module->progress();
        }
        return true;
    }
    int send(uint32_t from, uint32_t to, const std::string &hdr, const std::string &payload) {
        return ranks[from].module->send(ranks[from].to(to), kTag, hdr.data(), hdr.size(), payload.data(), payload.size());
    }

    std::vector<Rank> ranks;
};

// ---- a raw socket standing for a stranger or a hand-driven peer ----
struct Raw {
    plexus::btl_tcp::Fd fd;
    explicit Raw(uint16_t port) {
        fd.reset(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
        sockaddr_in sa{};
        sa.sin_family = AF_INET;
        sa.sin_port = htons(port);
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        EXPECT_EQ(::connect(fd.get(), reinterpret_cast<sockaddr *>(&sa), sizeof sa), 0);
    }
    void write(const void *p, size_t n) { ASSERT_EQ(::send(fd.get(), p, n, MSG_NOSIGNAL), static_cast<ssize_t>(n)); }
    // What the other end sent, up to n bytes; 0 at its end of stream; -1 when nothing is there yet.
    ssize_t read_some(void *p, size_t n) {
        pollfd pfd{fd.get(), POLLIN, 0};
        if (::poll(&pfd, 1, 0) <= 0) return -1;
        return ::recv(fd.get(), p, n, 0);
    }
};

TEST_F(TcpModuleTest, ConnectsOnFirstUseAndCarriesMessagesBothWaysByteForByte) {
    open_ranks(2);
    EXPECT_EQ(ranks[0].module->connections(), 0u);  // nothing before the first send
    const std::vector<size_t> sizes = {0, 1, 100, 4096, 65536, 128 * 1024 - 16};
    for (size_t i = 0; i < sizes.size(); ++i)
        ASSERT_EQ(send(0, 1, "hdr" + std::to_string(i), pattern(sizes[i], i)), PLEXUS_SUCCESS);
    EXPECT_GT(ranks[0].module->pending(), 0u);  // waiting for the connection
    ASSERT_TRUE(progress_until([&] { return ranks[1].inbox.got.size() == sizes.size(); }));
    for (size_t i = 0; i < sizes.size(); ++i) {
        const auto &m = ranks[1].inbox.got[i];
        EXPECT_EQ(m.src, 100u);
        EXPECT_EQ(m.tag, kTag);
        EXPECT_EQ(m.bytes, "hdr" + std::to_string(i) + pattern(sizes[i], i)) << "message " << i;
    }
    ASSERT_TRUE(progress_until([&] { return ranks[0].module->pending() == 0; }));
    // The answer takes the same connection.
    ASSERT_EQ(send(1, 0, "back", pattern(777, 9)), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return ranks[0].inbox.got.size() == 1; }));
    EXPECT_EQ(ranks[0].inbox.got[0].src, 101u);
    EXPECT_EQ(ranks[0].inbox.got[0].bytes, "back" + pattern(777, 9));
    EXPECT_EQ(ranks[0].module->connections(), 1u);
    EXPECT_EQ(ranks[1].module->connections(), 1u);
    EXPECT_EQ(ranks[0].module->refused(), 0u);
    EXPECT_TRUE(g_aborts.empty());
}

// send_pack: the payload is packed by the caller into the message, from the given offset.
TEST_F(TcpModuleTest, SendPackPacksThePayloadFromItsOffset) {
    open_ranks(2);
    static const std::string stream = pattern(50000, 3);
    auto pack = [](void *ctx, size_t offset, size_t len, void *dst) {
        std::memcpy(dst, static_cast<const std::string *>(ctx)->data() + offset, len);
    };
    const std::string hdr = "H";
    ASSERT_EQ(ranks[0].module->send_pack(ranks[0].to(1), kTag, hdr.data(), 1, pack,
                                         const_cast<std::string *>(&stream), 1000, 30000),
              PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return ranks[1].inbox.got.size() == 1; }));
    EXPECT_EQ(ranks[1].inbox.got[0].bytes, "H" + stream.substr(1000, 30000));
}

TEST_F(TcpModuleTest, AMessageAboveMaxSendSizeIsRefused) {
    open_ranks(2);
    EXPECT_EQ(send(0, 1, "", pattern(128 * 1024 + 1, 0)), PLEXUS_ERR_BAD_PARAM);
}

// Both send first: each acceptor keeps the connection of the lower rank, both end with exactly
// that one, and every message arrives once and in order.
TEST_F(TcpModuleTest, BothSidesConnectingAtOnceKeepOneConnectionAndLoseNothing) {
    for (int order = 0; order < 2; ++order) {
        reset();
        ranks.clear();
        open_ranks(4);
        for (uint32_t a = 0; a < 4; ++a)
            for (uint32_t b = 0; b < 4; ++b) {
                if (a == b) continue;
                for (int i = 0; i < 50; ++i) {
                    ASSERT_EQ(send(a, b, std::to_string(a) + ":" + std::to_string(i), pattern(300 * i, a + b)),
                              PLEXUS_SUCCESS);
                }
            }
        // Progress in one rank order, then the other, so each side's hello can come first.
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        auto all_in = [&] {
            for (auto &rk : ranks)
                if (rk.inbox.got.size() != 150) return false;
            return true;
        };
        while (!all_in() && std::chrono::steady_clock::now() < end)
            for (int k = 0; k < 4; ++k) ranks[order ? 3 - k : k].module->progress();
        ASSERT_TRUE(all_in());
        for (uint32_t b = 0; b < 4; ++b) {
            std::vector<int> next(4, 0);
            for (const auto &m : ranks[b].inbox.got) {
                const uint32_t a = m.src - 100;
                const int i = next[a]++;
                EXPECT_EQ(m.bytes, std::to_string(a) + ":" + std::to_string(i) + pattern(300 * i, a + b))
                    << "from " << a << " to " << b << " message " << i;
            }
            for (uint32_t a = 0; a < 4; ++a) EXPECT_EQ(next[a], a == b ? 0 : 50);
        }
        // The losing attempts are closed once their verdicts arrive: one connection per pair.
        ASSERT_TRUE(progress_until([&] {
            for (auto &rk : ranks)
                if (rk.module->connections() != 3) return false;
            return true;
        }));
        for (auto &rk : ranks) {
            EXPECT_EQ(rk.module->established(), 3u);
            EXPECT_EQ(rk.module->refused(), 0u);
        }
        EXPECT_TRUE(g_aborts.empty());
    }
}

TEST_F(TcpModuleTest, GarbageIsClosedAndCountedAndTheJobGoesOn) {
    open_ranks(2);
    Raw stranger(ranks[0].module->port());
    const char junk[] = "GET / HTTP/1.0\r\n\r\n";
    stranger.write(junk, sizeof junk);
    char buf[64];
    ASSERT_TRUE(progress_until([&] { return stranger.read_some(buf, sizeof buf) == 0; }));
    EXPECT_EQ(ranks[0].module->refused(), 1u);
    EXPECT_NE(ranks[0].module->last_refusal().find("something other than a btl_tcp hello"), std::string::npos)
        << ranks[0].module->last_refusal();
    ASSERT_EQ(send(1, 0, "still", "here"), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return ranks[0].inbox.got.size() == 1; }));
    EXPECT_EQ(ranks[0].inbox.got[0].bytes, "stillhere");
    EXPECT_TRUE(g_aborts.empty());
}

TEST_F(TcpModuleTest, ASilentConnectionIsClosedAfterTheHandshakeTimeout) {
    TcpParams p = quick_params();
    p.handshake_timeout = 100;
    open_ranks(2, p);
    Raw stranger(ranks[0].module->port());
    char buf[8];
    ASSERT_TRUE(progress_until([&] { return stranger.read_some(buf, sizeof buf) == 0; }));
    EXPECT_EQ(ranks[0].module->refused(), 1u);
    EXPECT_NE(ranks[0].module->last_refusal().find("no handshake within btl_tcp_handshake_timeout"), std::string::npos);
}

// A well-formed hello, then a proof that is not the secret's: closed, counted, nothing delivered.
TEST_F(TcpModuleTest, AForgedProofIsRefused) {
    open_ranks(2);
    Raw stranger(ranks[0].module->port());
    Hello h;
    ASSERT_TRUE(make_hello("testjob", 1, "testjob", 0, &h));
    stranger.write(&h, sizeof h);
    Challenge ch{};
    size_t have = 0;
    ASSERT_TRUE(progress_until([&] {
        const ssize_t n = stranger.read_some(reinterpret_cast<char *>(&ch) + have, sizeof ch - have);
        if (n > 0) have += static_cast<size_t>(n);
        return have == sizeof ch;
    }));
    EXPECT_EQ(ch.magic, kChallengeMagic);
    Proof forged{};
    forged.magic = kProofMagic;
    stranger.write(&forged, sizeof forged);
    char buf[8];
    ASSERT_TRUE(progress_until([&] { return stranger.read_some(buf, sizeof buf) == 0; }));
    EXPECT_EQ(ranks[0].module->refused(), 1u);
    EXPECT_NE(ranks[0].module->last_refusal().find("did not prove the job secret"), std::string::npos);
    EXPECT_TRUE(ranks[0].inbox.got.empty());
}

// A process of another job (another secret) calling rank 0: rank 0 refuses it, the caller finds
// rank 0 does not prove its secret either and, out of addresses, ends its job naming rank 0.
TEST_F(TcpModuleTest, APeerWithAnotherSecretIsRefusedOnBothSides) {
    TcpParams p = quick_params();
    p.connect_timeout = 300;
    g_size = 3;
    ranks.resize(3);
    open_rank(0, p);
    open_rank(1, p);
    g_secret[0] ^= 0xff;
    open_rank(2, p);
    for (uint32_t r = 0; r < 3; ++r) add_all(r);
    ASSERT_EQ(send(2, 0, "let me", "in"), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return !g_aborts.empty(); }));
    EXPECT_GE(ranks[0].module->refused(), 1u);
    EXPECT_GE(ranks[2].module->refused(), 1u);
    EXPECT_TRUE(ranks[0].inbox.got.empty());
    EXPECT_EQ(g_aborts[0].first, plexus::sdk::kBtlLostPeerStatus);
    EXPECT_NE(g_aborts[0].second.find("rank 0 of job testjob on host " + host_name()), std::string::npos)
        << g_aborts[0].second;
    EXPECT_NE(g_aborts[0].second.find("no connection within btl_tcp_connect_timeout"), std::string::npos);
    // Ranks 0 and 1 (the same secret) are unaffected.
    ASSERT_EQ(send(1, 0, "ok", ""), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return ranks[0].inbox.got.size() == 1; }));
    EXPECT_EQ(g_aborts.size(), 1u);
}

// ---- a peer driven by hand: the whole handshake with the secret, then frames cut anywhere ----
class HandDrivenPeer : public TcpModuleTest {
protected:
    // Connects to rank 0 as rank 1 and completes the handshake; rank 0 accepts.
    void handshake(Raw &raw) {
        HandshakeKey key;
        ASSERT_TRUE(key.derive(g_secret, sizeof g_secret));
        Hello h;
        ASSERT_TRUE(make_hello("testjob", 1, "testjob", 0, &h));
        raw.write(&h, sizeof h);
        Challenge ch{};
        read_record(raw, &ch, sizeof ch);
        uint8_t expected[kMacBytes];
        ASSERT_TRUE(key.acceptor_mac(h, ch.nonce, expected));
        ASSERT_TRUE(same_mac(expected, ch.mac)) << "rank 0 did not prove the secret";
        Proof p{};
        p.magic = kProofMagic;
        ASSERT_TRUE(key.connector_mac(h, ch.nonce, p.mac));
        raw.write(&p, sizeof p);
        Verdict v{};
        read_record(raw, &v, sizeof v);
        EXPECT_EQ(v.magic, kVerdictMagic);
        EXPECT_EQ(v.accepted, 1u);
    }
    void read_record(Raw &raw, void *rec, size_t len) {
        size_t have = 0;
        ASSERT_TRUE(progress_until([&] {
            const ssize_t n = raw.read_some(static_cast<char *>(rec) + have, len - have);
            if (n > 0) have += static_cast<size_t>(n);
            return have == len;
        }));
    }
    static std::string frame(const std::string &body) {
        FrameHeader fh{};
        fh.len = static_cast<uint32_t>(body.size());
        fh.tag = kTag;
        return std::string(reinterpret_cast<const char *>(&fh), sizeof fh) + body;
    }
};

TEST_F(HandDrivenPeer, FramesArrivingInPiecesAreDeliveredOnceWhole) {
    open_ranks(2);
    Raw peer(ranks[0].module->port());
    handshake(peer);
    const std::string one = frame(pattern(1000, 1));
    for (size_t i = 0; i < one.size(); ++i) {  // one byte at a time
        peer.write(&one[i], 1);
        for (int k = 0; k < 3; ++k) ranks[0].module->progress();
        if (i + 1 < one.size()) {
            ASSERT_TRUE(ranks[0].inbox.got.empty()) << "delivered after " << i + 1 << " bytes";
        }
    }
    ASSERT_TRUE(progress_until([&] { return ranks[0].inbox.got.size() == 1; }));
    EXPECT_EQ(ranks[0].inbox.got[0].bytes, pattern(1000, 1));
    EXPECT_EQ(ranks[0].inbox.got[0].src, 101u);
    // Two frames and the start of a third in one write, the rest later; one larger than the
    // receive buffer's first size.
    const std::string two = frame("x"), three = frame(pattern(600 * 1024, 2)), four = frame("");
    const std::string all = two + three + four;
    peer.write(all.data(), sizeof(FrameHeader) + 1 + 10);
    ASSERT_TRUE(progress_until([&] { return ranks[0].inbox.got.size() == 2; }));
    peer.write(all.data() + sizeof(FrameHeader) + 11, all.size() - sizeof(FrameHeader) - 11);
    ASSERT_TRUE(progress_until([&] { return ranks[0].inbox.got.size() == 4; }));
    EXPECT_EQ(ranks[0].inbox.got[1].bytes, "x");
    EXPECT_EQ(ranks[0].inbox.got[2].bytes, pattern(600 * 1024, 2));
    EXPECT_EQ(ranks[0].inbox.got[3].bytes, "");
    EXPECT_EQ(ranks[0].module->refused(), 0u);
    EXPECT_TRUE(g_aborts.empty());
}

TEST_F(HandDrivenPeer, APeerClosingInTheMiddleOfAMessageEndsTheJobNamingIt) {
    open_ranks(2);
    {
        Raw peer(ranks[0].module->port());
        handshake(peer);
        const std::string f = frame(pattern(5000, 4));
        peer.write(f.data(), 2000);
    }  // closed here: the 2000 bytes, then the end of the stream
    ASSERT_TRUE(progress_until([&] { return !g_aborts.empty(); }));
    EXPECT_EQ(g_aborts[0].first, plexus::sdk::kBtlLostPeerStatus);
    const std::string &msg = g_aborts[0].second;
    EXPECT_NE(msg.find("btl_tcp: rank 1 of job testjob on host " + host_name()), std::string::npos) << msg;
    EXPECT_NE(msg.find("in the middle of a message (got " + std::to_string(2000 - sizeof(FrameHeader)) + " of 5000 bytes)"),
              std::string::npos)
        << msg;
    EXPECT_TRUE(ranks[0].inbox.got.empty());
    // Later sends to it are refused, not queued for ever.
    EXPECT_EQ(send(0, 1, "", "x"), PLEXUS_ERR_UNREACH);
}

TEST_F(HandDrivenPeer, AFrameLongerThanAnyMaxSendSizeIsACorruptStream) {
    open_ranks(2);
    Raw peer(ranks[0].module->port());
    handshake(peer);
    FrameHeader fh{};
    fh.len = 0x7fffffff;
    fh.tag = kTag;
    peer.write(&fh, sizeof fh);
    ASSERT_TRUE(progress_until([&] { return !g_aborts.empty(); }));
    EXPECT_NE(g_aborts[0].second.find("the stream is corrupt"), std::string::npos) << g_aborts[0].second;
}

TEST_F(HandDrivenPeer, AGoodbyeWithABodyIsACorruptStream) {
    open_ranks(2);
    Raw peer(ranks[0].module->port());
    handshake(peer);
    FrameHeader fh = goodbye_header();
    fh.len = 4;
    peer.write(&fh, sizeof fh);
    peer.write("abcd", 4);
    ASSERT_TRUE(progress_until([&] { return !g_aborts.empty(); }));
    EXPECT_NE(g_aborts[0].second.find("sent a goodbye of 4 bytes (it has none): the stream is corrupt"), std::string::npos)
        << g_aborts[0].second;
}

// The end of a stream without a goodbye is a process that died or a host that went away, even at
// a message boundary: the job ends naming the peer, its job and its host; what came before the
// end was delivered.
TEST_F(HandDrivenPeer, AnEndOfStreamWithoutAGoodbyeEndsTheJobNamingThePeerAndItsHost) {
    open_ranks(2);
    {
        Raw peer(ranks[0].module->port());
        handshake(peer);
        const std::string f = frame("last words");
        peer.write(f.data(), f.size());
    }
    ASSERT_TRUE(progress_until([&] { return !g_aborts.empty(); }));
    ASSERT_EQ(ranks[0].inbox.got.size(), 1u);
    EXPECT_EQ(ranks[0].inbox.got[0].bytes, "last words");
    EXPECT_EQ(g_aborts[0].first, plexus::sdk::kBtlLostPeerStatus);
    const std::string &msg = g_aborts[0].second;
    EXPECT_EQ(msg.rfind("btl_tcp: rank 1 of job testjob on host " + host_name() + " (127.0.0.1:", 0), 0u) << msg;
    EXPECT_NE(msg.find("): closed the connection without saying goodbye: the process died, or its host went away"),
              std::string::npos)
        << msg;
    EXPECT_EQ(g_aborts.size(), 1u);
}

// A reset (what a host's kernel sends for a connection its process no longer has) is the same.
TEST_F(HandDrivenPeer, AResetWithoutAGoodbyeEndsTheJob) {
    open_ranks(2);
    {
        Raw peer(ranks[0].module->port());
        handshake(peer);
        const linger abortive{1, 0};  // close() sends RST instead of FIN
        ASSERT_EQ(::setsockopt(peer.fd.get(), SOL_SOCKET, SO_LINGER, &abortive, sizeof abortive), 0);
    }
    ASSERT_TRUE(progress_until([&] { return !g_aborts.empty(); }));
    const std::string &msg = g_aborts[0].second;
    EXPECT_NE(msg.find("rank 1 of job testjob on host " + host_name()), std::string::npos) << msg;
    EXPECT_NE(msg.find("lost the connection (" + errno_text(ECONNRESET) + ") without saying goodbye"), std::string::npos)
        << msg;
}

// After a goodbye the end of the stream, or a reset (the peer closed with bytes of ours unread),
// is how a finalizing peer leaves: nothing is reported until something is sent to it.
TEST_F(HandDrivenPeer, AGoodbyeMakesTheEndOfTheStreamOrAResetOrderly) {
    for (const bool reset_after : {false, true}) {
        SCOPED_TRACE(reset_after ? "goodbye, then a reset" : "goodbye, then the end of the stream");
        ranks.clear();
        reset();
        open_ranks(2);
        {
            Raw peer(ranks[0].module->port());
            handshake(peer);
            const FrameHeader bye = goodbye_header();
            const std::string both = frame("done") + std::string(reinterpret_cast<const char *>(&bye), sizeof bye);
            peer.write(both.data(), both.size());
            ASSERT_TRUE(progress_until([&] { return logged("rank 1 of job testjob on host " + host_name() + " says goodbye"); }));
            if (reset_after) {
                const linger abortive{1, 0};
                ASSERT_EQ(::setsockopt(peer.fd.get(), SOL_SOCKET, SO_LINGER, &abortive, sizeof abortive), 0);
            }
        }
        ASSERT_TRUE(progress_until([&] { return logged("closed its connection"); }));
        ASSERT_EQ(ranks[0].inbox.got.size(), 1u);
        EXPECT_EQ(ranks[0].inbox.got[0].bytes, "done");
        EXPECT_TRUE(g_aborts.empty()) << g_aborts[0].second;
        EXPECT_EQ(ranks[0].module->established(), 0u);
        EXPECT_EQ(send(0, 1, "", "late"), PLEXUS_ERR_UNREACH);
        ASSERT_EQ(g_aborts.size(), 1u);
        EXPECT_NE(g_aborts[0].second.find("closed its connection earlier, in order"), std::string::npos)
            << g_aborts[0].second;
    }
}

// del_procs (finalize, disconnect) writes what is queued, then the goodbye, then ends the stream:
// the peer reads exactly the message frame, the 8-byte goodbye and the end.
TEST_F(HandDrivenPeer, ClosingInOrderEndsWithTheGoodbye) {
    open_ranks(2);
    Raw peer(ranks[0].module->port());
    handshake(peer);
    ASSERT_EQ(send(0, 1, "hdr", "payload"), PLEXUS_SUCCESS);
    ASSERT_EQ(ranks[0].module->del_procs(1, &ranks[0].eps[1]), PLEXUS_SUCCESS);
    std::string got;
    char buf[256];
    ASSERT_TRUE(progress_until([&] {
        const ssize_t n = peer.read_some(buf, sizeof buf);
        if (n > 0) got.append(buf, static_cast<size_t>(n));
        return n == 0;
    }));
    const FrameHeader bye = goodbye_header();
    EXPECT_EQ(got, frame("hdrpayload") + std::string(reinterpret_cast<const char *>(&bye), sizeof bye));
    EXPECT_TRUE(g_aborts.empty());
    EXPECT_EQ(ranks[0].module->endpoints(), 0u) << "the deleted peer's endpoint is kept";
}

// A disconnect (both sides' del_procs) frees both endpoints (btl.h: nothing above keeps the
// pointer); adding the peers again (a later connect) makes new ones that carry messages both ways.
TEST_F(TcpModuleTest, DeletedPeersAreFreedAndCanBeAddedAgain) {
    open_ranks(2);
    ASSERT_EQ(send(0, 1, "", "before"), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return ranks[1].inbox.got.size() == 1 && ranks[0].module->pending() == 0; }));
    ASSERT_EQ(ranks[0].module->del_procs(1, &ranks[0].eps[1]), PLEXUS_SUCCESS);
    EXPECT_EQ(ranks[0].module->endpoints(), 0u);
    for (int i = 0; i < 2000; ++i) ranks[1].module->progress();  // reads the goodbye and the end
    ASSERT_EQ(ranks[1].module->del_procs(1, &ranks[1].eps[0]), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return ranks[1].module->endpoints() == 0; }));
    EXPECT_TRUE(g_aborts.empty());
    add_all(0);
    add_all(1);
    ASSERT_EQ(send(0, 1, "", "after"), PLEXUS_SUCCESS);
    ASSERT_EQ(send(1, 0, "", "back"), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return ranks[1].inbox.got.size() == 2 && ranks[0].inbox.got.size() == 1; }));
    EXPECT_EQ(ranks[1].inbox.got[1].bytes, "after");
    EXPECT_EQ(ranks[0].inbox.got[0].bytes, "back");
    EXPECT_EQ(ranks[0].module->endpoints(), 1u);
    EXPECT_TRUE(g_aborts.empty());
}

// BTL 1.5: a deleted peer's id stays held while its endpoint lives (here: deleted from inside a
// callback of its own connection, so the reap comes after), and not a moment longer; the core
// gives the id to another process only then.
TEST_F(TcpModuleTest, ADeletedPeersIdIsHeldUntilItsEndpointIsFreed) {
    open_ranks(2);
    struct Hook {
        Rank *rank;
        int held_inside = -1;
        static void on_message(void *ctx, const plexus_btl_recv_desc_t *m) {
            auto *h = static_cast<Hook *>(ctx);
            ASSERT_EQ(m->src, 100u);
            ASSERT_EQ(h->rank->module->del_procs(1, &h->rank->eps[0]), PLEXUS_SUCCESS);
            h->held_inside = h->rank->module->holds_proc(100) ? 1 : 0;
        }
    } hook{&ranks[1]};
    constexpr uint8_t kHookTag = 0x06;
    ranks[1].module->register_recv(kHookTag, Hook::on_message, &hook);
    EXPECT_FALSE(ranks[1].module->holds_proc(100)) << "a live peer is not a deleted one";
    ASSERT_EQ(ranks[0].module->send(ranks[0].to(1), kHookTag, "", 0, "x", 1), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return hook.held_inside >= 0; }));
    EXPECT_EQ(hook.held_inside, 1) << "its connection was still being read";
    for (int i = 0; i < 100; ++i) ranks[1].module->progress();
    EXPECT_FALSE(ranks[1].module->holds_proc(100)) << "freed at the reap: its id may name another process";
    EXPECT_EQ(ranks[1].module->endpoints(), 0u);
    EXPECT_FALSE(ranks[1].module->holds_proc(7)) << "an id it never knew";
}

// A peer that finalizes says goodbye and closes at a message boundary: no error then; a send to
// it afterwards is one.
TEST_F(TcpModuleTest, APeerClosingBetweenMessagesIsQuietUntilSomethingIsSentToIt) {
    open_ranks(2);
    ASSERT_EQ(send(1, 0, "bye", ""), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return ranks[0].inbox.got.size() == 1 && ranks[1].module->pending() == 0; }));
    ranks[1].module.reset();
    for (int i = 0; i < 2000; ++i) ranks[0].module->progress();
    EXPECT_TRUE(g_aborts.empty());
    EXPECT_EQ(send(0, 1, "", "late"), PLEXUS_ERR_UNREACH);
    ASSERT_EQ(g_aborts.size(), 1u);
    EXPECT_NE(g_aborts[0].second.find("rank 1 of job testjob"), std::string::npos);
    EXPECT_NE(g_aborts[0].second.find("closed its connection earlier"), std::string::npos) << g_aborts[0].second;
}

// Small socket buffers and a receiver that does not progress: sends take what the socket takes,
// queue the rest up to btl_tcp_max_queued, then answer AGAIN; everything arrives once it reads.
TEST_F(TcpModuleTest, PartialWritesQueueTheRestAndBackPressureIsAgain) {
    TcpParams p = quick_params();
    p.sndbuf = p.rcvbuf = 64 * 1024;  // far below a message (tiny ones stall on delayed ACKs)
    p.eager_limit = 64 * 1024;
    p.max_send_size = 1024 * 1024;
    p.max_queued = 2 * 1024 * 1024;
    open_ranks(2, p);
    ASSERT_EQ(send(0, 1, "", "hello"), PLEXUS_SUCCESS);  // connect first
    ASSERT_TRUE(progress_until([&] { return ranks[1].inbox.got.size() == 1; }));
    std::vector<std::string> sent;
    int again = 0;
    for (unsigned i = 0; sent.size() < 8; ++i) {
        const std::string body = pattern(1024 * 1024 - 8, i);
        const int rc = send(0, 1, "", body);
        if (rc == PLEXUS_ERR_AGAIN) {
            ++again;
            for (int k = 0; k < 50; ++k) ranks[0].module->progress();  // the sender alone
            if (again % 4 == 0) ranks[1].module->progress();             // the receiver now and then
            continue;
        }
        ASSERT_EQ(rc, PLEXUS_SUCCESS);
        sent.push_back(body);
    }
    EXPECT_GT(again, 0);
    ASSERT_TRUE(progress_until([&] { return ranks[1].inbox.got.size() == 9 && ranks[0].module->pending() == 0; }));
    for (size_t i = 0; i < sent.size(); ++i) EXPECT_TRUE(ranks[1].inbox.got[i + 1].bytes == sent[i]) << "message " << i;
}

// A peer's connection that arrives before add_procs named the peer waits, unread, and its
// messages are delivered once the peer is added.
TEST_F(TcpModuleTest, AConnectionFromAPeerNotAddedYetWaitsForAddProcs) {
    open_ranks(2, quick_params(), false);
    add_all(1);
    ASSERT_EQ(send(1, 0, "early", ""), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_until([&] { return ranks[1].module->pending() == 0; }));
    for (int i = 0; i < 1000; ++i) ranks[0].module->progress();
    EXPECT_TRUE(ranks[0].inbox.got.empty());
    add_all(0);
    ASSERT_TRUE(progress_until([&] { return ranks[0].inbox.got.size() == 1; }));
    EXPECT_EQ(ranks[0].inbox.got[0].bytes, "early");
    EXPECT_EQ(ranks[0].inbox.got[0].src, 101u);
    EXPECT_EQ(ranks[0].module->connections(), 1u);
}

// Loopback only between processes of one node: a peer on another node that advertises nothing
// else is not reachable through tcp (another BTL may be).
TEST_F(TcpModuleTest, LoopbackIsNeverOfferedForAnotherNode) {
    TcpParams p = quick_params();
    p.if_include = "lo";
    g_local = 0;
    open_ranks(2, p);
    EXPECT_EQ(ranks[0].eps[1], nullptr);
    EXPECT_TRUE(logged("no address to reach it"));
}

TEST_F(TcpModuleTest, ABadInterfaceParameterNamesItAndTheInterfacesThatExist) {
    for (const char *value : {"nosuchif0", "10.0.0/8", "10.0.0.0/33"}) {
        TcpParams p = quick_params();
        p.if_include = value;
        TcpModule m(&kHost, nullptr, p);
        plexus_reason_t why{};
        EXPECT_EQ(m.open(&why), PLEXUS_ERR_BAD_PARAM) << value;
        const std::string text = why.text;
        EXPECT_NE(text.find(std::string("btl_tcp_if_include: ")), std::string::npos) << text;
        EXPECT_NE(text.find(value), std::string::npos) << text;
        EXPECT_NE(text.find("lo (127.0.0.1/8)"), std::string::npos) << text;
    }
    TcpParams p = quick_params();
    p.if_exclude = "0.0.0.0/0";
    TcpModule m(&kHost, nullptr, p);
    plexus_reason_t why{};
    EXPECT_EQ(m.open(&why), PLEXUS_ERR_BAD_PARAM);
    EXPECT_NE(std::string(why.text).find("btl_tcp_if_exclude leaves no interface to use"), std::string::npos)
        << why.text;
}

// The interfaces come from the core (host API 1.5, the lookup runtime_dgram_if uses): what its
// table lists is what the parameters match, and a core without the call is declined with why.
TEST_F(TcpModuleTest, InterfacesAreTheCoresListAndAnOlderCoreIsDeclined) {
    static std::vector<plexus_ipv4_interface_t> listed;
    listed.assign(1, plexus_ipv4_interface_t{});
    std::snprintf(listed[0].name, sizeof listed[0].name, "%s", "lo");
    listed[0].addr = 0x7f000001u;
    listed[0].netmask = 0xff000000u;
    listed[0].flags = PLEXUS_IF_LOOPBACK;
    plexus_host_api_t h = make_host();
    h.ipv4_interfaces = [](plexus_ipv4_interface_t *out, size_t max, size_t *count) {
        *count = listed.size();
        for (size_t i = 0; i < listed.size() && i < max; ++i) out[i] = listed[i];
        return static_cast<int>(PLEXUS_SUCCESS);
    };
    TcpParams p = quick_params();
    p.if_include = "eth0";  // exists on most machines, but not in the core's list here
    plexus_reason_t why{};
    EXPECT_EQ(TcpModule(&h, nullptr, p).open(&why), PLEXUS_ERR_BAD_PARAM);
    EXPECT_NE(std::string(why.text).find("no IPv4 interface 'eth0' is up; interfaces here: lo (127.0.0.1/8)"),
              std::string::npos)
        << why.text;
    h.struct_size = offsetof(plexus_host_api_t, ipv4_interfaces);  // a 1.4 core's table ends there
    why = plexus_reason_t{};
    EXPECT_EQ(TcpModule(&h, nullptr, quick_params()).open(&why), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_STREQ(why.text, "needs host API 1.5 (the core's interface list)");
}

// ---- the first send: queued while its connection is made; pending_to counts it ----

// Progresses rank r alone until done() or 10 s: the others make no call at all.
bool progress_only(Rank &r, const std::function<bool()> &done) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!done()) {
        if (std::chrono::steady_clock::now() > end) return false;
        r.module->progress();
    }
    return true;
}

// The send returns at once, whatever the peer does; its peer's pending_to (BTL 1.4, what the PML
// completes sends by) counts the message until the connection is up and the socket took it, and
// then every later message that the socket takes at once is out when send returns.
TEST_F(TcpModuleTest, AFirstSendIsQueuedAndPendingToCountsItUntilItsBytesAreOut) {
    open_ranks(3);
    TcpModule &m = *ranks[0].module;
    ASSERT_EQ(send(0, 1, "port", pattern(8, 3)), PLEXUS_SUCCESS);
    ASSERT_EQ(send(0, 1, "more", pattern(100, 4)), PLEXUS_SUCCESS);
    EXPECT_EQ(m.established(), 0u);  // no handshake inside send
    EXPECT_EQ(m.pending_to(ranks[0].to(1)), 2u);
    EXPECT_EQ(m.pending_to(ranks[0].to(2)), 0u);  // another peer's count
    ASSERT_TRUE(progress_until([&] { return m.pending_to(ranks[0].to(1)) == 0; }));
    ASSERT_TRUE(progress_until([&] { return ranks[1].inbox.got.size() == 2; }));
    EXPECT_EQ(ranks[1].inbox.got[0].bytes, "port" + pattern(8, 3));
    EXPECT_EQ(ranks[1].inbox.got[1].bytes, "more" + pattern(100, 4));
    ASSERT_EQ(send(0, 1, "next", pattern(60000, 5)), PLEXUS_SUCCESS);
    EXPECT_EQ(m.pending_to(ranks[0].to(1)), 0u);  // straight into the socket
    ASSERT_TRUE(progress_until([&] { return ranks[1].inbox.got.size() == 3; }));
    EXPECT_EQ(ranks[1].inbox.got[2].bytes, "next" + pattern(60000, 5));
    EXPECT_TRUE(g_aborts.empty());
}

// Progresses rank r alone for ms milliseconds.
void progress_for(Rank &r, int ms) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < end) r.module->progress();
}

// A peer whose kernel takes the connection but whose process makes no MPI call for longer than
// btl_tcp_connect_timeout (it computes, or reads its input) is alive: the message waits, counted
// by pending_to, and leaves when the peer comes, with no error. (Before, the job ended after the
// timeout, as Open MPI's does not.)
TEST_F(TcpModuleTest, APeerProcessBusyOutsideMpiLongerThanTheTimeoutIsWaitedFor) {
    TcpParams p = quick_params();
    p.connect_timeout = 200;
    open_ranks(2, p);
    TcpModule &m = *ranks[0].module;
    ASSERT_EQ(send(0, 1, "anyone", "there?"), PLEXUS_SUCCESS);
    progress_for(ranks[0], 900);  // rank 1 makes no call for 4.5 timeouts
    EXPECT_TRUE(g_aborts.empty()) << g_aborts[0].second;
    EXPECT_EQ(m.pending_to(ranks[0].to(1)), 1u);
    EXPECT_EQ(ranks[0].module->connections(), 1u);  // the one attempt, waiting for rank 1's answer
    ASSERT_TRUE(progress_until([&] { return ranks[1].inbox.got.size() == 1; }));
    EXPECT_EQ(ranks[1].inbox.got[0].bytes, "anyonethere?");
    EXPECT_EQ(m.pending_to(ranks[0].to(1)), 0u);
    EXPECT_EQ(ranks[1].module->refused(), 0u);
    EXPECT_TRUE(g_aborts.empty()) << g_aborts[0].second;
}

// The sender leaves MPI right after its first send (it computes) for longer than both timeouts,
// before its connection's hello went out; the receiver, in MPI meanwhile, gives up on that silent
// connection (btl_tcp_handshake_timeout). Back in MPI, the sender's time away does not count
// against its btl_tcp_connect_timeout: it connects again and the message arrives, with no error.
TEST_F(TcpModuleTest, TimeAwayFromMpiDoesNotCountAgainstTheDeadlines) {
    TcpParams p = quick_params();
    p.connect_timeout = 300;
    p.handshake_timeout = 200;
    open_ranks(2, p);
    ASSERT_EQ(send(0, 1, "after", "lunch"), PLEXUS_SUCCESS);  // connect() started, nothing progressed
    ASSERT_TRUE(progress_only(ranks[1], [&] { return ranks[1].module->refused() == 1; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));  // rank 0 away longer than 1 s in all
    ASSERT_TRUE(progress_until([&] { return ranks[1].inbox.got.size() == 1; }));
    EXPECT_EQ(ranks[1].inbox.got[0].bytes, "afterlunch");
    EXPECT_TRUE(g_aborts.empty()) << g_aborts[0].second;
}

// An address nobody listens on any more (the peer's port closed) still ends the job after
// btl_tcp_connect_timeout of this process's MPI calls, naming the peer and the last attempt.
TEST_F(TcpModuleTest, APeerThatCannotBeReachedStillEndsTheJobAfterTheTimeout) {
    TcpParams p = quick_params();
    p.connect_timeout = 300;
    open_ranks(2, p);
    const uint16_t port = ranks[1].module->port();
    ranks[1].module.reset();  // its listening socket is closed: connections are refused
    ASSERT_EQ(send(0, 1, "hello?", ""), PLEXUS_SUCCESS);
    ASSERT_TRUE(progress_only(ranks[0], [&] { return !g_aborts.empty(); }));
    ASSERT_EQ(g_aborts.size(), 1u);
    EXPECT_EQ(g_aborts[0].first, plexus::sdk::kBtlLostPeerStatus);
    const std::string &msg = g_aborts[0].second;
    EXPECT_NE(msg.find("btl_tcp: rank 1 of job testjob on host " + host_name()), std::string::npos) << msg;
    EXPECT_NE(msg.find("no connection within btl_tcp_connect_timeout (300 ms); the last attempt: "), std::string::npos)
        << msg;
    EXPECT_NE(msg.find(":" + std::to_string(port) + ": Connection refused"), std::string::npos) << msg;
    EXPECT_EQ(send(0, 1, "again", ""), PLEXUS_ERR_UNREACH);
    EXPECT_EQ(g_aborts.size(), 1u);
}

}  // namespace
