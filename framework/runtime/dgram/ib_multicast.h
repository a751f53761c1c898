// An InfiniBand multicast group membership of one UD queue pair: the join at the subnet
// administrator through librdmacm (rdma_join_multicast_ex on an AF_IB address, so that any
// 128-bit MGID works without IPoIB), the QP's attachment to the group's MGID/MLID, and the address
// handle that sends to the group. Leaving detaches and leaves in the reverse order.
#pragma once

#include <cstdint>
#include <memory>

#include "plexus_config.h"
#include "runtime/status.h"

#ifdef PLEXUS_HAVE_VERBS

#include <infiniband/ib.h>
#include <infiniband/verbs.h>

struct rdma_event_channel;  // librdmacm's, kept out of this header's includers
struct rdma_cm_id;

namespace plexus::runtime::dgram {

// The AF_IB socket address librdmacm takes for a GID (a port's, or a group's MGID).
sockaddr_ib ib_sockaddr(const ibv_gid &gid);
// Whether a received UD buffer's 40-byte GRH is addressed to a multicast group (MGID 0xff...).
bool grh_is_multicast(const uint8_t *grh);

class IbMulticastGroup {
public:
    // Joins mgid as a full member from port_gid's port, waits up to timeout_ms for the subnet
    // administrator's answer, attaches qp and makes the address handle in pd.
    static Status join(const ibv_gid &port_gid, const ibv_gid &mgid, ibv_qp *qp, ibv_pd *pd, int timeout_ms,
                       std::unique_ptr<IbMulticastGroup> *out);
    ~IbMulticastGroup();
    IbMulticastGroup(const IbMulticastGroup &) = delete;
    IbMulticastGroup &operator=(const IbMulticastGroup &) = delete;

    ibv_ah *address_handle() const { return ah_; }
    uint16_t mlid() const { return mlid_; }

private:
    IbMulticastGroup() = default;
    Status wait_joined(int timeout_ms, ibv_ah_attr *path);

    ::rdma_event_channel *channel_ = nullptr;
    ::rdma_cm_id *id_ = nullptr;
    sockaddr_ib group_{};
    bool joined_ = false;
    ibv_qp *attached_qp_ = nullptr;
    ibv_gid mgid_{};
    uint16_t mlid_ = 0;
    ibv_ah *ah_ = nullptr;
};

}  // namespace plexus::runtime::dgram

#endif
