// Allreduce and Allgather on an inter-communicator: each group's local phase collects at its
// leader (a reduction, a gather), the leaders swap their groups' results by point-to-point, and
// each leader broadcasts the other group's result within its group. Group A ends with group B's
// data and the other way round.
#include "inter_link.h"
#include "inter_local.h"
#include "shm_functions.h"
#include "shm_tags.h"

namespace plexus::coll_shm_inter {

using namespace inter;

int inter_allreduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                    plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm) {
    Call c = call_of(self, comm);
    Temp mine(c.m->temps[0]);  // this group's reduction, at the leader
    if (c.leader())
        if (int rc = mine.init(c.svc, type, count)) return rc;
    if (int rc = local_reduce(c, sendbuf, mine.data(), count, type, op)) return rc;
    if (c.leader())
        if (int rc = link_swap(c, mine.data(), count, type, recvbuf, count, type, kLeader,
                               kTagInterAllreduce))
            return rc;
    return local_bcast(c, recvbuf, count, type);
}

int inter_allgather(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                    plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                    plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm) {
    Call c = call_of(self, comm);
    const long local_total = static_cast<long>(c.size) * sendcount;
    const long remote_total = static_cast<long>(c.remote_size) * recvcount;
    if (local_total > INT_MAX || remote_total > INT_MAX) return PLEXUS_COLL_ERR_UNSUPPORTED;
    Temp group(c.m->temps[0]);  // this group's blocks in rank order, as sendtype items
    if (c.leader())
        if (int rc = group.init(c.svc, sendtype, local_total)) return rc;
    size_t mine = 0, theirs = 0;
    if (int rc = bytes_of(c.svc, sendtype, sendcount, &mine)) return rc;
    if (int rc = bytes_of(c.svc, recvtype, remote_total, &theirs)) return rc;
    if (mine)
        if (int rc =
                local_gather(c, sendbuf, sendcount, sendtype, group.data(), sendcount, sendtype))
            return rc;
    if (c.leader())
        if (int rc =
                link_swap(c, group.data(), static_cast<int>(local_total), sendtype, recvbuf,
                          static_cast<int>(remote_total), recvtype, kLeader, kTagInterAllgather))
            return rc;
    return theirs ? local_bcast(c, recvbuf, static_cast<int>(remote_total), recvtype)
                  : PLEXUS_COLL_SUCCESS;
}

}  // namespace plexus::coll_shm_inter
