// MPI_Barrier on an inter-communicator: a barrier within each group (local collective) tells its
// leader that the whole group has entered; the leaders swap an empty message, so each learns the
// same of the other group; then each leader releases its group with a one-byte broadcast. No
// process leaves before every process of the other group has entered, which is what MPI asks.
#include "basic_functions.h"
#include "inter_support.h"

namespace plexus::coll_basic {

int inter_barrier(plexus_coll_module_t *self, plexus_coll_comm_t *comm) {
    using namespace inter;
    const Call c = call_of(self, comm);
    if (int rc = c.coll->barrier(nullptr, c.local); rc != PLEXUS_COLL_SUCCESS) return rc;
    char token = 0;
    if (c.leader()) {
        char remote_token = 0;
        int rc = c.svc->sendrecv(&token, 0, c.svc->byte_type, kLeader, &remote_token, 0,
                                 c.svc->byte_type, kLeader, kTagBarrier, comm);
        if (rc != PLEXUS_COLL_SUCCESS) return rc;
    }
    // One byte, not zero: a broadcast of nothing may return at once without waiting for the root.
    return c.coll->bcast(nullptr, &token, 1, c.svc->byte_type, kLeader, c.local);
}

}  // namespace plexus::coll_basic
