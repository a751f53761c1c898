// The InfiniBand UD transport: device and port choice, the UD queue pair, registered send and
// receive slots, address handles per peer, and completion polling.
#include "runtime/dgram/ib_ud_transport.h"

#include "plexus_config.h"

#ifdef PLEXUS_HAVE_VERBS

#include "runtime/dgram/ib_multicast.h"

#include <fcntl.h>
#include <infiniband/verbs.h>

#include <arpa/inet.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <poll.h>
#include <vector>

namespace plexus::runtime::dgram {
namespace {

constexpr uint32_t kQkey = 0x504C5855;  // "PLXU": every endpoint's, so any two can talk
constexpr int kRecvSlots = 256;
constexpr int kSendSlots = 64;
constexpr size_t kGrh = 40;             // a UD receive starts with room for the GRH
constexpr size_t kAddressBytes = 24;    // kind, version, LID, QPN, GID
constexpr uint32_t kGroupQpn = 0xffffff;  // IBA: the QPN of every multicast destination
// The subnet administrator answers a join within milliseconds; a fabric without a subnet manager
// never does, and the caller must hear so rather than wait.
constexpr int kJoinTimeoutMs = 5000;

template <typename T, int (*Free)(T *)>
struct VerbsDeleter {
    void operator()(T *p) const {
        if (p) Free(p);
    }
};
using DevListPtr = std::unique_ptr<ibv_device *, void (*)(ibv_device **)>;
using ContextPtr = std::unique_ptr<ibv_context, VerbsDeleter<ibv_context, ibv_close_device>>;
using PdPtr = std::unique_ptr<ibv_pd, VerbsDeleter<ibv_pd, ibv_dealloc_pd>>;
using ChannelPtr = std::unique_ptr<ibv_comp_channel, VerbsDeleter<ibv_comp_channel, ibv_destroy_comp_channel>>;
using CqPtr = std::unique_ptr<ibv_cq, VerbsDeleter<ibv_cq, ibv_destroy_cq>>;
using QpPtr = std::unique_ptr<ibv_qp, VerbsDeleter<ibv_qp, ibv_destroy_qp>>;
using MrPtr = std::unique_ptr<ibv_mr, VerbsDeleter<ibv_mr, ibv_dereg_mr>>;
using AhPtr = std::unique_ptr<ibv_ah, VerbsDeleter<ibv_ah, ibv_destroy_ah>>;

size_t mtu_bytes(ibv_mtu m) {
    switch (m) {
    case IBV_MTU_256: return 256;
    case IBV_MTU_512: return 512;
    case IBV_MTU_1024: return 1024;
    case IBV_MTU_2048: return 2048;
    case IBV_MTU_4096: return 4096;
    }
    return 256;
}

Status verbs_error(const std::string &what) {
    return Status::error(PLEXUS_ERR_NOT_AVAILABLE, what + ": " + std::strerror(errno));
}

class IbUdTransport final : public Transport {
public:
    static Status open(const Settings &settings, ibv_device *dev, uint8_t port, std::unique_ptr<Transport> *out);

    Address local_address() const override { return encode(lid_, qp_->qp_num, gid_); }
    size_t max_datagram() const override { return max_datagram_; }
    size_t link_mtu() const override { return link_mtu_; }
    Status send(const Address &to, const struct iovec *iov, size_t n) override;
    Status receive(uint8_t *buf, size_t cap, RawDatagram *out, uint64_t *kernel_drops) override;
    Address group_address(const uint8_t hash[32]) const override;
    Status join(const Address &group) override;
    Status leave(const Address &group) override {
        return groups_.erase(group) ? Status::ok() : Status::error(PLEXUS_ERR_NOT_FOUND, "group not joined");
    }
    int wait_fd() const override { return channel_->fd; }

private:
    IbUdTransport() = default;
    static Address encode(uint16_t lid, uint32_t qpn, const ibv_gid &gid);
    Status to_rts();
    Status post_recv(int slot);
    Status reclaim_sends(bool wait);
    ibv_ah *address_handle(const Address &to, uint32_t *qpn);
    Status post(ibv_ah *ah, uint32_t qpn, const struct iovec *iov, size_t n);
    void rearm();

