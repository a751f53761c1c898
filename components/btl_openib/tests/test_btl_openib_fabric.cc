// btl_openib's module end to end over a fake fabric, this machine having no HCA: the libibverbs
// entry points the module calls are defined in this program (they stand in for libibverbs's),
// with one device "fake0" whose queue pairs deliver at once inside the process: a SEND lands in
// the head of the peer QP's posted receives (none posted fails the test, as an RNR would), an
// RDMA write or read copies within a region found by its rkey (outside it: a remote access
// error; a write lands when the target next polls its CQ, after the module polled its rings, as
// an HCA may place it late), and ibv_modify_qp checks the attribute masks and source state of
// every transition.
// Two modules (ranks 0 and 1 of one job) meet through a fake host: cards in a map, the connect
// protocol over a fake reliable datagram layer, progress by calling what they registered.
#include <gtest/gtest.h>

#include <infiniband/verbs.h>

#include <cstdarg>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "components/btl_openib/openib_module.h"

#undef ibv_get_device_list
#undef ibv_query_port
#undef ibv_reg_mr

namespace {

// ---------------------------------------------------------------- the fake fabric
struct FakeQp {
    ibv_qp *qp;
    ibv_qp_state state = IBV_QPS_RESET;
    uint32_t dest = 0;
    std::deque<std::pair<uint64_t, ibv_sge>> recvs;
};

struct Fabric {
    std::map<uint32_t, FakeQp> qps;
    std::map<ibv_cq *, std::deque<ibv_wc>> cqs;
    std::map<uint32_t, ibv_mr *> mrs;  // by rkey
    uint32_t next_qpn = 0x100, next_key = 0x1000;
    uint64_t sends = 0, writes = 0, reads = 0;
    std::vector<std::string> errors;
    // RDMA writes not yet placed, each with the CQ of the QP it targets: an HCA places them
    // some time before a later completion at the target is seen, so they land when the target
    // polls its CQ (after the module polled its rings: what the drain on DROP is for).
    struct Write {
        ibv_cq *target;
        uint64_t addr;
        std::vector<uint8_t> bytes;
    };
    std::deque<Write> unplaced;
    ibv_device device{};
    ibv_device *list[2] = {&device, nullptr};
} g_fabric;

void complete(ibv_cq *cq, uint64_t wr_id, ibv_wc_opcode op, uint32_t len, ibv_wc_status st = IBV_WC_SUCCESS) {
    ibv_wc wc{};
    wc.wr_id = wr_id;
    wc.status = st;
    wc.opcode = op;
    wc.byte_len = len;
    g_fabric.cqs[cq].push_back(wc);
}

ibv_mr *region(uint32_t key, uint64_t addr, size_t len) {
    auto it = g_fabric.mrs.find(key);
    if (it == g_fabric.mrs.end()) return nullptr;
    ibv_mr *mr = it->second;
    const auto base = reinterpret_cast<uint64_t>(mr->addr);
    return addr >= base && addr + len <= base + mr->length ? mr : nullptr;
}

int fake_post_send(ibv_qp *qp, ibv_send_wr *wr, ibv_send_wr **bad) {
    FakeQp &me = g_fabric.qps.at(qp->qp_num);
    for (; wr; wr = wr->next) {
        if (me.state != IBV_QPS_RTS) {
            g_fabric.errors.push_back("post_send on a QP not in RTS");
            *bad = wr;
            return EINVAL;
        }
        FakeQp &peer = g_fabric.qps.at(me.dest);
        const ibv_sge &s = wr->sg_list[0];
        if (!region(s.lkey, s.addr, s.length)) g_fabric.errors.push_back("local buffer outside its lkey's region");
        if (peer.state != IBV_QPS_RTR && peer.state != IBV_QPS_RTS) g_fabric.errors.push_back("peer QP cannot receive");
        ibv_wc_status st = IBV_WC_SUCCESS;
        ibv_wc_opcode op = IBV_WC_SEND;
        switch (wr->opcode) {
        case IBV_WR_SEND: {
            ++g_fabric.sends;
            if (peer.recvs.empty()) {
                g_fabric.errors.push_back("SEND with no receive posted (RNR)");
                st = IBV_WC_RNR_RETRY_EXC_ERR;
                break;
            }
            auto [id, r] = peer.recvs.front();
            peer.recvs.pop_front();
            if (s.length > r.length) g_fabric.errors.push_back("SEND longer than the receive buffer");
            std::memcpy(reinterpret_cast<void *>(r.addr), reinterpret_cast<void *>(s.addr), s.length);
            complete(peer.qp->recv_cq, id, IBV_WC_RECV, s.length);
            break;
        }
        case IBV_WR_RDMA_WRITE:
        case IBV_WR_RDMA_READ: {
            const bool write = wr->opcode == IBV_WR_RDMA_WRITE;
            op = write ? IBV_WC_RDMA_WRITE : IBV_WC_RDMA_READ;
            ++(write ? g_fabric.writes : g_fabric.reads);
            if (!region(wr->wr.rdma.rkey, wr->wr.rdma.remote_addr, s.length)) {
                st = IBV_WC_REM_ACCESS_ERR;
                break;
            }
            const auto *local = reinterpret_cast<const uint8_t *>(s.addr);
            if (write) {  // the source may be reused at its completion: the bytes are taken now
                g_fabric.unplaced.push_back({peer.qp->recv_cq, wr->wr.rdma.remote_addr,
                                             std::vector<uint8_t>(local, local + s.length)});
                break;
            }
            std::memcpy(reinterpret_cast<void *>(s.addr), reinterpret_cast<void *>(wr->wr.rdma.remote_addr),
                        s.length);
            break;
        }
        default:
            g_fabric.errors.push_back("unexpected opcode");
        }
        if (wr->send_flags & IBV_SEND_SIGNALED || st != IBV_WC_SUCCESS) complete(qp->send_cq, wr->wr_id, op, s.length, st);
    }
    return 0;
}

int fake_post_recv(ibv_qp *qp, ibv_recv_wr *wr, ibv_recv_wr **) {
    for (; wr; wr = wr->next) g_fabric.qps.at(qp->qp_num).recvs.emplace_back(wr->wr_id, wr->sg_list[0]);
    return 0;
}

int fake_poll_cq(ibv_cq *cq, int n, ibv_wc *wc) {
    for (auto it = g_fabric.unplaced.begin(); it != g_fabric.unplaced.end();) {
        if (it->target != cq) {
            ++it;
            continue;
        }
        std::memcpy(reinterpret_cast<void *>(it->addr), it->bytes.data(), it->bytes.size());
        it = g_fabric.unplaced.erase(it);
    }
    auto &q = g_fabric.cqs[cq];
    int i = 0;
    for (; i < n && !q.empty(); ++i) {
        wc[i] = q.front();
        q.pop_front();
    }
    return i;
}

void reset_fabric() {
    for (auto &[n, q] : g_fabric.qps) delete q.qp;
    g_fabric.qps.clear();
    g_fabric.cqs.clear();
    g_fabric.mrs.clear();
    g_fabric.sends = g_fabric.writes = g_fabric.reads = 0;
    g_fabric.errors.clear();
    g_fabric.unplaced.clear();
    std::snprintf(g_fabric.device.name, sizeof g_fabric.device.name, "fake0");
}

}  // namespace

