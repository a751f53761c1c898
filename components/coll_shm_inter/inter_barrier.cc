// MPI_Barrier on an inter-communicator. Both groups on one node: one barrier of flags over the
// union of both (inter_local.h). Otherwise the local group's fan-in reaches its leader, the two
// leaders swap an empty message, and each leader's fan-out releases its group: one tree
// traversal each way, where a local barrier plus a local broadcast would take two. Nobody leaves
// before every process of the other group has entered. A group spread over nodes (or without
// shared memory) does a whole local barrier on each side of the exchange instead.
#include "inter_local.h"
#include "shm_functions.h"
#include "shm_tags.h"

namespace plexus::coll_shm_inter {

using namespace inter;

namespace {

int leaders_swap(Call &c) {
    char token = 0, got = 0;
    return c.svc->sendrecv(&token, 0, c.svc->byte_type, kLeader, &got, 0, c.svc->byte_type, kLeader,
                           kTagInterBarrier, c.comm);
}

}  // namespace

int inter_barrier(plexus_coll_module_t *self, plexus_coll_comm_t *comm) {
    Call c = call_of(self, comm);
    int rc = PLEXUS_COLL_SUCCESS;
    if (TwoLevel *both = union_two(c, &rc)) return both->barrier();
    if (rc) return rc;
    TwoLevel *two = local_two(c, &rc);
    if (rc) return rc;
    if (two && two->single_node()) {
        two->engine().fan_in();
        if (c.leader()) rc = leaders_swap(c);
        two->engine().fan_out();
        return rc;
    }
    if ((rc = local_barrier(c))) return rc;
    if (c.leader() && (rc = leaders_swap(c))) return rc;
    return local_barrier(c);
}

}  // namespace plexus::coll_shm_inter
