#include "runtime/dgram/ib_multicast.h"

#ifdef PLEXUS_HAVE_VERBS

#include <poll.h>
#include <rdma/rdma_cma.h>

#include <arpa/inet.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <plexus/sdk/on_demand_library.hpp>

namespace plexus::runtime::dgram {
namespace {

Status cm_error(const std::string &what) {
    return Status::error(PLEXUS_ERR_NOT_AVAILABLE, what + ": " + std::strerror(errno));
}

// librdmacm's calls, resolved when the first group is joined: libplexus does not link librdmacm
// (nor, through it, libnl-3 and libnl-route-3), which every rank would otherwise load at start
// for a feature only InfiniBand multicast uses (plexus/sdk/on_demand_library.hpp).
struct RdmaCm {
    decltype(&::rdma_create_event_channel) create_event_channel;
    decltype(&::rdma_destroy_event_channel) destroy_event_channel;
    decltype(&::rdma_create_id) create_id;
    decltype(&::rdma_destroy_id) destroy_id;
    decltype(&::rdma_bind_addr) bind_addr;
    decltype(&::rdma_join_multicast_ex) join_multicast_ex;
    decltype(&::rdma_leave_multicast) leave_multicast;
    decltype(&::rdma_get_cm_event) get_cm_event;
    decltype(&::rdma_ack_cm_event) ack_cm_event;
    decltype(&::rdma_event_str) event_str;
};

Status resolve_all(sdk::OnDemandLibrary &lib, RdmaCm *f) {
    std::string why;
    const bool ok = lib.resolve("rdma_create_event_channel", &f->create_event_channel, &why) &&
                    lib.resolve("rdma_destroy_event_channel", &f->destroy_event_channel, &why) &&
                    lib.resolve("rdma_create_id", &f->create_id, &why) &&
                    lib.resolve("rdma_destroy_id", &f->destroy_id, &why) &&
                    lib.resolve("rdma_bind_addr", &f->bind_addr, &why) &&
                    lib.resolve("rdma_join_multicast_ex", &f->join_multicast_ex, &why) &&
                    lib.resolve("rdma_leave_multicast", &f->leave_multicast, &why) &&
                    lib.resolve("rdma_get_cm_event", &f->get_cm_event, &why) &&
                    lib.resolve("rdma_ack_cm_event", &f->ack_cm_event, &why) &&
                    lib.resolve("rdma_event_str", &f->event_str, &why);
    return ok ? Status::ok() : Status::error(PLEXUS_ERR_NOT_AVAILABLE, why);
}

// The table, or why there is none (the same answer for the process's life).
Status rdma_cm(const RdmaCm **out) {
    static sdk::OnDemandLibrary lib("librdmacm.so.1", "PLEXUS_LIBRDMACM", "InfiniBand multicast (the RDMA CM's group join)");
    static RdmaCm table{};
    static const Status resolved = resolve_all(lib, &table);
    *out = &table;
    return resolved;
}

}  // namespace

sockaddr_ib ib_sockaddr(const ibv_gid &gid) {
    sockaddr_ib a{};
    a.sib_family = AF_IB;
    a.sib_pkey = htons(0xffff);  // the default partition, full member
    std::memcpy(&a.sib_addr, gid.raw, sizeof gid.raw);
    return a;
}

bool grh_is_multicast(const uint8_t *grh) {
    constexpr size_t kDgidOffset = 24;  // IBA 8.3.1: the GRH's destination GID
    return grh[kDgidOffset] == 0xff;
}

Status IbMulticastGroup::join(const ibv_gid &port_gid, const ibv_gid &mgid, ibv_qp *qp, ibv_pd *pd,
                              int timeout_ms, std::unique_ptr<IbMulticastGroup> *out) {
    const RdmaCm *cm = nullptr;
    if (Status s = rdma_cm(&cm); !s) return s;
    std::unique_ptr<IbMulticastGroup> g(new IbMulticastGroup);
    g->mgid_ = mgid;
    g->channel_ = cm->create_event_channel();
    if (!g->channel_) return cm_error("rdma_create_event_channel");
    if (cm->create_id(g->channel_, &g->id_, nullptr, RDMA_PS_UDP)) return cm_error("rdma_create_id");
    sockaddr_ib local = ib_sockaddr(port_gid);
    if (cm->bind_addr(g->id_, reinterpret_cast<sockaddr *>(&local)))
        return cm_error("rdma_bind_addr to the port's GID (AF_IB; the kernel's RDMA CM must support it)");
    g->group_ = ib_sockaddr(mgid);
    rdma_cm_join_mc_attr_ex attr{};
    attr.comp_mask = RDMA_CM_JOIN_MC_ATTR_ADDRESS | RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS;
    attr.join_flags = RDMA_MC_JOIN_FLAG_FULLMEMBER;
    attr.addr = reinterpret_cast<sockaddr *>(&g->group_);
    if (cm->join_multicast_ex(g->id_, &attr, nullptr)) return cm_error("rdma_join_multicast_ex");
    ibv_ah_attr path{};
    if (Status s = g->wait_joined(timeout_ms, &path); !s) return s;
    g->ah_ = ibv_create_ah(pd, &path);  // in the QP's protection domain, not the CM's
    if (!g->ah_) return cm_error("ibv_create_ah for the group");
    if (ibv_attach_mcast(qp, &g->mgid_, g->mlid_)) return cm_error("ibv_attach_mcast");
    g->attached_qp_ = qp;
    *out = std::move(g);
    return Status::ok();
}

// The subnet administrator answers with the group's MLID and the path to it (an address handle
// attribute with the MGID as destination GID).
Status IbMulticastGroup::wait_joined(int timeout_ms, ibv_ah_attr *path) {
    pollfd p{channel_->fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, timeout_ms);
    if (ready == 0)
        return Status::error(PLEXUS_ERR_TIMEOUT, "the subnet administrator did not answer the multicast join within " +
                                                     std::to_string(timeout_ms) + " ms (is a subnet manager running?)");
    if (ready < 0) return cm_error("poll on the RDMA CM event channel");
    const RdmaCm *cm = nullptr;
    if (Status s = rdma_cm(&cm); !s) return s;
    rdma_cm_event *ev = nullptr;
    if (cm->get_cm_event(channel_, &ev)) return cm_error("rdma_get_cm_event");
    const rdma_cm_event_type type = ev->event;
    const int status = ev->status;
    *path = ev->param.ud.ah_attr;
    cm->ack_cm_event(ev);
    if (type != RDMA_CM_EVENT_MULTICAST_JOIN)
        return Status::error(PLEXUS_ERR_NOT_AVAILABLE, std::string("multicast join refused: ") + cm->event_str(type) +
                                                           " (status " + std::to_string(status) + ")");
    joined_ = true;
    mlid_ = path->dlid;
    return Status::ok();
}

IbMulticastGroup::~IbMulticastGroup() {
    if (ah_) ibv_destroy_ah(ah_);
    if (attached_qp_) ibv_detach_mcast(attached_qp_, &mgid_, mlid_);
    const RdmaCm *cm = nullptr;
    if (!rdma_cm(&cm)) return;  // nothing of the CM's was made
    if (joined_) cm->leave_multicast(id_, reinterpret_cast<sockaddr *>(&group_));
    if (id_) cm->destroy_id(id_);
    if (channel_) cm->destroy_event_channel(channel_);
}

}  // namespace plexus::runtime::dgram

#endif
