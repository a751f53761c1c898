// MPI_Allreduce on an inter-communicator: each group reduces to its leader (local collective),
// the leaders swap their groups' results, and each leader broadcasts the other group's result
// within its group. So every process of group A ends with the reduction of group B's data, in B's
// rank order, and the other way round.
#include "basic_functions.h"
#include "inter_support.h"

namespace plexus::coll_basic {

int inter_allreduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                    plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm) {
    using namespace inter;
    const Call c = call_of(self, comm);
    Layout layout;
    TempBuffer partial;  // this group's reduction, at the leader
    if (int rc = layout_and_temp(c.svc, type, count, c.leader(), &layout, &partial);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    void *mine = c.leader() ? partial.data() : nullptr;
    if (int rc = c.coll->reduce(nullptr, sendbuf, mine, count, type, op, kLeader, c.local);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    if (c.leader()) {
        int rc = c.svc->sendrecv(mine, count, type, kLeader, recvbuf, count, type, kLeader,
                                 kTagAllreduce, comm);
        if (rc != PLEXUS_COLL_SUCCESS) return rc;
    }
    return c.coll->bcast(nullptr, recvbuf, count, type, kLeader, c.local);
}

}  // namespace plexus::coll_basic
