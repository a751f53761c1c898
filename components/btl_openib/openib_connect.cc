// btl_openib connections: RC queue pairs made on first use, moved INIT -> RTR -> RTS as the
// connect protocol (conn_state.h) says, over the core's reliable datagrams.
#include <sys/random.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "openib_module.h"
#include "work_id.h"

namespace plexus::btl_openib {
namespace {

uint32_t random_psn() {
    uint32_t v = 0;
    if (::getrandom(&v, sizeof v, 0) != sizeof v) v = static_cast<uint32_t>(now_ns());
    return v & 0xffffff;
}

}  // namespace

void OpenibModule::start_connect(Endpoint *ep) {
    if (ep->conn.state() != ConnState::Closed) return;
    ep->connect_deadline_ns = now_ns() + params_.connect_timeout * 1'000'000;
    run(ep, ep->conn.start());
}

void OpenibModule::run(Endpoint *ep, const std::vector<ConnAction> &actions) {
    std::string why;
    for (ConnAction a : actions) {
        switch (a) {
        case ConnAction::CreateQp:
            if (!ep->qp && !create_qp(ep, &why)) return fail_peer(ep, why);
            break;
        case ConnAction::ConnectQp:
            if (!connect_qp(ep, &why)) return fail_peer(ep, why);
            break;
        case ConnAction::SendRequest:
            send_connect(ep, kConnRequest);
            break;
        case ConnAction::SendAccept:
            send_connect(ep, kConnAccept);
            break;
        case ConnAction::SendReady:
            send_connect(ep, kConnReady);
            break;
        case ConnAction::Flush:
            host_->log(self_, PLEXUS_LOG_DETAIL, "connected to %s (QPN %u -> %u)", describe(ep).c_str(),
                       ep->local.qpn, ep->conn.remote().qpn);
            ep->connect_deadline_ns = 0;
            if (!ep->queue.empty()) list(ep);
            break;
        case ConnAction::Fail:
            break;  // fail_peer reported it
        }
    }
}

// The QP in INIT with every receive buffer posted, so that it receives from the moment it is in
// RTR; the peer's credits are those buffers.
bool OpenibModule::create_qp(Endpoint *ep, std::string *why) {
    const uint32_t recv_total = uint32_t(params_.recv_queue_depth + params_.ctl_credits);
    const int need = cq_needed_ + int(params_.send_queue_depth) + int(recv_total);
    if (need > cq_size_) {
        const int want = std::max(need, cq_size_ * 2);
        if (ibv_resize_cq(cq_.get(), want) != 0) {
            *why = "cannot grow the completion queue to " + std::to_string(want) + " entries: " + std::strerror(errno);
            return false;
        }
        cq_size_ = want;
    }
    ibv_qp_init_attr init{};
    init.send_cq = cq_.get();
    init.recv_cq = cq_.get();
    init.qp_type = IBV_QPT_RC;
    init.cap.max_send_wr = uint32_t(params_.send_queue_depth);
    init.cap.max_recv_wr = recv_total;
    init.cap.max_send_sge = 1;
    init.cap.max_recv_sge = 1;
    ep->qp.reset(ibv_create_qp(pd_.get(), &init));
    if (!ep->qp) {
        *why = std::string("ibv_create_qp: ") + std::strerror(errno);
        return false;
    }
    ibv_qp_attr a{};
    a.qp_state = IBV_QPS_INIT;
    a.pkey_index = 0;
    a.port_num = port_.port;
    a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
    if (ibv_modify_qp(ep->qp.get(), &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) != 0) {
        *why = std::string("ibv_modify_qp to INIT: ") + std::strerror(errno);
        return false;
    }
    ep->recv = std::make_unique<RegisteredSlab>();
    if (!ep->recv->allocate(pd_.get(), buf_bytes_ * recv_total, IBV_ACCESS_LOCAL_WRITE)) {
        *why = std::string("registering receive buffers: ") + std::strerror(errno);
        return false;
    }
    for (uint32_t i = 0; i < recv_total; ++i)
        if (!post_recv(ep, i)) {
            *why = std::string("ibv_post_recv: ") + std::strerror(errno);
            return false;
        }
    cq_needed_ = need;
    ep->local.qpn = ep->qp->qp_num;
    ep->local.psn = random_psn();
    ep->local.lid = port_.lid;
    std::memcpy(ep->local.gid, port_.gid, sizeof ep->local.gid);
    ep->credits = CreditWindow(uint16_t(params_.recv_queue_depth), uint16_t(params_.ctl_credits),
                               uint16_t(std::max<int64_t>(1, params_.recv_queue_depth / 2)));
    return true;
}

bool OpenibModule::post_recv(Endpoint *ep, uint32_t slot) {
    ibv_sge sge{};
    sge.addr = reinterpret_cast<uintptr_t>(ep->recv->base() + size_t(slot) * buf_bytes_);
    sge.length = static_cast<uint32_t>(buf_bytes_);
    sge.lkey = ep->recv->lkey();
    ibv_recv_wr wr{};
    wr.wr_id = wr_id(kWrRecv, ep->index, slot);
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv_recv_wr *bad = nullptr;
    return ibv_post_recv(ep->qp.get(), &wr, &bad) == 0;
}

// INIT -> RTR towards the peer's QP, then RTS. Global routing (GRH) on RoCE, where there are no
// LIDs; the path MTU is the smaller of the two ports'.
bool OpenibModule::connect_qp(Endpoint *ep, std::string *why) {
    const QpAddress &r = ep->conn.remote();
    ibv_qp_attr a{};
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = static_cast<ibv_mtu>(std::min<int>(port_.mtu_enum, ep->card.mtu_enum));
    a.dest_qp_num = r.qpn;
    a.rq_psn = r.psn;
    a.max_dest_rd_atomic = 4;
    a.min_rnr_timer = 12;
    a.ah_attr.dlid = r.lid;
    a.ah_attr.port_num = port_.port;
    if (port_.link == LinkLayer::Ethernet) {
        a.ah_attr.is_global = 1;
        std::memcpy(a.ah_attr.grh.dgid.raw, r.gid, sizeof r.gid);
        a.ah_attr.grh.sgid_index = 0;
        a.ah_attr.grh.hop_limit = 64;
    }
    if (ibv_modify_qp(ep->qp.get(), &a,
                      IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                          IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER) != 0) {
        *why = std::string("ibv_modify_qp to RTR: ") + std::strerror(errno);
        return false;
    }
    ibv_qp_attr s{};
    s.qp_state = IBV_QPS_RTS;
    s.timeout = static_cast<uint8_t>(params_.ib_timeout);
    s.retry_cnt = static_cast<uint8_t>(params_.ib_retry_count);
    s.rnr_retry = 7;  // receive buffers are reposted before credits return: RNR is a bug's symptom
    s.sq_psn = ep->local.psn;
    s.max_rd_atomic = 4;
    if (ibv_modify_qp(ep->qp.get(), &s,
                      IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
                          IBV_QP_MAX_QP_RD_ATOMIC) != 0) {
        *why = std::string("ibv_modify_qp to RTS: ") + std::strerror(errno);
        return false;
    }
    return true;
}

void OpenibModule::send_connect(Endpoint *ep, uint8_t type) {
    ConnectMsg m{};
    m.magic = kConnectMagic;
    m.type = type;
    m.rank = rank_;
    m.to_rank = ep->rank;
    m.qpn = ep->local.qpn;
    m.psn = ep->local.psn;
    m.lid = ep->local.lid;
    m.recv_data = uint32_t(params_.recv_queue_depth);
    m.recv_ctl = uint32_t(params_.ctl_credits);
    std::memcpy(m.gid, ep->local.gid, sizeof m.gid);
    std::snprintf(m.nspace, sizeof m.nspace, "%s", nspace_.c_str());
    const plexus_dgram_iov_t iov{&m, sizeof m};
    plexus_dgram_op_t **op = type == kConnRequest ? &ep->request_op : nullptr;
    if (op && *op) {
        dgram_->op_free(*op);
        *op = nullptr;
    }
    if (dgram_->reliable_send(reliable_, ep->card.dgram, ep->card.dgram_len, &iov, 1,
                              int(params_.connect_timeout), op) != PLEXUS_SUCCESS)
        fail_peer(ep, std::string("cannot send the connect request: ") + dgram_->reliable_last_error(reliable_));
}

void OpenibModule::on_connect_message(void *ctx, const void *data, size_t len, const plexus_dgram_peer_t *) {
    auto *self = static_cast<OpenibModule *>(ctx);
    ConnectMsg m{};
    std::string why;
    if (!parse_connect(data, len, &m, &why)) {
        self->host_->log(self->self_, PLEXUS_LOG_WARN, "dropped a connect message: %s", why.c_str());
        return;
    }
    self->on_connect(m);
}

// The peer's credits are the buffers it says it posted; ours were counted when our QP was made.
void OpenibModule::on_connect(const ConnectMsg &m) {
    if (m.to_rank != rank_) return;  // a stale address reused by another process
    std::string why;
    Endpoint *ep = add_one(m.nspace, m.rank, &why);
    if (!ep) {
        host_->log(self_, PLEXUS_LOG_WARN, "connect message from %s rank %u, which is not reachable: %s", m.nspace,
                   m.rank, why.c_str());
        return;
    }
    if (ep->connect_deadline_ns == 0 && ep->conn.state() == ConnState::Closed)
        ep->connect_deadline_ns = now_ns() + params_.connect_timeout * 1'000'000;
    std::vector<ConnAction> actions;
    switch (m.type) {
    case kConnRequest:
        actions = ep->conn.on_request(address_of(m));
        break;
    case kConnAccept:
        actions = ep->conn.on_accept(address_of(m));
        break;
    case kConnReady:
        actions = ep->conn.on_ready();
        break;
    }
    run(ep, actions);
    // The message that connects our QP says how many buffers the peer posted for us: our credits,
    // set before anything is sent on the QP (never by a late copy: that one connects nothing).
    if (ep->qp && ep->conn.state() != ConnState::Failed &&
        std::find(actions.begin(), actions.end(), ConnAction::ConnectQp) != actions.end())
        ep->credits = CreditWindow(uint16_t(std::min<uint32_t>(m.recv_data, 65535)),
                                   uint16_t(std::min<uint32_t>(m.recv_ctl, 255)),
                                   uint16_t(std::max<int64_t>(1, params_.recv_queue_depth / 2)));
}

// Connections that did not complete in time, and requests the datagram layer gave up on.
int OpenibModule::check_connects() {
    const int64_t now = now_ns();
    int events = 0;
    for (auto &e : endpoints_) {
        Endpoint *ep = e.get();
        if (ep->request_op) {
            const int st = dgram_->op_status(ep->request_op);
            if (st != PLEXUS_ERR_AGAIN) {
                const std::string err = st == PLEXUS_SUCCESS ? "" : dgram_->op_error(ep->request_op);
                dgram_->op_free(ep->request_op);
                ep->request_op = nullptr;
                ++events;
                if (st != PLEXUS_SUCCESS && !ep->conn.can_send()) {
                    fail_peer(ep, "connect request not answered: " + err);
                    continue;
                }
            }
        }
        if (ep->connect_deadline_ns && now > ep->connect_deadline_ns && !ep->conn.can_send() &&
            ep->conn.state() != ConnState::Failed) {
            fail_peer(ep, "no connection after btl_openib_connect_timeout (" + std::to_string(params_.connect_timeout) +
                              " ms; state " + conn_state_name(ep->conn.state()) + ")");
            ++events;
        }
    }
    return events;
}

}  // namespace plexus::btl_openib
