// Unit tests of the btl_sm module as a whole, with several modules in one process standing for
// the ranks of a job on one node (each with its own segment), over a fake host API: FIFO sends,
// the fast-box handshake after the threshold, reconf's fast-channel operations, AGAIN on
// exhausted fragments, fragments in flight, single copy, unlinking, re-entrant callbacks, early senders.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdarg>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "components/btl_sm/business_card.h"
#include "components/btl_sm/sm_module.h"
#include "runtime/shm/shm_services.h"

using namespace plexus::btl_sm;

namespace {

// ---- the fake host: one job "testjob" of local_size ranks; the rank is whoever opens now ----
uint32_t g_rank = 0;
uint32_t g_local_size = 2;
bool g_oversubscribed = false;  // what the fake runtime says of the node
uint32_t g_cpus = 2;            // its CPUs online
std::string g_nspace = "testjob";
std::map<std::pair<std::string, uint32_t>, std::vector<uint8_t>> g_cards;
std::vector<std::string> g_warnings;
std::vector<std::string> g_log;  // every message, warnings and decisions

void fake_log(const plexus_component_t *, int level, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (level < 0) g_warnings.emplace_back(buf);
    g_log.emplace_back(buf);
    if (getenv("BTL_SM_TEST_VERBOSE")) std::fprintf(stderr, "[sm %d] %s\n", level, buf);
}
int fake_verbosity(const plexus_component_t *) { return 100; }
int fake_progress_register(plexus_progress_fn_t, void *) { return PLEXUS_SUCCESS; }
int fake_job_info(plexus_job_info_t *out) {
    plexus_job_info_t j{};
    j.struct_size = out->struct_size;
    j.rank = g_rank;
    j.size = g_local_size;
    j.local_rank = g_rank;
    j.local_size = g_local_size;
    j.oversubscribed = g_oversubscribed ? 1 : 0;
    j.cpus_online = g_cpus;
    std::snprintf(j.nspace, sizeof j.nspace, "%s", g_nspace.c_str());
    *out = j;
    return PLEXUS_SUCCESS;
}
int fake_shm_prefix(char *buf, size_t len) {
    std::snprintf(buf, len, "plexus-%016x-", static_cast<unsigned>(getpid()));
    return PLEXUS_SUCCESS;
}
int fake_modex_put(const plexus_component_t *, const void *data, size_t len) {
    const auto *b = static_cast<const uint8_t *>(data);
    g_cards[{g_nspace, g_rank}].assign(b, b + len);
    return PLEXUS_SUCCESS;
}
int g_card_gets = 0;  // modex_get calls
int fake_modex_get(const plexus_component_t *, const char *nspace, uint32_t rank, const void **data, size_t *len,
                   int) {
    ++g_card_gets;
    auto it = g_cards.find({nspace ? nspace : g_nspace, rank});
    if (it == g_cards.end()) return PLEXUS_ERR_NOT_FOUND;
    *data = it->second.data();
    *len = it->second.size();
    return PLEXUS_SUCCESS;
}
int g_binds = 0;
int fake_bind(void *, size_t) {
    ++g_binds;
    return PLEXUS_ERR_NOT_AVAILABLE;
}
// Where btl_sm_single_copy_threshold's value came from ("default", "cli", ...).
std::string g_threshold_source = "default";
std::string g_limit_source = "default";
int fake_param_is_set(const char *name) {
    if (std::string(name) == "btl_sm_single_copy_threshold") return g_threshold_source == "default" ? 0 : 1;
    if (std::string(name) == "btl_sm_single_copy_limit") return g_limit_source == "default" ? 0 : 1;
    return PLEXUS_ERR_NOT_FOUND;
}

// What the runtime says of a rank's node (host API 1.4); a rank not in the map is unknown to it
// (PLEXUS_ERR_NOT_FOUND, as a process of another job), and its card decides.
std::map<uint32_t, int> g_on_node;
int fake_on_node(const char *, uint32_t rank) {
    auto it = g_on_node.find(rank);
    return it == g_on_node.end() ? PLEXUS_ERR_NOT_FOUND : it->second;
}

plexus_host_api_t make_host() {
    plexus_host_api_t h{};
    h.struct_size = sizeof h;
    h.major = PLEXUS_HOST_API_MAJOR;
    h.minor = PLEXUS_HOST_API_MINOR;
    h.log = fake_log;
    h.verbosity = fake_verbosity;
    h.progress_register = fake_progress_register;
    h.progress_unregister = fake_progress_register;
    h.job_info = fake_job_info;
    h.shm_name_prefix = fake_shm_prefix;
    // The core's real shm services, naming segments without a runtime.
    h.shm = &plexus::runtime::kShmServices;
    char prefix[64];
    fake_shm_prefix(prefix, sizeof prefix);
    plexus::runtime::set_shm_prefix_for_tests(prefix);
    h.modex_put = fake_modex_put;
    h.modex_get = fake_modex_get;
    h.mem_bind_local = fake_bind;
    h.param_is_set = fake_param_is_set;
    h.proc_on_this_node = fake_on_node;
    return h;
}
const plexus_host_api_t kHost = make_host();

// ---- what a receiver saw ----
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

constexpr uint8_t kTag = 0x05;

struct Rank {
    std::unique_ptr<SmModule> module;
    std::vector<plexus_btl_endpoint_t *> eps;  // by rank
    Inbox inbox;
    plexus_btl_module_t *api() { return module->api(); }
    Endpoint *to(uint32_t r) { return reinterpret_cast<Endpoint *>(eps[r]); }
};

class SmModuleTest : public ::testing::Test {
protected:
    SmModuleTest() { ranks.reserve(8); }  // callbacks hold pointers to the inboxes: never move them
    void TearDown() override {
        ranks.clear();
        g_cards.clear();
        g_nspace = "testjob";
        g_threshold_source = "default";
        g_limit_source = "default";
        g_oversubscribed = false;
        g_cpus = 2;
        g_on_node.clear();
    }
    // Opens n ranks with params; add_procs of the whole job unless told otherwise.
    void open_job(uint32_t n, const SmParams &p = SmParams{}, bool add = true) {
        g_local_size = n;
        g_warnings.clear();
        for (uint32_t r = 0; r < n; ++r) {
            g_rank = r;
            Rank rk;
            rk.module = std::make_unique<SmModule>(&kHost, nullptr, p);
            plexus_reason_t why{};
            ASSERT_EQ(rk.module->open(&why), PLEXUS_SUCCESS) << why.text;
            rk.module->register_recv(kTag, Inbox::on_message, nullptr);
            ranks.push_back(std::move(rk));
        }
        for (auto &rk : ranks) rk.module->register_recv(kTag, Inbox::on_message, &rk.inbox);
        if (add)
            for (uint32_t r = 0; r < n; ++r) add_procs(r);
    }
    void add_procs(uint32_t r) {
        const uint32_t n = g_local_size;
        std::vector<plexus_btl_proc_t> procs(n);
        for (uint32_t i = 0; i < n; ++i) procs[i] = plexus_btl_proc_t{100 + i, i, "testjob"};
        ranks[r].eps.assign(n, nullptr);
        ASSERT_EQ(ranks[r].module->add_procs(n, procs.data(), ranks[r].eps.data()), PLEXUS_SUCCESS);
    }
    int send(uint32_t from, uint32_t to, const std::string &hdr, const std::string &payload = "") {
        return ranks[from].module->send(ranks[from].to(to), kTag, hdr.data(), hdr.size(), payload.data(),
                                        payload.size());
    }
    // Progress on every rank until nothing happens.
    void settle() {
        for (int quiet = 0; quiet < 3;) {
            int events = 0;
            for (auto &rk : ranks) events += rk.module->progress();
            quiet = events ? 0 : quiet + 1;
        }
    }
    plexus_btl_fast_stats_t stats(uint32_t r) {
        plexus_btl_fast_stats_t s{};
        EXPECT_EQ(ranks[r].module->fast_channel_stats(&s), PLEXUS_SUCCESS);
        return s;
    }
    std::vector<Rank> ranks;
};

TEST_F(SmModuleTest, ReachesLocalPeersButNotItself) {
    open_job(3);
    for (uint32_t r = 0; r < 3; ++r)
        for (uint32_t p = 0; p < 3; ++p) EXPECT_EQ(ranks[r].eps[p] == nullptr, r == p) << r << "->" << p;
    const plexus_btl_module_t *m = ranks[0].api();
    EXPECT_EQ(m->exclusivity, PLEXUS_BTL_EXCLUSIVITY_NODE);
    EXPECT_EQ(m->eager_limit, 32768u);
    EXPECT_TRUE(m->caps & PLEXUS_BTL_CAP_FAST_CHANNELS);
}

// Issue 22: the runtime's node map (PMIx's, host API 1.4) decides which peers share the node, as
// for btl_tcp: a peer it places elsewhere gets no endpoint and its card is not fetched, even when
// the card's node identity (hostname + boot id) matches, as it does for the namespace "hosts" of
// tests/multinode; a peer it places here is reached; one it does not know is judged by its card.
TEST_F(SmModuleTest, TheRuntimesNodeMapDecidesWhoIsLocal) {
    open_job(3, SmParams{}, false);
    g_on_node = {{0, 1}, {1, 0}};  // rank 2: unknown to the runtime
    g_card_gets = 0;
    add_procs(0);
    EXPECT_EQ(ranks[0].eps[1], nullptr) << "the runtime places rank 1 on another node";
    EXPECT_NE(ranks[0].eps[2], nullptr) << "rank 2's card names this node";
    EXPECT_EQ(g_card_gets, 1) << "only rank 2's card is fetched";
    g_on_node = {{0, 1}, {1, 1}, {2, 1}};
    add_procs(1);
    add_procs(2);
    ASSERT_EQ(send(2, 1, "placed here by the runtime"), PLEXUS_SUCCESS);
    settle();
    ASSERT_EQ(ranks[1].inbox.got.size(), 1u);
    EXPECT_EQ(ranks[1].inbox.got[0].bytes, "placed here by the runtime");
}

TEST_F(SmModuleTest, AddingTwiceGivesTheSameEndpoint) {
    open_job(2);
    plexus_btl_proc_t proc{7, 1, "testjob"};
    plexus_btl_endpoint_t *ep = nullptr;
    ASSERT_EQ(ranks[0].module->add_procs(1, &proc, &ep), PLEXUS_SUCCESS);
    EXPECT_EQ(ep, ranks[0].eps[1]);
    ASSERT_EQ(send(0, 1, "again"), PLEXUS_SUCCESS);
    settle();
    ASSERT_EQ(ranks[1].inbox.got.size(), 1u);
    EXPECT_EQ(ranks[1].inbox.got[0].src, 100u) << "rank 0 as rank 1's upper layer named it";
}

TEST_F(SmModuleTest, HeaderAndPayloadArriveContiguous) {
    open_job(2);
    ASSERT_EQ(send(0, 1, "HDR:", "payload"), PLEXUS_SUCCESS);
    EXPECT_TRUE(ranks[1].inbox.got.empty()) << "nothing is delivered inside send";
    settle();
    ASSERT_EQ(ranks[1].inbox.got.size(), 1u);
    EXPECT_EQ(ranks[1].inbox.got[0].src, 100u);
    EXPECT_EQ(ranks[1].inbox.got[0].tag, kTag);
    EXPECT_EQ(ranks[1].inbox.got[0].bytes, "HDR:payload");
}

// BTL 1.2 send_pack: the caller's pack function writes the payload straight into the fast-box
// record or the fragment, at the stream offset asked for; the receiver gets header and payload
// contiguous, as from send.
TEST_F(SmModuleTest, SendPackWritesThePayloadWhereTheMessageTravels) {
    SmParams p;
    p.fastbox_threshold = 2;
    open_job(2, p);
    struct Stream {
        int calls = 0;
        static char at(size_t i) { return static_cast<char>((i * 7 + 3) & 0xff); }
        static void pack(void *ctx, size_t offset, size_t len, void *dst) {
            ++static_cast<Stream *>(ctx)->calls;
            for (size_t i = 0; i < len; ++i) static_cast<char *>(dst)[i] = at(offset + i);
        }
    } stream;
    auto expected = [](const std::string &hdr, size_t offset, size_t len) {
        std::string s = hdr;
        for (size_t i = 0; i < len; ++i) s += Stream::at(offset + i);
        return s;
    };
    Endpoint *ep = ranks[0].to(1);
    struct Case { size_t offset, len; };
    const Case cases[] = {{0, 0}, {5, 100}, {1000, 3000}, {0, 20000}, {77, 32768 - 16}, {3, 1}, {40000, 8000}};
    std::vector<std::string> want;
    for (const Case &c : cases) {
        const std::string hdr = "H" + std::to_string(want.size()) + ":";
        ASSERT_EQ(ranks[0].module->send_pack(ep, kTag, hdr.data(), hdr.size(), Stream::pack, &stream, c.offset, c.len),
                  PLEXUS_SUCCESS);
        want.push_back(expected(hdr, c.offset, c.len));
        settle();  // the box is granted after the threshold; later messages may use it
    }
    ASSERT_EQ(ranks[1].inbox.got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(ranks[1].inbox.got[i].bytes, want[i]) << "message " << i;
    EXPECT_GE(stream.calls, 6) << "every non-empty payload is packed";
    const auto s0 = stats(0);
    EXPECT_GT(s0.fast_sends, 0u) << "small packed messages should take the fast box";
    EXPECT_GT(s0.slow_sends, 2u) << "large packed messages take fragments";
    EXPECT_EQ(ranks[0].module->send_pack(ep, kTag, "h", 1, nullptr, nullptr, 0, 10), PLEXUS_ERR_BAD_PARAM)
        << "a payload without a pack function";
    EXPECT_EQ(ranks[0].module->send_pack(ep, kTag, "h", 1, Stream::pack, &stream, 0, 32768), PLEXUS_ERR_BAD_PARAM)
        << "longer than max_send_size with its header";
}

// Issue 15: a rank killed at any point leaves no name in /dev/shm (the segment never has one
// where peers can borrow descriptors, as on every machine the tests run on).
TEST_F(SmModuleTest, SegmentsNeverHaveANameInDevShm) {
    open_job(2, SmParams{}, false);
    Card card{};
    std::string why;
    const auto &bytes = g_cards[{"testjob", 0}];
    ASSERT_TRUE(parse_card(bytes.data(), bytes.size(), &card, &why)) << why;
    errno = 0;
    EXPECT_LT(shm_open(card.segment.name, O_RDONLY, 0), 0) << card.segment.name << " has a name before peers attach";
    EXPECT_EQ(errno, ENOENT);
    add_procs(0);
    add_procs(1);
    ASSERT_EQ(send(0, 1, "through a borrowed descriptor"), PLEXUS_SUCCESS);
    settle();
    ASSERT_EQ(ranks[1].inbox.got.size(), 1u);
    EXPECT_EQ(ranks[1].inbox.got[0].bytes, "through a borrowed descriptor");
}

// A core before host API 1.3 (or one without shm services): sm declines and says why.
TEST_F(SmModuleTest, DeclinesWithoutTheCoresShmServices) {
    g_local_size = 2;
    g_rank = 0;
    plexus_host_api_t old = make_host();
    old.shm = nullptr;
    plexus_reason_t why{};
    EXPECT_EQ(SmModule(&old, nullptr, SmParams{}).open(&why), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_STREQ(why.text, "needs host API 1.3 (shm services)");
    old = make_host();
    old.struct_size = offsetof(plexus_host_api_t, shm);  // a 1.2 core's table ends there
    why = plexus_reason_t{};
    EXPECT_EQ(SmModule(&old, nullptr, SmParams{}).open(&why), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_STREQ(why.text, "needs host API 1.3 (shm services)");
    EXPECT_TRUE(g_cards.empty()) << "a card was put by a module that declined";
}

TEST_F(SmModuleTest, FastBoxAfterTheThreshold) {
    SmParams p;
    p.fastbox_threshold = 4;
    open_job(2, p);
    Endpoint *ep = ranks[0].to(1);
    for (int i = 0; i < 5; ++i) ASSERT_EQ(send(0, 1, "m" + std::to_string(i)), PLEXUS_SUCCESS);
    EXPECT_EQ(ranks[0].module->fast_channel_state(ep), PLEXUS_BTL_FAST_PENDING);
    settle();
    EXPECT_EQ(ranks[0].module->fast_channel_state(ep), PLEXUS_BTL_FAST_ACTIVE);
    for (int i = 5; i < 100; ++i) ASSERT_EQ(send(0, 1, "m" + std::to_string(i)), PLEXUS_SUCCESS);
    settle();
    ASSERT_EQ(ranks[1].inbox.got.size(), 100u);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(ranks[1].inbox.got[i].bytes, "m" + std::to_string(i));
    const auto s0 = stats(0), s1 = stats(1);
    EXPECT_EQ(s0.active, 1u);
    EXPECT_EQ(s0.slow_sends, 5u);
    EXPECT_EQ(s0.fast_sends, 95u);
    EXPECT_EQ(s1.incoming, 1u);
    EXPECT_EQ(s1.capacity, 32u);
}

// A full box sends by the FIFO; the receiver polls its boxes first, so the box must wait until
// the FIFO messages are read, or a later message would overtake them.
TEST_F(SmModuleTest, MessagesOverflowingTheBoxKeepTheirOrder) {
    SmParams p;
    p.fastbox_threshold = 0;
    p.fastbox_size = 4096;  // 20 records of 200 bytes
    open_job(2, p);
    Endpoint *ep = ranks[0].to(1);
    const std::string pad(192, '.');
    int sent = 0;
    auto next = [&] { return send(0, 1, "m" + std::to_string(sent), pad); };
    ASSERT_EQ(next(), PLEXUS_SUCCESS);
    ++sent;
    settle();
    ASSERT_EQ(ranks[0].module->fast_channel_state(ep), PLEXUS_BTL_FAST_ACTIVE);
    // The box fills, then the FIFO takes more than one progress call reads.
    while (sent < 120 && next() == PLEXUS_SUCCESS) ++sent;
    ASSERT_GT(stats(0).slow_sends, 70u);
    ranks[1].module->progress();  // the box, and part of the FIFO
    for (int i = 0; i < 10; ++i, ++sent) ASSERT_EQ(next(), PLEXUS_SUCCESS);
    settle();
    ASSERT_EQ(ranks[1].inbox.got.size(), static_cast<size_t>(sent));
    for (int i = 0; i < sent; ++i) ASSERT_EQ(ranks[1].inbox.got[i].bytes, "m" + std::to_string(i) + pad) << i;
}

// The receiver reads up to 64 box records a progress call. A box holding more than that when
// the sender overflowed into the FIFO must still come first: a FIFO fragment is delivered only
// after the rest of its sender's box (the PML would otherwise hold it back as an early arrival).
TEST_F(SmModuleTest, AFifoFragmentWaitsForTheRestOfItsSendersBox) {
    SmParams p;
    p.fastbox_threshold = 0;
    p.fastbox_size = 4096;  // some 250 records of 16 bytes: more than one progress call reads
    open_job(2, p);
    Endpoint *ep = ranks[0].to(1);
    int sent = 0;
    auto next = [&] { return send(0, 1, "m" + std::to_string(sent)); };
    ASSERT_EQ(next(), PLEXUS_SUCCESS);
    ++sent;
    settle();
    ASSERT_EQ(ranks[0].module->fast_channel_state(ep), PLEXUS_BTL_FAST_ACTIVE);
    const size_t delivered = ranks[1].inbox.got.size();
    while (stats(0).slow_sends < 3 && sent < 1000) {
        ASSERT_EQ(next(), PLEXUS_SUCCESS);
        ++sent;
    }
    ASSERT_GT(stats(0).fast_sends, 128u) << "the box must hold more than a progress call reads";
    ASSERT_EQ(stats(0).slow_sends, 3u);
    ranks[1].module->progress();
    const auto &got = ranks[1].inbox.got;
    ASSERT_GT(got.size(), delivered + 64) << "the FIFO fragment came with the rest of the box";
    for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i].bytes, "m" + std::to_string(i)) << i;
    settle();
    ASSERT_EQ(got.size(), static_cast<size_t>(sent));
    for (int i = 0; i < sent; ++i) ASSERT_EQ(got[i].bytes, "m" + std::to_string(i)) << i;
}

TEST_F(SmModuleTest, FastBoxesOffMeansFifoOnly) {
    SmParams p;
    p.fastbox_threshold = 0;
    p.fastbox_max = 0;
    open_job(2, p);
    for (int i = 0; i < 50; ++i) {
        ASSERT_EQ(send(0, 1, "x"), PLEXUS_SUCCESS);
        settle();
    }
    EXPECT_EQ(ranks[0].module->fast_channel_state(ranks[0].to(1)), PLEXUS_BTL_FAST_NONE);
    EXPECT_EQ(stats(0).fast_sends, 0u);
    EXPECT_EQ(ranks[0].module->fast_channel(ranks[0].to(1), PLEXUS_BTL_FAST_CREATE), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_EQ(ranks[1].inbox.got.size(), 50u);
}

TEST_F(SmModuleTest, FullPeerRefusesAndTheThresholdDoesNotAskAgain) {
    SmParams p;
    p.fastbox_threshold = 0;
    p.fastbox_max = 1;
    open_job(3, p);
    ASSERT_EQ(send(0, 2, "a"), PLEXUS_SUCCESS);
    settle();
    ASSERT_EQ(ranks[0].module->fast_channel_state(ranks[0].to(2)), PLEXUS_BTL_FAST_ACTIVE);
    // Rank 2 has granted its only box: rank 1 is refused (explicitly: at once; by threshold: after asking).
    EXPECT_EQ(ranks[1].module->fast_channel(ranks[1].to(2), PLEXUS_BTL_FAST_CREATE), PLEXUS_ERR_NOT_AVAILABLE);
    ASSERT_EQ(send(1, 2, "b"), PLEXUS_SUCCESS);
    EXPECT_EQ(ranks[1].module->fast_channel_state(ranks[1].to(2)), PLEXUS_BTL_FAST_PENDING);
    settle();
    EXPECT_EQ(ranks[1].module->fast_channel_state(ranks[1].to(2)), PLEXUS_BTL_FAST_NONE);
    ASSERT_EQ(send(1, 2, "c"), PLEXUS_SUCCESS);
    EXPECT_EQ(ranks[1].module->fast_channel_state(ranks[1].to(2)), PLEXUS_BTL_FAST_NONE);
    settle();
    EXPECT_EQ(ranks[2].inbox.got.size(), 3u);
}

TEST_F(SmModuleTest, ReconfCreatesQuiescesResumesAndDrops) {
    SmParams p;
    p.fastbox_threshold = 1 << 30;  // only reconf asks
    open_job(2, p);
    auto *m = ranks[0].module.get();
    Endpoint *ep = ranks[0].to(1);
    EXPECT_EQ(m->fast_channel(ep, PLEXUS_BTL_FAST_QUIESCE), PLEXUS_ERR_NOT_FOUND);
    ASSERT_EQ(m->fast_channel(ep, PLEXUS_BTL_FAST_CREATE), PLEXUS_SUCCESS);
    EXPECT_EQ(m->fast_channel_state(ep), PLEXUS_BTL_FAST_PENDING);
    settle();
    ASSERT_EQ(m->fast_channel_state(ep), PLEXUS_BTL_FAST_ACTIVE);
    ASSERT_EQ(send(0, 1, "fast"), PLEXUS_SUCCESS);
    EXPECT_EQ(stats(0).fast_sends, 1u);
    ASSERT_EQ(m->fast_channel(ep, PLEXUS_BTL_FAST_QUIESCE), PLEXUS_SUCCESS);
    EXPECT_EQ(m->fast_channel_state(ep), PLEXUS_BTL_FAST_QUIESCED);
    ASSERT_EQ(send(0, 1, "slow"), PLEXUS_SUCCESS);
    EXPECT_EQ(stats(0).slow_sends, 1u);
    EXPECT_EQ(stats(0).quiesced, 1u);
    ASSERT_EQ(m->fast_channel(ep, PLEXUS_BTL_FAST_RESUME), PLEXUS_SUCCESS);
    // Until rank 1 has read "slow", a box message would overtake it: the next one follows it.
    ASSERT_EQ(send(0, 1, "behind slow"), PLEXUS_SUCCESS);
    EXPECT_EQ(stats(0).slow_sends, 2u);
    EXPECT_EQ(stats(0).fast_sends, 1u);
    settle();
    // Messages still in the box when it is dropped are delivered before the box is freed.
    for (int i = 0; i < 10; ++i) ASSERT_EQ(send(0, 1, "in box " + std::to_string(i)), PLEXUS_SUCCESS);
    EXPECT_EQ(stats(0).fast_sends, 11u);
    ASSERT_EQ(m->fast_channel(ep, PLEXUS_BTL_FAST_DROP), PLEXUS_SUCCESS);
    EXPECT_EQ(m->fast_channel_state(ep), PLEXUS_BTL_FAST_NONE);
    EXPECT_EQ(stats(1).incoming, 1u);
    // Rank 1 has not polled its box yet: the DROP in its FIFO makes it drain the box first.
    ASSERT_EQ(ranks[1].module->progress() > 0, true);
    settle();
    EXPECT_EQ(stats(1).incoming, 0u);
    EXPECT_EQ(ranks[1].inbox.got.size(), 13u);
    int boxed = 0;
    for (const auto &g : ranks[1].inbox.got) boxed += g.bytes.rfind("in box", 0) == 0;
    EXPECT_EQ(boxed, 10);
    // Dropped on purpose: no automatic request follows, but reconf may create one again.
    ASSERT_EQ(send(0, 1, "after"), PLEXUS_SUCCESS);
    EXPECT_EQ(m->fast_channel_state(ep), PLEXUS_BTL_FAST_NONE);
    ASSERT_EQ(m->fast_channel(ep, PLEXUS_BTL_FAST_CREATE), PLEXUS_SUCCESS);
    settle();
    EXPECT_EQ(m->fast_channel_state(ep), PLEXUS_BTL_FAST_ACTIVE);
}

TEST_F(SmModuleTest, DropWhilePendingGivesTheBoxBack) {
    SmParams p;
    p.fastbox_threshold = 1 << 30;
    open_job(2, p);
    auto *m = ranks[0].module.get();
    Endpoint *ep = ranks[0].to(1);
    ASSERT_EQ(m->fast_channel(ep, PLEXUS_BTL_FAST_CREATE), PLEXUS_SUCCESS);
    ASSERT_EQ(m->fast_channel(ep, PLEXUS_BTL_FAST_DROP), PLEXUS_SUCCESS);
    EXPECT_EQ(m->fast_channel_state(ep), PLEXUS_BTL_FAST_NONE);
    settle();
    EXPECT_EQ(m->fast_channel_state(ep), PLEXUS_BTL_FAST_NONE);
    EXPECT_EQ(stats(1).incoming, 0u) << "the granted box must come back";
}

TEST_F(SmModuleTest, ExhaustedFragmentsSayAgainAndLoseNothing) {
    SmParams p;
    p.fastbox_max = 0;
    p.free_list_num = 8;
    p.max_frag_num = 4;
    open_job(2, p);
    int sent = 0;
    while (send(0, 1, "n" + std::to_string(sent)) == PLEXUS_SUCCESS) ++sent;
    EXPECT_EQ(sent, 12) << "eager fragments, then the large ones";
    EXPECT_EQ(send(0, 1, "more"), PLEXUS_ERR_AGAIN);
    EXPECT_EQ(ranks[0].module->fragments_in_flight(), 12u);
    settle();
    EXPECT_EQ(ranks[0].module->fragments_in_flight(), 0u);
    ASSERT_EQ(send(0, 1, "n" + std::to_string(sent++)), PLEXUS_SUCCESS);
    settle();
    ASSERT_EQ(ranks[1].inbox.got.size(), 13u);
    for (int i = 0; i < 13; ++i) EXPECT_EQ(ranks[1].inbox.got[i].bytes, "n" + std::to_string(i));
}

// Receivers that hold every fragment past btl_sm_single_copy_stall (descheduled on a busy
// machine): rendezvous payloads from the eager limit on go by single copy, for a hold after the
// last stall (kStallHoldNs, doubled when stalls keep coming back); a fragment coming back in time
// restarts the clock.
class SmStallTest : public SmModuleTest {
protected:
    void open_stalling(int64_t stall_us) {
        SmParams p;
        p.fastbox_max = 0;
        p.free_list_num = 8;
        p.max_frag_num = 4;
        p.single_copy_stall = stall_us;
        open_job(2, p);
        ASSERT_TRUE(ranks[0].api()->caps & PLEXUS_BTL_CAP_PUT) << "CMA is expected to work on the test machine";
        while (send(0, 1, "x") == PLEXUS_SUCCESS) {
        }
    }
    uint64_t threshold() { return ranks[0].api()->rdma_threshold; }
    uint64_t limit() { return ranks[0].api()->rdma_limit; }
    static void sleep_us(int64_t us) { ::usleep(static_cast<useconds_t>(us)); }
};

TEST_F(SmStallTest, FragmentsHeldPastTheBoundLowerTheThreshold) {
    open_stalling(20000);
    EXPECT_EQ(threshold(), SmParams{}.single_copy_threshold) << "one refused send is no stall yet";
    sleep_us(25000);
    EXPECT_EQ(send(0, 1, "x"), PLEXUS_ERR_AGAIN);
    EXPECT_EQ(threshold(), SmParams{}.eager_limit);
    EXPECT_EQ(limit(), 0u) << "stalled: single copy at every size";
    EXPECT_EQ(ranks[0].module->stall_switches(), 1u);
    EXPECT_EQ(send(0, 1, "x"), PLEXUS_ERR_AGAIN);
    EXPECT_EQ(ranks[0].module->stall_switches(), 1u) << "one switch per stall";
}

TEST_F(SmStallTest, AFragmentBackInTimeRestartsTheClock) {
    open_stalling(20000);
    sleep_us(25000);
    ranks[1].module->progress();  // the receiver drains before the sender tries again
    ASSERT_EQ(send(0, 1, "x"), PLEXUS_SUCCESS);
    while (send(0, 1, "x") == PLEXUS_SUCCESS) {
    }
    EXPECT_EQ(send(0, 1, "x"), PLEXUS_ERR_AGAIN);
    EXPECT_EQ(threshold(), SmParams{}.single_copy_threshold) << "the first refusal was 25 ms ago, the stall is new";
    EXPECT_EQ(ranks[0].module->stall_switches(), 0u);
}

TEST_F(SmStallTest, TheThresholdComesBackAfterTheHold) {
    open_stalling(0);
    EXPECT_EQ(threshold(), SmParams{}.eager_limit) << "bound 0: the first refused send switches";
    char buf[64];
    plexus_btl_mem_handle_t h{};
    ASSERT_EQ(ranks[0].module->register_mem(buf, sizeof buf, &h), PLEXUS_SUCCESS);
    EXPECT_EQ(threshold(), SmParams{}.eager_limit) << "within the hold";
    sleep_us(kStallHoldNs / 1000 + 10000);
    ASSERT_EQ(ranks[0].module->register_mem(buf, sizeof buf, &h), PLEXUS_SUCCESS);
    EXPECT_EQ(threshold(), SmParams{}.single_copy_threshold);
    EXPECT_EQ(limit(), SmParams{}.single_copy_limit);
}

// A stall again soon after coming back: the machine is still busy, so the next hold is twice as
// long (a busy machine then pays the stall bound ever more rarely).
TEST_F(SmStallTest, AStallRightAfterTheHoldDoublesTheNextHold) {
    open_stalling(0);
    char buf[64];
    plexus_btl_mem_handle_t h{};
    sleep_us(kStallHoldNs / 1000 + 10000);
    ASSERT_EQ(ranks[0].module->register_mem(buf, sizeof buf, &h), PLEXUS_SUCCESS);
    ASSERT_EQ(threshold(), SmParams{}.single_copy_threshold);
    EXPECT_EQ(send(0, 1, "x"), PLEXUS_ERR_AGAIN) << "the receiver still holds every fragment";
    EXPECT_EQ(threshold(), SmParams{}.eager_limit);
    EXPECT_EQ(ranks[0].module->stall_switches(), 2u);
    sleep_us(kStallHoldNs / 1000 + 10000);
    ASSERT_EQ(ranks[0].module->register_mem(buf, sizeof buf, &h), PLEXUS_SUCCESS);
    EXPECT_EQ(threshold(), SmParams{}.eager_limit) << "the second hold is twice the first";
    sleep_us(kStallHoldNs / 1000);
    ASSERT_EQ(ranks[0].module->register_mem(buf, sizeof buf, &h), PLEXUS_SUCCESS);
    EXPECT_EQ(threshold(), SmParams{}.single_copy_threshold);
}

TEST_F(SmStallTest, MinusOneNeverSwitches) {
    open_stalling(-1);
    EXPECT_EQ(send(0, 1, "x"), PLEXUS_ERR_AGAIN);
    EXPECT_EQ(threshold(), SmParams{}.single_copy_threshold);
    EXPECT_EQ(ranks[0].module->stall_switches(), 0u);
}

TEST_F(SmModuleTest, FullFifoSaysAgain) {
    SmParams p;
    p.fastbox_max = 0;
    p.fifo_size = 64;
    p.free_list_num = 256;
    open_job(2, p);
    int sent = 0;
    while (send(0, 1, "f") == PLEXUS_SUCCESS) ++sent;
    EXPECT_EQ(sent, 64);
    EXPECT_EQ(ranks[0].module->fragments_in_flight(), 64u) << "the fragment of the refused send is free again";
    settle();
    EXPECT_EQ(ranks[1].inbox.got.size(), 64u);
}

TEST_F(SmModuleTest, LargestMessageAndTooLarge) {
    open_job(2);
    const std::string big(32 * 1024 - 10, 'z');
    ASSERT_EQ(send(0, 1, "0123456789", big), PLEXUS_SUCCESS);
    EXPECT_EQ(send(0, 1, "01234567890", big), PLEXUS_ERR_BAD_PARAM);
    settle();
    ASSERT_EQ(ranks[1].inbox.got.size(), 1u);
    EXPECT_EQ(ranks[1].inbox.got[0].bytes, "0123456789" + big);
}

TEST_F(SmModuleTest, InternalTagsAreNotForTheUpperLayer) {
    open_job(2);
    EXPECT_EQ(ranks[1].module->register_recv(0xc0, Inbox::on_message, nullptr), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(ranks[0].module->send(ranks[0].to(1), 0xc1, "x", 1, nullptr, 0), PLEXUS_ERR_BAD_PARAM);
}

TEST_F(SmModuleTest, MessageWithoutCallbackIsDroppedWithOneWarning) {
    open_job(2);
    for (int i = 0; i < 3; ++i) ranks[0].module->send(ranks[0].to(1), 0x09, "?", 1, nullptr, 0);
    settle();
    EXPECT_EQ(g_warnings.size(), 1u);
    EXPECT_TRUE(ranks[1].inbox.got.empty());
    EXPECT_EQ(ranks[0].module->fragments_in_flight(), 0u) << "dropped messages still give their fragments back";
}

// A callback that answers at once (as the PML's CTS does) and polls again from inside.
struct Echo {
    SmModule *module;
    Endpoint *back;
    int seen = 0;
    int nested_events = -1;
    static void on_message(void *ctx, const plexus_btl_recv_desc_t *m) {
        auto *e = static_cast<Echo *>(ctx);
        ++e->seen;
        e->nested_events = e->module->progress();
        e->module->send(e->back, kTag, m->data, m->len, nullptr, 0);
    }
};

TEST_F(SmModuleTest, CallbacksMaySendAndNestedProgressIsHarmless) {
    SmParams p;
    p.fastbox_threshold = 2;
    open_job(2, p);
    Echo echo{ranks[1].module.get(), ranks[1].to(0)};
    ranks[1].module->register_recv(kTag, Echo::on_message, &echo);
    for (int i = 0; i < 200; ++i) {
        ASSERT_EQ(send(0, 1, "ping" + std::to_string(i)), PLEXUS_SUCCESS);
        settle();
    }
    EXPECT_EQ(echo.seen, 200);
    EXPECT_EQ(echo.nested_events, 0);
    ASSERT_EQ(ranks[0].inbox.got.size(), 200u);
    for (int i = 0; i < 200; ++i) EXPECT_EQ(ranks[0].inbox.got[i].bytes, "ping" + std::to_string(i));
    EXPECT_EQ(ranks[0].module->fast_channel_state(ranks[0].to(1)), PLEXUS_BTL_FAST_ACTIVE);
    EXPECT_EQ(ranks[1].module->fast_channel_state(ranks[1].to(0)), PLEXUS_BTL_FAST_ACTIVE);
}

TEST_F(SmModuleTest, EarlySenderIsDeliveredOnceNamed) {
    open_job(2, SmParams{}, false);
    add_procs(0);
    ASSERT_EQ(send(0, 1, "early"), PLEXUS_SUCCESS);
    ranks[1].module->progress();  // rank 1 has not called add_procs: it keeps the message
    EXPECT_TRUE(ranks[1].inbox.got.empty());
    add_procs(1);
    settle();
    ASSERT_EQ(ranks[1].inbox.got.size(), 1u);
    EXPECT_EQ(ranks[1].inbox.got[0].bytes, "early");
    EXPECT_EQ(ranks[1].inbox.got[0].src, 100u);
    ASSERT_EQ(send(1, 0, "reply"), PLEXUS_SUCCESS);
    settle();
    EXPECT_EQ(ranks[0].inbox.got.size(), 1u);
}

// More ranks on the node than CPUs: single copy from 4 MiB on, from 1 MiB on where the node is
// crowded (4 ranks per CPU), unless the user set the threshold. (A rank per CPU keeps the
// default: SingleCopyGetAndPutWithinTheRegion.)
TEST_F(SmModuleTest, OversubscribedNodeUsesSingleCopyFromFourMebibytes) {
    g_oversubscribed = true;
    open_job(3);
    const plexus_btl_module_t *m = ranks[0].api();
    ASSERT_TRUE(m->caps & PLEXUS_BTL_CAP_GET) << "CMA is expected to work on the test machine";
    EXPECT_EQ(m->rdma_threshold, kOversubscribedSingleCopyFrom);
    EXPECT_EQ(m->rdma_limit, 0u) << "no upper limit where fragments wait for the CPU";
    EXPECT_EQ(kOversubscribedSingleCopyFrom, uint64_t{4} << 20);
}

TEST_F(SmModuleTest, CrowdedNodeUsesSingleCopyFromOneMebibyte) {
    g_oversubscribed = true;
    g_cpus = 1;
    open_job(4);
    const plexus_btl_module_t *m = ranks[0].api();
    ASSERT_TRUE(m->caps & PLEXUS_BTL_CAP_GET) << "CMA is expected to work on the test machine";
    EXPECT_EQ(m->rdma_threshold, kCrowdedSingleCopyFrom);
    EXPECT_EQ(m->rdma_limit, 0u);
    EXPECT_EQ(kCrowdedSingleCopyFrom, uint64_t{1} << 20);
}

TEST_F(SmModuleTest, OversubscribedNodeKeepsAThresholdTheUserSet) {
    g_oversubscribed = true;
    g_threshold_source = "cli";
    SmParams p;
    p.single_copy_threshold = 1 << 20;
    open_job(3, p);
    EXPECT_EQ(ranks[0].api()->rdma_threshold, uint64_t{1} << 20);
    EXPECT_EQ(ranks[0].api()->rdma_limit, 0u) << "a threshold the user set means from there on";
}

// Every rank with a CPU: single copy between 32 KiB and 2 MiB, fragments below and above.
TEST_F(SmModuleTest, IdleNodeUsesSingleCopyInAWindowOfSizes) {
    open_job(2);
    const plexus_btl_module_t *m = ranks[0].api();
    ASSERT_TRUE(m->caps & PLEXUS_BTL_CAP_GET) << "CMA is expected to work on the test machine";
    EXPECT_EQ(m->rdma_threshold, uint64_t{32} << 10);
    EXPECT_EQ(m->rdma_limit, uint64_t{2} << 20);
    EXPECT_TRUE(PLEXUS_BTL_RDMA_PAYS(m, size_t{1} << 20));
    EXPECT_FALSE(PLEXUS_BTL_RDMA_PAYS(m, size_t{4} << 20));
    EXPECT_FALSE(PLEXUS_BTL_RDMA_PAYS(m, size_t{16} << 10));
}

TEST_F(SmModuleTest, AThresholdTheUserSetAloneHasNoLimitAndBothSetKeepBoth) {
    g_threshold_source = "cli";
    SmParams p;
    p.single_copy_threshold = 16 << 10;
    open_job(2, p);
    EXPECT_EQ(ranks[0].api()->rdma_threshold, uint64_t{16} << 10);
    EXPECT_EQ(ranks[0].api()->rdma_limit, 0u);
    ranks.clear();
    g_limit_source = "env";
    p.single_copy_limit = 8 << 20;
    open_job(2, p);
    EXPECT_EQ(ranks[0].api()->rdma_limit, uint64_t{8} << 20);
}

// The segment is bound to this process's NUMA node wherever the core can; a core without
// mem_bind_local is named in the log instead of binding being skipped in silence (tables of
// older minors, where the check used to fail: test_sdk).
TEST_F(SmModuleTest, TheSegmentIsBoundOrTheLogSaysWhyNot) {
    g_local_size = 1;
    g_rank = 0;
    g_binds = 0;
    g_log.clear();
    plexus_reason_t why{};
    ASSERT_EQ(SmModule(&kHost, nullptr, SmParams{}).open(&why), PLEXUS_SUCCESS) << why.text;
    EXPECT_EQ(g_binds, 1);
    plexus_host_api_t unbound = kHost;
    unbound.mem_bind_local = nullptr;
    g_binds = 0;
    ASSERT_EQ(SmModule(&unbound, nullptr, SmParams{}).open(&why), PLEXUS_SUCCESS) << why.text;
    EXPECT_EQ(g_binds, 0);
    bool said = false;
    for (const auto &line : g_log) said |= line.find("no mem_bind_local") != std::string::npos;
    EXPECT_TRUE(said) << "the missing binding is logged";
}

// A core that cannot say whether the user set btl_sm_single_copy_threshold: the value is taken
// as the user's, not replaced by the oversubscribed one.
TEST_F(SmModuleTest, OversubscribedNodeKeepsTheThresholdWhenTheCoreCannotSayWhoSetIt) {
    g_oversubscribed = true;
    g_local_size = 1;
    g_rank = 0;
    plexus_host_api_t h = kHost;
    h.param_is_set = nullptr;
    SmModule m(&h, nullptr, SmParams{});
    plexus_reason_t why{};
    ASSERT_EQ(m.open(&why), PLEXUS_SUCCESS) << why.text;
    ASSERT_TRUE(m.api()->caps & PLEXUS_BTL_CAP_GET) << "CMA is expected to work on the test machine";
    EXPECT_EQ(m.api()->rdma_threshold, SmParams{}.single_copy_threshold);
}

TEST_F(SmModuleTest, SingleCopyGetAndPutWithinTheRegion) {
    open_job(2);
    const plexus_btl_module_t *m = ranks[0].api();
    ASSERT_TRUE(m->caps & PLEXUS_BTL_CAP_GET) << "CMA is expected to work on the test machine";
    EXPECT_EQ(m->rdma_threshold, SmParams{}.single_copy_threshold);
    std::vector<char> region(1 << 20);
    for (size_t i = 0; i < region.size(); ++i) region[i] = static_cast<char>(i * 13);
    plexus_btl_mem_handle_t h{};
    ASSERT_EQ(ranks[1].module->register_mem(region.data(), region.size(), &h), PLEXUS_SUCCESS);
    std::vector<char> local(4096);
    int done = 0;
    auto on_done = [](void *ctx, int status) { *static_cast<int *>(ctx) += status == PLEXUS_SUCCESS ? 1 : 100; };
    const auto base = reinterpret_cast<uint64_t>(region.data());
    ASSERT_EQ(ranks[0].module->rdma(ranks[0].to(1), local.data(), local.size(), &h, base + 1000, on_done, &done,
                                    false),
              PLEXUS_SUCCESS);
    EXPECT_EQ(done, 1) << "done is called before get returns";
    EXPECT_EQ(0, std::memcmp(local.data(), region.data() + 1000, local.size()));
    std::memset(local.data(), 'P', local.size());
    ASSERT_EQ(ranks[0].module->rdma(ranks[0].to(1), local.data(), local.size(), &h,
                                    base + region.size() - local.size(), on_done, &done, true),
              PLEXUS_SUCCESS);
    EXPECT_EQ(region[region.size() - 1], 'P');
    EXPECT_EQ(region[region.size() - local.size() - 1], static_cast<char>((region.size() - local.size() - 1) * 13));
    // Past the end, before the start: refused, done not called.
    EXPECT_EQ(ranks[0].module->rdma(ranks[0].to(1), local.data(), local.size(), &h, base + region.size() - 10,
                                    on_done, &done, false),
              PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(ranks[0].module->rdma(ranks[0].to(1), local.data(), 16, &h, base - 8, on_done, &done, false),
              PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(done, 2);
    EXPECT_EQ(ranks[1].module->deregister_mem(&h), PLEXUS_SUCCESS);
}

TEST_F(SmModuleTest, SingleCopyNoneHasNoGetOrPut) {
    SmParams p;
    p.single_copy = kSingleCopyNone;
    open_job(2, p);
    const plexus_btl_module_t *m = ranks[0].api();
    EXPECT_FALSE(m->caps & (PLEXUS_BTL_CAP_GET | PLEXUS_BTL_CAP_PUT));
    EXPECT_EQ(m->rdma_threshold, 0u);
    char buf[8];
    plexus_btl_mem_handle_t h{};
    ranks[1].module->register_mem(buf, sizeof buf, &h);
    EXPECT_EQ(ranks[0].module->rdma(ranks[0].to(1), buf, 8, &h, reinterpret_cast<uint64_t>(buf), nullptr, nullptr,
                                    false),
              PLEXUS_ERR_NOT_SUPPORTED);
}

TEST_F(SmModuleTest, BadParametersAreRefusedAtOpen) {
    SmParams p;
    p.fastbox_size = 5000;
    g_rank = 0;
    g_local_size = 1;
    SmModule m(&kHost, nullptr, p);
    plexus_reason_t why{};
    EXPECT_EQ(m.open(&why), PLEXUS_ERR_BAD_PARAM);
    EXPECT_NE(std::string(why.text).find("btl_sm_fastbox_size"), std::string::npos) << why.text;
}

TEST_F(SmModuleTest, DeletedPeersMessagesWaitAndBoxesGoBack) {
    SmParams p;
    p.fastbox_threshold = 0;
    open_job(2, p);
    ASSERT_EQ(send(0, 1, "a"), PLEXUS_SUCCESS);
    settle();
    EXPECT_EQ(stats(1).incoming, 1u);
    plexus_btl_endpoint_t *ep = ranks[1].eps[0];
    ASSERT_EQ(ranks[1].module->del_procs(1, &ep), PLEXUS_SUCCESS);
    ASSERT_EQ(send(0, 1, "b"), PLEXUS_SUCCESS);  // still in its box: kept for its return, the box kept
    settle();
    EXPECT_EQ(ranks[1].inbox.got.size(), 1u);
    EXPECT_EQ(stats(1).incoming, 1u) << "freed while the peer may still write into it";
    EXPECT_EQ(ranks[1].module->send(ranks[1].to(0), kTag, "x", 1, nullptr, 0), PLEXUS_ERR_UNREACH);
    ep = ranks[0].eps[1];
    ASSERT_EQ(ranks[0].module->del_procs(1, &ep), PLEXUS_SUCCESS);  // the peer's side: DROP
    settle();
    EXPECT_EQ(stats(1).incoming, 0u);
    EXPECT_EQ(stats(0).active, 0u);
}

// Both sides deleted each other (a disconnect); rank 0 meets rank 1 again (a connect) and sends at
// once, before rank 1's add_procs: the message waits and comes, under the new id, once rank 1
// adds rank 0 again.
TEST_F(SmModuleTest, APeerMeetingUsAgainBeforeWeAddItIsDeliveredOnceAdded) {
    open_job(2);
    ASSERT_EQ(send(0, 1, "first meeting"), PLEXUS_SUCCESS);
    settle();
    ASSERT_EQ(ranks[1].inbox.got.size(), 1u);
    for (uint32_t r = 0; r < 2; ++r) {
        plexus_btl_endpoint_t *ep = ranks[r].eps[1 - r];
        ASSERT_EQ(ranks[r].module->del_procs(1, &ep), PLEXUS_SUCCESS);
    }
    settle();
    const plexus_btl_proc_t again[2] = {{200, 0, "testjob"}, {201, 1, "testjob"}};
    ASSERT_EQ(ranks[0].module->add_procs(2, again, ranks[0].eps.data()), PLEXUS_SUCCESS);
    ASSERT_EQ(send(0, 1, "second meeting"), PLEXUS_SUCCESS);
    settle();
    EXPECT_EQ(ranks[1].inbox.got.size(), 1u) << "delivered before add_procs named the sender again";
    ASSERT_EQ(ranks[1].module->add_procs(2, again, ranks[1].eps.data()), PLEXUS_SUCCESS);
    settle();
    ASSERT_EQ(ranks[1].inbox.got.size(), 2u) << "the message sent before add_procs was lost";
    EXPECT_EQ(ranks[1].inbox.got[1].bytes, "second meeting");
    EXPECT_EQ(ranks[1].inbox.got[1].src, 200u);
    ASSERT_EQ(send(1, 0, "reply"), PLEXUS_SUCCESS);
    settle();
    ASSERT_EQ(ranks[0].inbox.got.size(), 1u);
    EXPECT_EQ(ranks[0].inbox.got[0].src, 201u);
}

// A process of a later job (spawned) meets segments whose names are gone: it borrows the
// owners' descriptors (pidfd_getfd) and both sides talk as usual.
// Two jobs of two ranks each (a parent and its spawned job, or two connected jobs) that learn of
// each other after both opened: add_procs of the other namespace attaches its segments, and
// messages go both ways, first by the FIFO, then by fast boxes granted across the jobs.
TEST_F(SmModuleTest, TwoJobsOfTwoRanksReachEachOther) {
    open_job(2);
    g_nspace = "otherjob";
    for (uint32_t r = 0; r < 2; ++r) {
        g_rank = r;
        Rank rk;
        rk.module = std::make_unique<SmModule>(&kHost, nullptr, SmParams{});
        plexus_reason_t why{};
        ASSERT_EQ(rk.module->open(&why), PLEXUS_SUCCESS) << why.text;
        ranks.push_back(std::move(rk));
    }
    for (uint32_t r = 2; r < 4; ++r) ranks[r].module->register_recv(kTag, Inbox::on_message, &ranks[r].inbox);
    // Everyone names all four (ids 100 + index); the core's add_procs of another namespace.
    const plexus_btl_proc_t all[4] = {{100, 0, "testjob"}, {101, 1, "testjob"}, {102, 0, "otherjob"}, {103, 1, "otherjob"}};
    for (uint32_t r = 0; r < 4; ++r) {
        g_nspace = r < 2 ? "testjob" : "otherjob";
        ranks[r].eps.assign(4, nullptr);
        ASSERT_EQ(ranks[r].module->add_procs(4, all, ranks[r].eps.data()), PLEXUS_SUCCESS);
        for (uint32_t p = 0; p < 4; ++p) EXPECT_EQ(ranks[r].eps[p] == nullptr, r == p) << r << "->" << p;
    }
    const int kMessages = 40;  // past the fast-box threshold (8)
    for (int i = 0; i < kMessages; ++i) {
        ASSERT_EQ(send(0, 3, "a0-b1 " + std::to_string(i)), PLEXUS_SUCCESS);
        ASSERT_EQ(send(2, 1, "b0-a1 " + std::to_string(i)), PLEXUS_SUCCESS);
        settle();
    }
    ASSERT_EQ(ranks[3].inbox.got.size(), size_t{kMessages});
    ASSERT_EQ(ranks[1].inbox.got.size(), size_t{kMessages});
    for (int i = 0; i < kMessages; ++i) {
        EXPECT_EQ(ranks[3].inbox.got[i].bytes, "a0-b1 " + std::to_string(i));
        EXPECT_EQ(ranks[3].inbox.got[i].src, 100u);
        EXPECT_EQ(ranks[1].inbox.got[i].bytes, "b0-a1 " + std::to_string(i));
        EXPECT_EQ(ranks[1].inbox.got[i].src, 102u);
    }
    EXPECT_GT(stats(0).fast_sends, 0u) << "no fast box across the jobs";
    EXPECT_GT(stats(2).fast_sends, 0u) << "no fast box across the jobs";
}

namespace {

bool write_all(int fd, const void *data, size_t len) {
    const auto *p = static_cast<const uint8_t *>(data);
    while (len) {
        ssize_t n = ::write(fd, p, len);
        if (n <= 0) return false;
        p += n;
        len -= static_cast<size_t>(n);
    }
    return true;
}

bool read_all(int fd, void *data, size_t len) {
    auto *p = static_cast<uint8_t *>(data);
    while (len) {
        ssize_t n = ::read(fd, p, len);
        if (n <= 0) return false;
        p += n;
        len -= static_cast<size_t>(n);
    }
    return true;
}

// A spawned job of one process (forked): opens sm, hands its card to the parent through a pipe,
// attaches rank 0 of testjob, sends "up", waits for "down", deletes the parent and ends.
[[noreturn]] void child_job(const std::string &nspace, int card_out) {
    g_nspace = nspace;
    g_rank = 0;
    g_local_size = 1;
    SmModule m(&kHost, nullptr, SmParams{});
    plexus_reason_t why{};
    if (m.open(&why) != PLEXUS_SUCCESS) ::_exit(10);
    const auto &card = g_cards[{nspace, 0}];
    const uint32_t len = static_cast<uint32_t>(card.size());
    if (!write_all(card_out, &len, sizeof len) || !write_all(card_out, card.data(), len)) ::_exit(11);
    Inbox inbox;
    m.register_recv(kTag, Inbox::on_message, &inbox);
    const plexus_btl_proc_t parent{7, 0, "testjob"};
    plexus_btl_endpoint_t *ep = nullptr;
    if (m.add_procs(1, &parent, &ep) != PLEXUS_SUCCESS || !ep) ::_exit(12);
    if (m.send(reinterpret_cast<Endpoint *>(ep), kTag, "up", 2, nullptr, 0) != PLEXUS_SUCCESS) ::_exit(13);
    for (int i = 0; i < 20000 && inbox.got.empty(); ++i) {
        m.progress();
        ::usleep(100);
    }
    if (inbox.got.size() != 1 || inbox.got[0].bytes != "down") ::_exit(14);
    m.del_procs(1, &ep);
    ::_exit(0);  // as a process ends: nothing of the parent's (copied by fork) is torn down
}

}  // namespace

// Spawned job after spawned job, each a process of its own that attaches to rank 0, talks both
// ways, ends and is deleted: more of them than rank 0's directory has spare slots (64) reach
// it, since the slot of each ended child is free again, and rank 0 keeps no ended child's
// segment mapped.
TEST_F(SmModuleTest, EndedJobsGiveTheirSlotAndMappingBack) {
    open_job(2);
    settle();
    const int kChildren = 80;
    for (int i = 0; i < kChildren; ++i) {
        const std::string nspace = "child" + std::to_string(i);
        int pipe_fds[2];
        ASSERT_EQ(::pipe(pipe_fds), 0);
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            ::close(pipe_fds[0]);
            child_job(nspace, pipe_fds[1]);
        }
        ::close(pipe_fds[1]);
        uint32_t len = 0;
        std::vector<uint8_t> card;
        bool got = read_all(pipe_fds[0], &len, sizeof len) && len < 4096;
        if (got) {
            card.resize(len);
            got = read_all(pipe_fds[0], card.data(), len);
        }
        ::close(pipe_fds[0]);
        if (!got) ::waitpid(pid, nullptr, 0);
        ASSERT_TRUE(got) << "child " << i << " sent no card";
        g_cards[{nspace, 0}] = card;
        const plexus_btl_proc_t child{static_cast<uint32_t>(300 + i), 0, nspace.c_str()};
        plexus_btl_endpoint_t *ep = nullptr;
        ASSERT_EQ(ranks[0].module->add_procs(1, &child, &ep), PLEXUS_SUCCESS);
        ASSERT_NE(ep, nullptr) << "child " << i << " is on this node but was not reached";
        ASSERT_EQ(ranks[0].module->send(reinterpret_cast<Endpoint *>(ep), kTag, "down", 4, nullptr, 0), PLEXUS_SUCCESS);
        for (int t = 0; t < 20000 && ranks[0].inbox.got.size() < size_t(i + 1); ++t) {
            ranks[0].module->progress();
            ::usleep(100);
        }
        int status = 0;
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child " << i << " status " << status;
        ASSERT_EQ(ranks[0].inbox.got.size(), size_t(i + 1));
        EXPECT_EQ(ranks[0].inbox.got[i].bytes, "up");
        EXPECT_EQ(ranks[0].inbox.got[i].src, static_cast<uint32_t>(300 + i));
        ASSERT_EQ(ranks[0].module->del_procs(1, &ep), PLEXUS_SUCCESS);
        for (int t = 0; t < 5000 && ranks[0].module->peers_released() < uint64_t(i + 1); ++t) {
            ranks[0].module->progress();
            ::usleep(1000);
        }
        ASSERT_EQ(ranks[0].module->peers_released(), uint64_t(i + 1)) << "child " << i << " was not given back";
    }
    EXPECT_EQ(ranks[0].module->mapped_peers(), 1u) << "only rank 1's segment should stay mapped";
    EXPECT_EQ(ranks[0].module->endpoints(), 1u) << "an ended child's endpoint object is kept";
}

TEST_F(SmModuleTest, LaterJobReachesUnlinkedSegments) {
    open_job(2);
    settle();
    Card card0{};
    std::string why;
    const auto &bytes = g_cards[{"testjob", 0}];
    ASSERT_TRUE(parse_card(bytes.data(), bytes.size(), &card0, &why)) << why;
    ASSERT_LT(shm_open(card0.segment.name, O_RDONLY, 0), 0) << "rank 0's segment should be unlinked by now";

    g_nspace = "childjob";  // one process alone in its job: its own segment is unlinked at open
    g_rank = 0;
    g_local_size = 1;
    Rank child;
    child.module = std::make_unique<SmModule>(&kHost, nullptr, SmParams{});
    plexus_reason_t reason{};
    ASSERT_EQ(child.module->open(&reason), PLEXUS_SUCCESS) << reason.text;
    const plexus_btl_proc_t procs[2] = {{200, 0, "childjob"}, {201, 0, "testjob"}};
    child.eps.assign(2, nullptr);
    ASSERT_EQ(child.module->add_procs(2, procs, child.eps.data()), PLEXUS_SUCCESS);
    EXPECT_EQ(child.eps[0], nullptr);
    ASSERT_NE(child.eps[1], nullptr) << "the unlinked segment of testjob rank 0 was not reached";
    const plexus_btl_proc_t parent_side{300, 0, "childjob"};
    plexus_btl_endpoint_t *to_child = nullptr;
    ASSERT_EQ(ranks[0].module->add_procs(1, &parent_side, &to_child), PLEXUS_SUCCESS);
    ASSERT_NE(to_child, nullptr);
    ranks.push_back(std::move(child));
    Rank &c = ranks.back();
    c.module->register_recv(kTag, Inbox::on_message, &c.inbox);
    ASSERT_EQ(c.module->send(c.to(1), kTag, "up", 2, nullptr, 0), PLEXUS_SUCCESS);
    ASSERT_EQ(ranks[0].module->send(reinterpret_cast<Endpoint *>(to_child), kTag, "down", 4, nullptr, 0),
              PLEXUS_SUCCESS);
    settle();
    ASSERT_EQ(ranks[0].inbox.got.size(), 1u);
    EXPECT_EQ(ranks[0].inbox.got[0].bytes, "up");
    EXPECT_EQ(ranks[0].inbox.got[0].src, 300u);
    ASSERT_EQ(c.inbox.got.size(), 1u);
    EXPECT_EQ(c.inbox.got[0].bytes, "down");
    EXPECT_EQ(c.inbox.got[0].src, 201u);
}

}  // namespace