// ---------------------------------------------------------------- libibverbs, as this program has it
extern "C" {
ibv_device **ibv_get_device_list(int *n) {
    *n = 1;
    return g_fabric.list;
}
void ibv_free_device_list(ibv_device **) {}
const char *ibv_get_device_name(ibv_device *d) { return d->name; }
ibv_context *ibv_open_device(ibv_device *d) {
    auto *c = new ibv_context{};
    c->device = d;
    c->ops.post_send = fake_post_send;
    c->ops.post_recv = fake_post_recv;
    c->ops.poll_cq = fake_poll_cq;
    return c;
}
int ibv_close_device(ibv_context *c) {
    delete c;
    return 0;
}
int ibv_query_device(ibv_context *, ibv_device_attr *a) {
    *a = ibv_device_attr{};
    a->max_cqe = 65536;
    a->max_qp_wr = 16384;
    a->phys_port_cnt = 1;
    return 0;
}
int ibv_query_port(ibv_context *, uint8_t port, _compat_ibv_port_attr *out) {
    auto *a = reinterpret_cast<ibv_port_attr *>(out);
    if (port != 1) return EINVAL;
    a->state = IBV_PORT_ACTIVE;
    a->lid = 7;
    a->active_mtu = IBV_MTU_4096;
    a->link_layer = IBV_LINK_LAYER_INFINIBAND;
    a->max_msg_sz = 1u << 30;
    return 0;
}
int ibv_query_gid(ibv_context *, uint8_t, int, ibv_gid *gid) {
    *gid = ibv_gid{};
    gid->raw[0] = 0xfe;
    gid->raw[1] = 0x80;
    gid->raw[15] = 7;
    return 0;
}
ibv_pd *ibv_alloc_pd(ibv_context *c) {
    auto *pd = new ibv_pd{};
    pd->context = c;
    return pd;
}
int ibv_dealloc_pd(ibv_pd *pd) {
    delete pd;
    return 0;
}
ibv_cq *ibv_create_cq(ibv_context *c, int cqe, void *, ibv_comp_channel *, int) {
    auto *cq = new ibv_cq{};
    cq->context = c;
    cq->cqe = cqe;
    g_fabric.cqs[cq];
    return cq;
}
int ibv_resize_cq(ibv_cq *cq, int cqe) {
    cq->cqe = cqe;
    return 0;
}
int ibv_destroy_cq(ibv_cq *cq) {
    g_fabric.cqs.erase(cq);
    delete cq;
    return 0;
}
ibv_qp *ibv_create_qp(ibv_pd *pd, ibv_qp_init_attr *init) {
    if (init->qp_type != IBV_QPT_RC) return nullptr;
    auto *qp = new ibv_qp{};
    qp->context = pd->context;
    qp->pd = pd;
    qp->send_cq = init->send_cq;
    qp->recv_cq = init->recv_cq;
    qp->qp_num = g_fabric.next_qpn++;
    qp->qp_type = IBV_QPT_RC;
    FakeQp q;
    q.qp = qp;
    g_fabric.qps[qp->qp_num] = q;
    return qp;
}
// The masks ibv_modify_qp(3) requires for an RC QP's INIT, RTR and RTS.
int ibv_modify_qp(ibv_qp *qp, ibv_qp_attr *a, int mask) {
    FakeQp &q = g_fabric.qps.at(qp->qp_num);
    const int init = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
    const int rtr = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                    IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
    const int rts = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
                    IBV_QP_MAX_QP_RD_ATOMIC;
    const std::map<ibv_qp_state, std::pair<ibv_qp_state, int>> rules{
        {IBV_QPS_INIT, {IBV_QPS_RESET, init}}, {IBV_QPS_RTR, {IBV_QPS_INIT, rtr}}, {IBV_QPS_RTS, {IBV_QPS_RTR, rts}}};
    auto r = rules.find(a->qp_state);
    if (r == rules.end() || q.state != r->second.first || (mask & r->second.second) != r->second.second) {
        g_fabric.errors.push_back("ibv_modify_qp to state " + std::to_string(a->qp_state) + " from " +
                                  std::to_string(q.state) + " with mask " + std::to_string(mask));
        return EINVAL;
    }
    if (a->qp_state == IBV_QPS_RTR) {
        q.dest = a->dest_qp_num;
        if (!g_fabric.qps.count(q.dest)) g_fabric.errors.push_back("RTR towards a QP that does not exist");
    }
    q.state = a->qp_state;
    return 0;
}
int ibv_destroy_qp(ibv_qp *qp) {
    g_fabric.qps.erase(qp->qp_num);
    delete qp;
    return 0;
}
ibv_mr *ibv_reg_mr(ibv_pd *pd, void *addr, size_t len, int) {
    auto *mr = new ibv_mr{};
    mr->context = pd->context;
    mr->pd = pd;
    mr->addr = addr;
    mr->length = len;
    mr->lkey = mr->rkey = g_fabric.next_key++;
    g_fabric.mrs[mr->rkey] = mr;
    return mr;
}
ibv_mr *ibv_reg_mr_iova2(ibv_pd *pd, void *addr, size_t len, uint64_t, unsigned int access) {
    return ibv_reg_mr(pd, addr, len, int(access));
}
int ibv_dereg_mr(ibv_mr *mr) {
    if (!g_fabric.mrs.erase(mr->rkey)) g_fabric.errors.push_back("deregistering an unknown MR");
    delete mr;
    return 0;
}
}  // extern "C"