    ContextPtr ctx_;
    PdPtr pd_;
    ChannelPtr channel_;
    CqPtr send_cq_, recv_cq_;
    QpPtr qp_;
    std::vector<uint8_t> recv_buf_, send_buf_;
    MrPtr recv_mr_, send_mr_;
    uint8_t port_ = 1;
    uint16_t lid_ = 0;
    ibv_gid gid_{};
    size_t max_datagram_ = 0, link_mtu_ = 0, slot_ = 0;
    int sends_out_ = 0, next_send_ = 0;
    std::map<Address, AhPtr> handles_;
    bool ethernet_ = false;  // RoCE: multicast goes by IP groups, not by MGID
    std::map<Address, std::unique_ptr<IbMulticastGroup>> groups_;
};

Address IbUdTransport::encode(uint16_t lid, uint32_t qpn, const ibv_gid &gid) {
    Address a(kAddressBytes);
    a[0] = kAddressIbUd;
    a[1] = 1;
    const uint16_t l = htons(lid);
    const uint32_t q = htonl(qpn);
    std::memcpy(&a[2], &l, 2);
    std::memcpy(&a[4], &q, 4);
    std::memcpy(&a[8], gid.raw, 16);
    return a;
}

Status IbUdTransport::open(const Settings &settings, ibv_device *dev, uint8_t port, std::unique_ptr<Transport> *out) {
    std::unique_ptr<IbUdTransport> t(new IbUdTransport);
    const std::string name = ibv_get_device_name(dev);
    t->ctx_.reset(ibv_open_device(dev));
    if (!t->ctx_) return verbs_error("ibv_open_device " + name);
    ibv_port_attr pa{};
    if (ibv_query_port(t->ctx_.get(), port, &pa) != 0) return verbs_error("ibv_query_port " + name);
    if (pa.state != IBV_PORT_ACTIVE)
        return Status::error(PLEXUS_ERR_NOT_AVAILABLE, "port " + std::to_string(port) + " of " + name +
                                                           " is not active (" + ibv_port_state_str(pa.state) + ")");
    t->port_ = port;
    t->lid_ = pa.lid;
    t->ethernet_ = pa.link_layer == IBV_LINK_LAYER_ETHERNET;
    (void)ibv_query_gid(t->ctx_.get(), port, 0, &t->gid_);
    t->link_mtu_ = mtu_bytes(pa.active_mtu);
    t->max_datagram_ = settings.mtu ? std::min(settings.mtu, t->link_mtu_) : t->link_mtu_;
    t->slot_ = kGrh + t->link_mtu_;
    t->pd_.reset(ibv_alloc_pd(t->ctx_.get()));
    t->channel_.reset(ibv_create_comp_channel(t->ctx_.get()));
    if (!t->pd_ || !t->channel_) return verbs_error("ibv_alloc_pd/ibv_create_comp_channel");
    ::fcntl(t->channel_->fd, F_SETFL, ::fcntl(t->channel_->fd, F_GETFL) | O_NONBLOCK);
    t->send_cq_.reset(ibv_create_cq(t->ctx_.get(), kSendSlots, nullptr, nullptr, 0));
    t->recv_cq_.reset(ibv_create_cq(t->ctx_.get(), kRecvSlots, nullptr, t->channel_.get(), 0));
    if (!t->send_cq_ || !t->recv_cq_) return verbs_error("ibv_create_cq");
    ibv_qp_init_attr qa{};
    qa.send_cq = t->send_cq_.get();
    qa.recv_cq = t->recv_cq_.get();
    qa.qp_type = IBV_QPT_UD;
    qa.cap.max_send_wr = kSendSlots;
    qa.cap.max_recv_wr = kRecvSlots;
    qa.cap.max_send_sge = 1;
    qa.cap.max_recv_sge = 1;
    t->qp_.reset(ibv_create_qp(t->pd_.get(), &qa));
    if (!t->qp_) return verbs_error("ibv_create_qp (UD)");
    if (Status s = t->to_rts(); !s) return s;
    t->recv_buf_.resize(kRecvSlots * t->slot_);
    t->send_buf_.resize(kSendSlots * t->slot_);
    t->recv_mr_.reset(ibv_reg_mr(t->pd_.get(), t->recv_buf_.data(), t->recv_buf_.size(), IBV_ACCESS_LOCAL_WRITE));
    t->send_mr_.reset(ibv_reg_mr(t->pd_.get(), t->send_buf_.data(), t->send_buf_.size(), 0));
    if (!t->recv_mr_ || !t->send_mr_) return verbs_error("ibv_reg_mr");
    for (int i = 0; i < kRecvSlots; ++i)
        if (Status s = t->post_recv(i); !s) return s;
    t->rearm();
    *out = std::move(t);
    return Status::ok();
}

Status IbUdTransport::to_rts() {
    ibv_qp_attr a{};
    a.qp_state = IBV_QPS_INIT;
    a.pkey_index = 0;
    a.port_num = port_;
    a.qkey = kQkey;
    if (ibv_modify_qp(qp_.get(), &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY))
        return verbs_error("UD QP to INIT");
    a = ibv_qp_attr{};
    a.qp_state = IBV_QPS_RTR;
    if (ibv_modify_qp(qp_.get(), &a, IBV_QP_STATE)) return verbs_error("UD QP to RTR");
    a.qp_state = IBV_QPS_RTS;
    a.sq_psn = 0;
    if (ibv_modify_qp(qp_.get(), &a, IBV_QP_STATE | IBV_QP_SQ_PSN)) return verbs_error("UD QP to RTS");
    return Status::ok();
}

Status IbUdTransport::post_recv(int slot) {
    ibv_sge sge{reinterpret_cast<uintptr_t>(recv_buf_.data() + slot * slot_), static_cast<uint32_t>(slot_),
                recv_mr_->lkey};
    ibv_recv_wr wr{};
    ibv_recv_wr *bad = nullptr;
    wr.wr_id = static_cast<uint64_t>(slot);
    wr.sg_list = &sge;
    wr.num_sge = 1;
    if (ibv_post_recv(qp_.get(), &wr, &bad)) return verbs_error("ibv_post_recv");
    return Status::ok();
}

void IbUdTransport::rearm() {
    ibv_cq *cq = nullptr;
    void *cq_ctx = nullptr;
    while (ibv_get_cq_event(channel_.get(), &cq, &cq_ctx) == 0) ibv_ack_cq_events(cq, 1);
    ibv_req_notify_cq(recv_cq_.get(), 0);
}

ibv_ah *IbUdTransport::address_handle(const Address &to, uint32_t *qpn) {
    if (to.size() != kAddressBytes || to[0] != kAddressIbUd || to[1] != 1) return nullptr;
    uint16_t lid;
    uint32_t q;
    std::memcpy(&lid, &to[2], 2);
    std::memcpy(&q, &to[4], 4);
    *qpn = ntohl(q);
    if (*qpn == kGroupQpn) {
        auto g = groups_.find(to);
        return g == groups_.end() ? nullptr : g->second->address_handle();
    }
    auto it = handles_.find(to);
    if (it != handles_.end()) return it->second.get();
    ibv_ah_attr ah{};
    ah.dlid = ntohs(lid);
    ah.port_num = port_;
    ibv_gid gid;
    std::memcpy(gid.raw, &to[8], 16);
    // RoCE and routed fabrics address by GID; a LID-only peer has none.
    if (gid.global.interface_id || gid.global.subnet_prefix) {
        ah.is_global = 1;
        ah.grh.dgid = gid;
        ah.grh.hop_limit = 1;
    }
    AhPtr h(ibv_create_ah(pd_.get(), &ah));
    if (!h) return nullptr;
    return handles_.emplace(to, std::move(h)).first->second.get();
}

Status IbUdTransport::reclaim_sends(bool wait) {
    for (int spins = 0; sends_out_ > 0; ++spins) {
        ibv_wc wc[16];
        const int n = ibv_poll_cq(send_cq_.get(), 16, wc);
        if (n < 0) return verbs_error("ibv_poll_cq (send)");
        sends_out_ -= n;
        if (!wait || (n == 0 && sends_out_ < kSendSlots)) break;
        if (spins > 1000000) return Status::error(PLEXUS_ERR_AGAIN, "the send queue stayed full");
    }
    return Status::ok();
}

Status IbUdTransport::join(const Address &group) {
    if (group.size() != kAddressBytes || group[0] != kAddressIbUd || group[1] != 1 || group[8] != 0xff)
        return Status::error(PLEXUS_ERR_BAD_PARAM, "not an InfiniBand multicast group address");
    if (groups_.count(group)) return Status::error(PLEXUS_ERR_EXISTS, "group already joined");
    if (ethernet_)
        return Status::error(PLEXUS_ERR_NOT_SUPPORTED,
                             "RoCE ports join IP multicast groups, not MGIDs: use UDP multicast for groups");
    ibv_gid mgid;
    std::memcpy(mgid.raw, &group[8], 16);
    std::unique_ptr<IbMulticastGroup> g;
    if (Status s = IbMulticastGroup::join(gid_, mgid, qp_.get(), pd_.get(), kJoinTimeoutMs, &g); !s) return s;
    groups_.emplace(group, std::move(g));
    return Status::ok();
}

Status IbUdTransport::send(const Address &to, const struct iovec *iov, size_t n) {
    uint32_t qpn = 0;
    ibv_ah *ah = address_handle(to, &qpn);
    if (!ah && qpn == kGroupQpn)
        return Status::error(PLEXUS_ERR_NOT_FOUND, "sending to an InfiniBand group needs joining it first");
    if (!ah) return Status::error(PLEXUS_ERR_UNREACH, "not an InfiniBand UD address, or no address handle for it");
    return post(ah, qpn, iov, n);
}

// Every datagram, to a peer or to a group, carries the one Q_Key all Plexus QPs have: a group's
// members are such QPs, so the key the subnet administrator records for the group is not used.
Status IbUdTransport::post(ibv_ah *ah, uint32_t qpn, const struct iovec *iov, size_t n) {
    if (Status s = reclaim_sends(sends_out_ >= kSendSlots); !s) return s;
    uint8_t *slot = send_buf_.data() + next_send_ * slot_;
    size_t len = 0;
    for (size_t i = 0; i < n; ++i) {
        if (len + iov[i].iov_len > max_datagram_) return Status::error(PLEXUS_ERR_BAD_PARAM, "datagram above the MTU");
        std::memcpy(slot + len, iov[i].iov_base, iov[i].iov_len);
        len += iov[i].iov_len;
    }
    ibv_sge sge{reinterpret_cast<uintptr_t>(slot), static_cast<uint32_t>(len), send_mr_->lkey};
    ibv_send_wr wr{};
    ibv_send_wr *bad = nullptr;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_SEND;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.wr.ud.ah = ah;
    wr.wr.ud.remote_qpn = qpn;
    wr.wr.ud.remote_qkey = kQkey;
    if (ibv_post_send(qp_.get(), &wr, &bad)) return verbs_error("ibv_post_send");
    ++sends_out_;
    next_send_ = (next_send_ + 1) % kSendSlots;
    return Status::ok();
}

Status IbUdTransport::receive(uint8_t *buf, size_t cap, RawDatagram *out, uint64_t *) {
    *out = RawDatagram{};
    ibv_wc wc{};
    int n = ibv_poll_cq(recv_cq_.get(), 1, &wc);
    if (n == 0) {
        rearm();  // so that wait_fd wakes on the next arrival
        n = ibv_poll_cq(recv_cq_.get(), 1, &wc);
    }
    if (n < 0) return verbs_error("ibv_poll_cq (receive)");
    if (n == 0) return Status::ok();
    const int slot = static_cast<int>(wc.wr_id);
    if (wc.status == IBV_WC_SUCCESS && wc.byte_len >= kGrh) {
        const uint8_t *data = recv_buf_.data() + slot * slot_;
        out->arrived = true;
        out->len = std::min<size_t>(wc.byte_len - kGrh, cap);
        std::memcpy(buf, data + kGrh, out->len);
        ibv_gid sgid{};
        if (wc.wc_flags & IBV_WC_GRH) std::memcpy(sgid.raw, data + 8, 16);  // the GRH's source GID
        out->from = encode(wc.slid, wc.src_qp, sgid);
        out->multicast = (wc.wc_flags & IBV_WC_GRH) && grh_is_multicast(data);
    }
    if (Status s = post_recv(slot); !s) return s;
    // A failed completion carries no datagram; the next call reads on.
    if (!out->arrived) return receive(buf, cap, out, nullptr);
    return Status::ok();
}

Address IbUdTransport::group_address(const uint8_t hash[32]) const {
    ibv_gid mgid{};
    mgid.raw[0] = 0xff;  // multicast, transient, link-local scope
    mgid.raw[1] = 0x12;
    std::memcpy(mgid.raw + 2, hash, 14);
    return encode(0xc000, kGroupQpn, mgid);
}

std::string device_list(ibv_device **devs, int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::string(ibv_get_device_name(devs[i]));
    return s;
}

}  // namespace

Status open_ib_ud(const Settings &settings, const std::string &wanted, std::unique_ptr<Transport> *out) {
    int n = 0;
    DevListPtr devs(ibv_get_device_list(&n), ibv_free_device_list);
    if (!devs || n == 0)
        return Status::error(PLEXUS_ERR_NOT_AVAILABLE,
                             "no InfiniBand device found (ibv_get_device_list found none: an HCA, "
                             "its rdma-core provider and the ib_uverbs module are needed)");
    const size_t colon = wanted.find(':');
    const std::string name = wanted.substr(0, colon);
    const int port = colon == std::string::npos ? 1 : std::atoi(wanted.c_str() + colon + 1);
    const bool any = name.empty() || name == "any";
    if (port < 1 || port > 255)
        return Status::error(PLEXUS_ERR_BAD_PARAM, "port in '" + wanted + "' is not 1..255");
    Status last = Status::error(PLEXUS_ERR_NOT_AVAILABLE, "no InfiniBand device '" + name +
                                                              "' (runtime_dgram_if); valid: " + device_list(devs.get(), n));
    for (int i = 0; i < n; ++i) {
        if (!any && name != ibv_get_device_name(devs.get()[i])) continue;
        last = IbUdTransport::open(settings, devs.get()[i], static_cast<uint8_t>(port), out);
        if (last || !any) return last;
    }
    return last;
}

}  // namespace plexus::runtime::dgram

#else  // !PLEXUS_HAVE_VERBS

namespace plexus::runtime::dgram {

Status open_ib_ud(const Settings &, const std::string &, std::unique_ptr<Transport> *) {
    return Status::error(PLEXUS_ERR_NOT_AVAILABLE,
                         "built without libibverbs (configure found no rdma-core: libibverbs-dev)");
}

}  // namespace plexus::runtime::dgram

#endif
