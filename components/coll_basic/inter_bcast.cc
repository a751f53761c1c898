// MPI_Bcast on an inter-communicator: the root sends to the leader of the other group, which
// broadcasts within its group (the local collective, whoever serves it). The rest of the root's
// group (MPI_PROC_NULL) takes no part. An empty message (no bytes, whatever the count) moves
// nothing: the processes may describe it with different counts, and all of them agree that it is
// empty.
#include "basic_functions.h"
#include "inter_support.h"

namespace plexus::coll_basic {

int inter_bcast(plexus_coll_module_t *self, void *buf, int count, plexus_coll_dtype_t *type,
                int root, plexus_coll_comm_t *comm) {
    using namespace inter;
    if (root == PLEXUS_COLL_PROC_NULL) return PLEXUS_COLL_SUCCESS;
    const Call c = call_of(self, comm);
    Layout layout;
    if (int rc = get_layout(c.svc, type, &layout); rc != PLEXUS_COLL_SUCCESS) return rc;
    if (!carries_data(layout, count)) return PLEXUS_COLL_SUCCESS;
    const int tag = kTagBcast;
    if (root == PLEXUS_COLL_ROOT) return c.svc->send(buf, count, type, kLeader, tag, comm);
    if (c.leader()) {
        if (int rc = c.svc->recv(buf, count, type, root, tag, comm); rc != PLEXUS_COLL_SUCCESS)
            return rc;
    }
    return c.coll->bcast(nullptr, buf, count, type, kLeader, c.local);
}

}  // namespace plexus::coll_basic