// ---------------------------------------------------------------- the fake host
namespace {

using plexus::btl_openib::Endpoint;
using plexus::btl_openib::OpenibModule;
using plexus::btl_openib::OpenibParams;

uint32_t g_rank = 0;
std::map<uint32_t, std::vector<uint8_t>> g_cards;
std::vector<std::pair<plexus_progress_fn_t, void *>> g_progress;
std::vector<std::string> g_aborts;

struct FakeRel {
    uint32_t rank;
    plexus_dgram_message_fn_t handler;
    void *ctx;
};
std::map<uint32_t, FakeRel *> g_rels;
std::deque<std::pair<uint32_t, std::vector<uint8_t>>> g_datagrams;  // (to, message)
}  // namespace

// The opaque types of plexus/dgram.h, as this fake has them.
struct plexus_dgram_endpoint {
    uint32_t rank;
};
struct plexus_dgram_op {
    int status = PLEXUS_SUCCESS;
};

namespace {

int d_open(const plexus_dgram_open_args_t *, plexus_dgram_endpoint_t **out, plexus_reason_t *) {
    *out = new plexus_dgram_endpoint{g_rank};
    return PLEXUS_SUCCESS;
}
int d_close(plexus_dgram_endpoint_t *ep) {
    delete ep;
    return PLEXUS_SUCCESS;
}
int d_address(plexus_dgram_endpoint_t *ep, void *buf, size_t *len) {
    std::memcpy(buf, &ep->rank, sizeof ep->rank);
    *len = sizeof ep->rank;
    return PLEXUS_SUCCESS;
}
int d_rel_open(plexus_dgram_endpoint_t *ep, const plexus_dgram_reliable_args_t *a, plexus_dgram_reliable_t **out,
               plexus_reason_t *) {
    auto *r = new FakeRel{ep->rank, a->handler, a->ctx};
    g_rels[ep->rank] = r;
    *out = reinterpret_cast<plexus_dgram_reliable_t *>(r);
    return PLEXUS_SUCCESS;
}
int d_rel_close(plexus_dgram_reliable_t *rel) {
    auto *r = reinterpret_cast<FakeRel *>(rel);
    g_rels.erase(r->rank);
    delete r;
    return PLEXUS_SUCCESS;
}
int d_rel_send(plexus_dgram_reliable_t *, const void *addr, size_t, const plexus_dgram_iov_t *iov, size_t, int,
               plexus_dgram_op_t **op) {
    uint32_t to = 0;
    std::memcpy(&to, addr, sizeof to);
    const auto *b = static_cast<const uint8_t *>(iov[0].base);
    g_datagrams.emplace_back(to, std::vector<uint8_t>(b, b + iov[0].len));
    if (op) *op = new plexus_dgram_op;
    return PLEXUS_SUCCESS;
}
int d_rel_progress(void *rel) {
    auto *r = static_cast<FakeRel *>(rel);
    int n = 0;
    for (size_t i = 0; i < g_datagrams.size();) {
        if (g_datagrams[i].first != r->rank) {
            ++i;
            continue;
        }
        const std::vector<uint8_t> m = std::move(g_datagrams[i].second);
        g_datagrams.erase(g_datagrams.begin() + long(i));
        plexus_dgram_peer_t from{};
        r->handler(r->ctx, m.data(), m.size(), &from);
        ++n;
    }
    return n;
}
int d_op_status(const plexus_dgram_op_t *op) { return op->status; }
const char *d_op_error(const plexus_dgram_op_t *) { return ""; }
int d_op_free(plexus_dgram_op_t *op) {
    delete op;
    return PLEXUS_SUCCESS;
}
const char *d_rel_last_error(plexus_dgram_reliable_t *) { return ""; }
const char *d_last_error(plexus_dgram_endpoint_t *) { return ""; }

plexus_dgram_services_t make_dgram() {
    plexus_dgram_services_t d{};
    d.struct_size = sizeof d;
    d.major = PLEXUS_DGRAM_MAJOR;
    d.minor = PLEXUS_DGRAM_MINOR;
    d.open = d_open;
    d.close = d_close;
    d.address = d_address;
    d.last_error = d_last_error;
    d.reliable_open = d_rel_open;
    d.reliable_close = d_rel_close;
    d.reliable_send = d_rel_send;
    d.reliable_progress = d_rel_progress;
    d.reliable_last_error = d_rel_last_error;
    d.op_status = d_op_status;
    d.op_error = d_op_error;
    d.op_free = d_op_free;
    return d;
}
const plexus_dgram_services_t kDgram = make_dgram();

void h_log(const plexus_component_t *, int level, const char *fmt, ...) {
    if (!std::getenv("BTL_OPENIB_TEST_VERBOSE") && level > PLEXUS_LOG_WARN) return;
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "[openib %u] ", g_rank);
    std::vfprintf(stderr, fmt, ap);
    std::fputc('\n', stderr);
    va_end(ap);
}
int h_progress_register(plexus_progress_fn_t fn, void *ctx) {
    g_progress.emplace_back(fn, ctx);
    return PLEXUS_SUCCESS;
}
int h_progress_unregister(plexus_progress_fn_t fn, void *ctx) {
    for (auto it = g_progress.begin(); it != g_progress.end(); ++it)
        if (it->first == fn && it->second == ctx) {
            g_progress.erase(it);
            return PLEXUS_SUCCESS;
        }
    return PLEXUS_ERR_NOT_FOUND;
}
int h_job_info(plexus_job_info_t *out) {
    plexus_job_info_t j{};
    j.struct_size = out->struct_size;
    j.rank = g_rank;
    j.size = 2;
    std::snprintf(j.nspace, sizeof j.nspace, "job");
    *out = j;
    return PLEXUS_SUCCESS;
}
int h_modex_put(const plexus_component_t *, const void *data, size_t len) {
    const auto *b = static_cast<const uint8_t *>(data);
    g_cards[g_rank].assign(b, b + len);
    return PLEXUS_SUCCESS;
}
int h_modex_get(const plexus_component_t *, const char *, uint32_t rank, const void **data, size_t *len, int) {
    auto it = g_cards.find(rank);
    if (it == g_cards.end()) return PLEXUS_ERR_NOT_FOUND;
    *data = it->second.data();
    *len = it->second.size();
    return PLEXUS_SUCCESS;
}
void h_abort(int, const char *msg) { g_aborts.emplace_back(msg); }

