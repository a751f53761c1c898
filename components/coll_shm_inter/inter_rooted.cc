// The rooted collectives on an inter-communicator (MPI-2.2 5.2.2): the root (MPI_ROOT) talks to
// the other group's leader only, by point-to-point, and that group runs the local phase rooted
// at its leader on shared memory; the rest of the root's group (MPI_PROC_NULL) takes no part.
// Data from the root's side: Bcast, Scatter; to it: Reduce (the other group's rank order kept by
// the local reduction), Gather.
#include "inter_link.h"
#include "inter_local.h"
#include "shm_functions.h"
#include "shm_tags.h"

namespace plexus::coll_shm_inter {

using namespace inter;

int inter_bcast(plexus_coll_module_t *self, void *buf, int count, plexus_coll_dtype_t *type,
                int root, plexus_coll_comm_t *comm) {
    if (root == PLEXUS_COLL_PROC_NULL) return PLEXUS_COLL_SUCCESS;
    Call c = call_of(self, comm);
    if (root == PLEXUS_COLL_ROOT) return link_send(c, buf, count, type, kLeader, kTagInterBcast);
    bool relayed = false;  // the leader's group read the root's buffer itself: phase done
    if (c.leader())
        if (int rc = link_bcast_recv(c, buf, count, type, root, kTagInterBcast, &relayed))
            return rc;
    // Processes may describe an empty message with different counts: bytes decide, alike
    // everywhere.
    size_t bytes = 0;
    if (int rc = bytes_of(c.svc, type, count, &bytes)) return rc;
    return bytes && !relayed ? local_bcast(c, buf, count, type) : PLEXUS_COLL_SUCCESS;
}

int inter_reduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                 plexus_coll_dtype_t *type, plexus_coll_op_t *op, int root,
                 plexus_coll_comm_t *comm) {
    if (root == PLEXUS_COLL_PROC_NULL) return PLEXUS_COLL_SUCCESS;
    Call c = call_of(self, comm);
    if (root == PLEXUS_COLL_ROOT)
        return link_recv(c, recvbuf, count, type, kLeader, kTagInterReduce);
    Temp partial(c.m->temps[0]);  // the group's reduction, at the leader (recvbuf means nothing
                                  // outside the root)
    if (c.leader())
        if (int rc = partial.init(c.svc, type, count)) return rc;
    if (int rc = local_reduce(c, sendbuf, partial.data(), count, type, op)) return rc;
    return c.leader() ? link_send(c, partial.data(), count, type, root, kTagInterReduce)
                      : PLEXUS_COLL_SUCCESS;
}

int inter_gather(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                 plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                 plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm) {
    if (root == PLEXUS_COLL_PROC_NULL) return PLEXUS_COLL_SUCCESS;
    Call c = call_of(self, comm);
    if (root == PLEXUS_COLL_ROOT) {
        const long total = static_cast<long>(c.remote_size) * recvcount;
        if (total > INT_MAX) return PLEXUS_COLL_ERR_UNSUPPORTED;
        return link_recv(c, recvbuf, static_cast<int>(total), recvtype, kLeader, kTagInterGather);
    }
    const long total = static_cast<long>(c.size) * sendcount;
    if (total > INT_MAX) return PLEXUS_COLL_ERR_UNSUPPORTED;
    Temp group(c.m->temps[0]);  // the group's blocks in rank order, as sendtype items (they travel
                                // as such)
    if (c.leader())
        if (int rc = group.init(c.svc, sendtype, total)) return rc;
    size_t bytes = 0;
    if (int rc = bytes_of(c.svc, sendtype, sendcount, &bytes)) return rc;
    if (bytes)
        if (int rc =
                local_gather(c, sendbuf, sendcount, sendtype, group.data(), sendcount, sendtype))
            return rc;
    if (!c.leader()) return PLEXUS_COLL_SUCCESS;
    return link_send(c, group.data(), static_cast<int>(total), sendtype, root, kTagInterGather);
}

int inter_scatter(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                  plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                  plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm) {
    if (root == PLEXUS_COLL_PROC_NULL) return PLEXUS_COLL_SUCCESS;
    Call c = call_of(self, comm);
    if (root == PLEXUS_COLL_ROOT) {
        const long total = static_cast<long>(c.remote_size) * sendcount;
        if (total > INT_MAX) return PLEXUS_COLL_ERR_UNSUPPORTED;
        return link_send(c, sendbuf, static_cast<int>(total), sendtype, kLeader, kTagInterScatter);
    }
    const long total = static_cast<long>(c.size) * recvcount;
    if (total > INT_MAX) return PLEXUS_COLL_ERR_UNSUPPORTED;
    Temp group(c.m->temps[0]);  // every block of the group, at the leader, as recvtype items
    if (c.leader()) {
        if (int rc = group.init(c.svc, recvtype, total)) return rc;
        if (int rc = link_recv(c, group.data(), static_cast<int>(total), recvtype, root,
                               kTagInterScatter))
            return rc;
    }
    size_t bytes = 0;
    if (int rc = bytes_of(c.svc, recvtype, recvcount, &bytes)) return rc;
    if (!bytes) return PLEXUS_COLL_SUCCESS;
    return local_scatter(c, group.data(), recvcount, recvtype, recvbuf, recvcount, recvtype);
}

}  // namespace plexus::coll_shm_inter
