// MPI_Scatter on an inter-communicator: the root sends the other group's blocks in one message to
// that group's leader, which scatters them within its group (local collective). The rest of the
// root's group (MPI_PROC_NULL) takes no part.
#include "basic_functions.h"
#include "inter_support.h"

namespace plexus::coll_basic {

int inter_scatter(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                  plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                  plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm) {
    using namespace inter;
    if (root == PLEXUS_COLL_PROC_NULL) return PLEXUS_COLL_SUCCESS;
    const Call c = call_of(self, comm);
    const int tag = kTagScatter;
    if (root == PLEXUS_COLL_ROOT) {
        int total = 0;
        if (int rc = to_count(1LL * c.remote_size * sendcount, &total); rc != PLEXUS_COLL_SUCCESS)
            return rc;
        return c.svc->send(sendbuf, total, sendtype, kLeader, tag, comm);
    }

    // The group's blocks, in rank order, at the leader (as recvtype items).
    int total = 0;
    if (int rc = to_count(1LL * c.size * recvcount, &total); rc != PLEXUS_COLL_SUCCESS) return rc;
    Layout layout;
    TempBuffer group;
    if (int rc = layout_and_temp(c.svc, recvtype, total, c.leader(), &layout, &group);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    if (c.leader()) {
        if (int rc = c.svc->recv(group.data(), total, recvtype, root, tag, comm);
            rc != PLEXUS_COLL_SUCCESS)
            return rc;
    }
    void *blocks = c.leader() ? group.data() : nullptr;
    return c.coll->scatter(nullptr, blocks, recvcount, recvtype, recvbuf, recvcount, recvtype,
                           kLeader, c.local);
}

}  // namespace plexus::coll_basic