plexus_host_api_t make_host() {
    plexus_host_api_t h{};
    h.struct_size = sizeof h;
    h.major = PLEXUS_HOST_API_MAJOR;
    h.minor = PLEXUS_HOST_API_MINOR;
    h.log = h_log;
    h.progress_register = h_progress_register;
    h.progress_unregister = h_progress_unregister;
    h.job_info = h_job_info;
    h.modex_put = h_modex_put;
    h.modex_get = h_modex_get;
    h.abort = h_abort;
    h.dgram = &kDgram;
    return h;
}
const plexus_host_api_t kHost = make_host();
plexus_component_t g_self{};

// What a module received: (from, tag, bytes).
struct Inbox {
    std::vector<std::string> msgs;
    static void on(void *ctx, const plexus_btl_recv_desc_t *m) {
        static_cast<Inbox *>(ctx)->msgs.emplace_back(static_cast<const char *>(m->data), m->len);
    }
};

class Pair : public ::testing::Test {
protected:
    void open(const OpenibParams &p0, const OpenibParams &p1) {
        reset_fabric();
        g_cards.clear();
        g_progress.clear();
        g_aborts.clear();
        g_datagrams.clear();
        g_self.name = "openib";
        const OpenibParams *p[2] = {&p0, &p1};
        for (uint32_t r = 0; r < 2; ++r) {
            g_rank = r;
            m[r] = std::make_unique<OpenibModule>(&kHost, &g_self, *p[r]);
            plexus_reason_t why{};
            ASSERT_EQ(m[r]->open(&why), PLEXUS_SUCCESS) << why.text;
        }
        for (uint32_t r = 0; r < 2; ++r) {
            g_rank = r;
            const plexus_btl_proc_t proc{1 - r, 1 - r, "job"};
            plexus_btl_endpoint_t *e = nullptr;
            ASSERT_EQ(m[r]->add_procs(1, &proc, &e), PLEXUS_SUCCESS);
            ASSERT_NE(e, nullptr);
            ep[r] = reinterpret_cast<Endpoint *>(e);
            m[r]->register_recv(1, Inbox::on, &inbox[r]);
        }
    }
    void TearDown() override {
        m[0].reset();
        m[1].reset();
        EXPECT_TRUE(g_fabric.errors.empty()) << g_fabric.errors.front();
        EXPECT_TRUE(g_aborts.empty()) << g_aborts.front();
    }
    // Runs every registered progress callback until nothing happens (or rounds run out).
    void pump(int rounds = 1000) {
        for (int i = 0; i < rounds; ++i) {
            int events = 0;
            for (size_t k = 0; k < g_progress.size(); ++k) events += g_progress[k].first(g_progress[k].second);
            if (events == 0 && g_datagrams.empty() && g_fabric.unplaced.empty()) return;
        }
    }
    int send(int from, const std::string &s) { return m[from]->send(ep[from], 1, s.data(), s.size(), nullptr, 0); }
    std::unique_ptr<OpenibModule> m[2];
    Endpoint *ep[2] = {nullptr, nullptr};
    Inbox inbox[2];
};

