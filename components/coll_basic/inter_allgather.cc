// MPI_Allgather on an inter-communicator: each group gathers its blocks to its leader (local
// collective), the leaders swap their groups' blocks, and each leader broadcasts the other
// group's blocks within its group. Every process ends with the other group's blocks in rank
// order. When the other group's blocks are empty in bytes the broadcast is skipped: processes may
// describe them with different counts (0 of a type, or some of a zero-size type), not bytes.
#include "basic_functions.h"
#include "inter_support.h"

namespace plexus::coll_basic {

int inter_allgather(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                    plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                    plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm) {
    using namespace inter;
    const Call c = call_of(self, comm);
    int remote_total = 0;
    if (int rc = to_count(1LL * c.remote_size * recvcount, &remote_total);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;

    // This group's blocks, in rank order, at the leader (as sendtype items: they travel as such).
    int local_total = 0;
    if (int rc = to_count(1LL * c.size * sendcount, &local_total); rc != PLEXUS_COLL_SUCCESS)
        return rc;
    Layout layout;
    TempBuffer group;
    if (int rc = layout_and_temp(c.svc, sendtype, local_total, c.leader(), &layout, &group);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    void *mine = c.leader() ? group.data() : nullptr;
    if (int rc = c.coll->gather(nullptr, sendbuf, sendcount, sendtype, mine, sendcount, sendtype,
                                kLeader, c.local);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    if (c.leader()) {
        int rc = c.svc->sendrecv(mine, local_total, sendtype, kLeader, recvbuf, remote_total,
                                 recvtype, kLeader, kTagAllgather, comm);
        if (rc != PLEXUS_COLL_SUCCESS) return rc;
    }
    Layout recv;
    if (int rc = get_layout(c.svc, recvtype, &recv); rc != PLEXUS_COLL_SUCCESS) return rc;
    if (!carries_data(recv, remote_total)) return PLEXUS_COLL_SUCCESS;
    return c.coll->bcast(nullptr, recvbuf, remote_total, recvtype, kLeader, c.local);
}

}  // namespace plexus::coll_basic
