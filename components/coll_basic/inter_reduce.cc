// MPI_Reduce on an inter-communicator: the group without the root reduces to its leader (the
// local collective, so the order of a non-commutative operation is that group's rank order), and
// the leader sends the result to the root. The rest of the root's group (MPI_PROC_NULL) takes no
// part, nor does anybody in a reduction of no items.
#include "basic_functions.h"
#include "inter_support.h"

namespace plexus::coll_basic {

int inter_reduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                 plexus_coll_dtype_t *type, plexus_coll_op_t *op, int root,
                 plexus_coll_comm_t *comm) {
    using namespace inter;
    if (root == PLEXUS_COLL_PROC_NULL || count == 0) return PLEXUS_COLL_SUCCESS;
    const Call c = call_of(self, comm);
    const int tag = kTagReduce;
    if (root == PLEXUS_COLL_ROOT) return c.svc->recv(recvbuf, count, type, kLeader, tag, comm);

    // recvbuf is not significant outside the root: the leader reduces into a buffer of its own.
    Layout layout;
    TempBuffer partial;
    if (int rc = layout_and_temp(c.svc, type, count, c.leader(), &layout, &partial);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    void *result = c.leader() ? partial.data() : nullptr;
    if (int rc = c.coll->reduce(nullptr, sendbuf, result, count, type, op, kLeader, c.local);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    if (!c.leader()) return PLEXUS_COLL_SUCCESS;
    return c.svc->send(result, count, type, root, tag, comm);
}

}  // namespace plexus::coll_basic