std::string message(int i, size_t len) {
    std::string s = "#" + std::to_string(i) + ":";
    while (s.size() < len) s += char('a' + (s.size() + size_t(i)) % 26);
    return s.substr(0, std::max(len, s.size()));
}

TEST_F(Pair, AFirstSendConnectsAndEveryMessageArrivesByteForByte) {
    open(OpenibParams{}, OpenibParams{});
    ASSERT_EQ(send(0, "hello"), PLEXUS_SUCCESS);
    EXPECT_EQ(m[0]->pending(), 1u) << "queued until the QP is connected";
    pump();
    ASSERT_EQ(inbox[1].msgs, std::vector<std::string>{"hello"});
    EXPECT_EQ(m[0]->pending(), 0u);
    ASSERT_EQ(send(1, "back"), PLEXUS_SUCCESS);
    pump();
    EXPECT_EQ(inbox[0].msgs, std::vector<std::string>{"back"});
    EXPECT_EQ(g_fabric.qps.size(), 2u) << "one QP per side";
}

// Both sides deleted each other (a disconnect); side 0 meets side 1 again (a connect) and sends at
// once, before side 1's add_procs: the message waits for it and comes under the new id.
TEST_F(Pair, APeerMeetingUsAgainBeforeWeAddItIsDeliveredOnceAdded) {
    open(OpenibParams{}, OpenibParams{});
    ASSERT_EQ(send(0, "first meeting"), PLEXUS_SUCCESS);
    pump();
    ASSERT_EQ(inbox[1].msgs.size(), 1u);
    for (int r = 0; r < 2; ++r) {
        plexus_btl_endpoint_t *e = reinterpret_cast<plexus_btl_endpoint_t *>(ep[r]);
        ASSERT_EQ(m[r]->del_procs(1, &e), PLEXUS_SUCCESS);
    }
    pump();
    auto add_again = [&](uint32_t r) {
        const plexus_btl_proc_t proc{10 + (1 - r), 1 - r, "job"};
        plexus_btl_endpoint_t *e = nullptr;
        ASSERT_EQ(m[r]->add_procs(1, &proc, &e), PLEXUS_SUCCESS);
        ep[r] = reinterpret_cast<Endpoint *>(e);
    };
    add_again(0);
    ASSERT_EQ(send(0, "second meeting"), PLEXUS_SUCCESS);
    pump();
    EXPECT_EQ(inbox[1].msgs.size(), 1u) << "delivered before add_procs named the sender again";
    EXPECT_FALSE(m[1]->holds_proc(0)) << "kept, but never handed up under the old id";
    add_again(1);
    pump();
    ASSERT_EQ(inbox[1].msgs.size(), 2u) << "the message sent before add_procs was lost";
    EXPECT_EQ(inbox[1].msgs[1], "second meeting");
}

