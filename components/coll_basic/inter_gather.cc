// MPI_Gather on an inter-communicator: the group without the root gathers to its leader (local
// collective) and the leader sends the whole group's data to the root in one message, which
// lands in the root's recvbuf in rank order. The rest of the root's group (MPI_PROC_NULL) takes
// no part.
#include "basic_functions.h"
#include "inter_support.h"

namespace plexus::coll_basic {

int inter_gather(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                 plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                 plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm) {
    using namespace inter;
    if (root == PLEXUS_COLL_PROC_NULL) return PLEXUS_COLL_SUCCESS;
    const Call c = call_of(self, comm);
    const int tag = kTagGather;
    if (root == PLEXUS_COLL_ROOT) {
        int total = 0;
        if (int rc = to_count(1LL * c.remote_size * recvcount, &total); rc != PLEXUS_COLL_SUCCESS)
            return rc;
        return c.svc->recv(recvbuf, total, recvtype, kLeader, tag, comm);
    }

    // The group's blocks, in rank order, at the leader (as sendtype items: they travel as such).
    int total = 0;
    if (int rc = to_count(1LL * c.size * sendcount, &total); rc != PLEXUS_COLL_SUCCESS) return rc;
    Layout layout;
    TempBuffer group;
    if (int rc = layout_and_temp(c.svc, sendtype, total, c.leader(), &layout, &group);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    void *blocks = c.leader() ? group.data() : nullptr;
    if (int rc = c.coll->gather(nullptr, sendbuf, sendcount, sendtype, blocks, sendcount, sendtype,
                                kLeader, c.local);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    if (!c.leader()) return PLEXUS_COLL_SUCCESS;
    return c.svc->send(blocks, total, sendtype, root, tag, comm);
}

}  // namespace plexus::coll_basic