TEST_F(Pair, BothSidesSendingFirstEndWithOneQpEach) {
    open(OpenibParams{}, OpenibParams{});
    ASSERT_EQ(send(0, "from 0"), PLEXUS_SUCCESS);
    ASSERT_EQ(send(1, "from 1"), PLEXUS_SUCCESS);
    pump();
    EXPECT_EQ(inbox[1].msgs, std::vector<std::string>{"from 0"});
    EXPECT_EQ(inbox[0].msgs, std::vector<std::string>{"from 1"});
    EXPECT_EQ(g_fabric.qps.size(), 2u);
}

TEST_F(Pair, CreditsHoldASenderToTheBuffersPostedAndComeBackByCreditMessages) {
    OpenibParams p;
    p.recv_queue_depth = 4;
    p.ctl_credits = 1;
    p.eager_rdma_threshold = 0;  // the send path only
    open(p, p);
    std::vector<std::string> sent;
    for (int i = 0; i < 300; ++i) {
        sent.push_back(message(i, size_t(i * 37) % 3000));
        ASSERT_EQ(send(0, sent.back()), PLEXUS_SUCCESS);
        if (i % 7 == 0) pump(3);
    }
    pump();
    EXPECT_EQ(inbox[1].msgs, sent) << "in order, byte for byte";
    EXPECT_EQ(m[0]->pending(), 0u);
    EXPECT_EQ(g_fabric.writes, 0u);
}

TEST_F(Pair, ABusyPeerGetsAnEagerRdmaChannelAndMessagesGoByRdmaWrite) {
    OpenibParams p;
    p.eager_rdma_threshold = 4;
    p.eager_rdma_slots = 4;
    open(p, p);
    std::vector<std::string> sent;
    for (int i = 0; i < 100; ++i) {
        sent.push_back(message(i, size_t(i * 131) % 8000));
        ASSERT_EQ(send(0, sent.back()), PLEXUS_SUCCESS);
        pump(2);
    }
    pump();
    EXPECT_EQ(m[0]->fast_channel_state(ep[0]), PLEXUS_BTL_FAST_ACTIVE);
    plexus_btl_fast_stats_t s0{}, s1{};
    m[0]->fast_channel_stats(&s0);
    m[1]->fast_channel_stats(&s1);
    EXPECT_GT(s0.fast_sends, 80u);
    EXPECT_EQ(s0.active, 1u);
    EXPECT_EQ(s1.incoming, 1u);
    EXPECT_EQ(s1.capacity, 8u);
    EXPECT_GT(g_fabric.writes, 80u);
    // The ring may overtake the send path (the PML orders by its sequence numbers): compare sets.
    std::vector<std::string> got = inbox[1].msgs;
    std::sort(got.begin(), got.end());
    std::sort(sent.begin(), sent.end());
    EXPECT_EQ(got, sent);
}

TEST_F(Pair, ReconfDropsAChannelWhichThePeerDrainsAndGrantsAgainUpToItsCap) {
    OpenibParams p;
    p.eager_rdma_threshold = 0;
    OpenibParams capped = p;
    capped.eager_rdma_num = 0;
    open(p, p);
    ASSERT_EQ(m[0]->fast_channel(ep[0], PLEXUS_BTL_FAST_CREATE), PLEXUS_SUCCESS);
    EXPECT_EQ(m[0]->fast_channel_state(ep[0]), PLEXUS_BTL_FAST_PENDING);
    pump();
    ASSERT_EQ(m[0]->fast_channel_state(ep[0]), PLEXUS_BTL_FAST_ACTIVE);
    for (int i = 0; i < 5; ++i) ASSERT_EQ(send(0, "ring " + std::to_string(i)), PLEXUS_SUCCESS);
    // Dropped before the peer polled: the DROP arrives after the writes, which are delivered first.
    ASSERT_EQ(m[0]->fast_channel(ep[0], PLEXUS_BTL_FAST_DROP), PLEXUS_SUCCESS);
    EXPECT_EQ(m[0]->fast_channel_state(ep[0]), PLEXUS_BTL_FAST_NONE);
    pump();
    EXPECT_EQ(inbox[1].msgs.size(), 5u);
    plexus_btl_fast_stats_t s1{};
    m[1]->fast_channel_stats(&s1);
    EXPECT_EQ(s1.incoming, 0u) << "taken back";
    ASSERT_EQ(m[0]->fast_channel(ep[0], PLEXUS_BTL_FAST_CREATE), PLEXUS_SUCCESS);
    pump();
    EXPECT_EQ(m[0]->fast_channel_state(ep[0]), PLEXUS_BTL_FAST_ACTIVE) << "granted again";
    EXPECT_EQ(m[0]->fast_channel(ep[0], PLEXUS_BTL_FAST_QUIESCE), PLEXUS_SUCCESS);
    EXPECT_EQ(m[0]->fast_channel_state(ep[0]), PLEXUS_BTL_FAST_QUIESCED);
    const uint64_t writes = g_fabric.writes;
    ASSERT_EQ(send(0, "quiesced"), PLEXUS_SUCCESS);
    pump();
    EXPECT_EQ(g_fabric.writes, writes) << "a quiesced channel is not written";
    EXPECT_EQ(inbox[1].msgs.back(), "quiesced");
    // A peer with no room refuses: NONE again.
    m[0].reset();
    m[1].reset();
    open(p, capped);
    ASSERT_EQ(m[0]->fast_channel(ep[0], PLEXUS_BTL_FAST_CREATE), PLEXUS_SUCCESS);
    pump();
    EXPECT_EQ(m[0]->fast_channel_state(ep[0]), PLEXUS_BTL_FAST_NONE);
}

void done_cb(void *ctx, int status) { *static_cast<int *>(ctx) = status == PLEXUS_SUCCESS ? 1 : status; }

TEST_F(Pair, PutAndGetMoveBytesIntoAndOutOfTheRegionThePeerExposed) {
    open(OpenibParams{}, OpenibParams{});
    std::vector<uint8_t> window(64 * 1024, 0), src(10000), back(10000, 0);
    for (size_t i = 0; i < src.size(); ++i) src[i] = uint8_t(i * 7 + 1);
    plexus_btl_mem_handle_t h{};
    ASSERT_EQ(m[1]->register_mem(window.data(), window.size(), &h), PLEXUS_SUCCESS);
    const uint64_t base = reinterpret_cast<uintptr_t>(window.data());
    int done = 0;
    int rc = m[0]->rdma(ep[0], src.data(), src.size(), &h, base + 100, done_cb, &done, true);
    EXPECT_EQ(rc, PLEXUS_ERR_AGAIN) << "not connected yet: it connects";
    pump();
    ASSERT_EQ(m[0]->rdma(ep[0], src.data(), src.size(), &h, base + 100, done_cb, &done, true), PLEXUS_SUCCESS);
    pump();
    EXPECT_EQ(done, 1);
    EXPECT_EQ(std::memcmp(window.data() + 100, src.data(), src.size()), 0);
    EXPECT_EQ(window[99], 0);
    EXPECT_EQ(window[100 + src.size()], 0);
    done = 0;
    ASSERT_EQ(m[0]->rdma(ep[0], back.data(), back.size(), &h, base + 100, done_cb, &done, false), PLEXUS_SUCCESS);
    pump();
    EXPECT_EQ(done, 1);
    EXPECT_EQ(back, src);
    EXPECT_EQ(m[0]->rdma(ep[0], src.data(), 16, &h, base + window.size() - 8, done_cb, &done, true),
              PLEXUS_ERR_BAD_PARAM)
        << "past the end of what the peer exposed";
    EXPECT_EQ(m[0]->rdma(ep[0], src.data(), 16, &h, base - 8, done_cb, &done, true), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(m[1]->deregister_mem(&h), PLEXUS_SUCCESS);
    EXPECT_EQ(m[1]->deregister_mem(&h), PLEXUS_ERR_NOT_FOUND);
}

}  // namespace
