// MPI_Reduce_scatter(_block) on an inter-communicator: each group reduces its whole vector to
// its leader on shared memory (its rank order kept), the leaders swap the results, and each
// leader scatters the other group's result in its group by the group's recvcounts, which every
// process of the group knows (so the engine can scatter blocks of different lengths). MPI makes
// both groups' vectors the same length, the sum of each group's recvcounts.
#include <vector>

#include "inter_link.h"
#include "inter_local.h"
#include "shm_buffer.h"
#include "shm_functions.h"
#include "shm_tags.h"

namespace plexus::coll_shm_inter {

using namespace inter;

namespace {

// The leader's `all` (total items, in rank order) to every process by counts: on the engine
// when the group shares one node, else through the local communicator's Scatterv.
int scatter_by_counts(Call &c, void *all, const int counts[], long total, plexus_coll_dtype_t *type,
                      void *recvbuf) {
    int rc = PLEXUS_COLL_SUCCESS;
    TwoLevel *two = local_two(c, &rc);
    if (rc) return rc;
    if (two && two->single_node()) {
        size_t item = 0;
        if ((rc = bytes_of(c.svc, type, 1, &item))) return rc;
        std::vector<size_t> bytes(static_cast<size_t>(c.size));
        for (int i = 0; i < c.size; ++i)
            bytes[static_cast<size_t>(i)] = item * static_cast<size_t>(counts[i]);
        Packed whole, mine;
        if (c.leader()) {
            if ((rc = whole.init(c.svc, all, total, type)) || (rc = whole.pack())) return rc;
        }
        if ((rc = mine.init(c.svc, recvbuf, counts[c.rank], type))) return rc;
        if ((rc = two->engine().scatterv(whole.data(), bytes.data(), mine.data(), kLeader)))
            return rc;
        return mine.unpack();
    }
    std::vector<int> displs(static_cast<size_t>(c.size));
    int at = 0;
    for (int i = 0; i < c.size; ++i) displs[static_cast<size_t>(i)] = at, at += counts[i];
    return c.svc->dispatch->scatterv(nullptr, all, counts, displs.data(), type, recvbuf,
                                     counts[c.rank], type, kLeader, c.local);
}

}  // namespace

int inter_reduce_scatter(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf,
                         const int recvcounts[], plexus_coll_dtype_t *type, plexus_coll_op_t *op,
                         plexus_coll_comm_t *comm) {
    Call c = call_of(self, comm);
    long total = 0;
    for (int i = 0; i < c.size; ++i) total += recvcounts[i];
    if (total > INT_MAX) return PLEXUS_COLL_ERR_UNSUPPORTED;
    Temp mine(c.m->temps[0]),
        theirs(c.m->temps[1]);  // this group's reduction and the other group's, at the leader
    if (c.leader()) {
        if (int rc = mine.init(c.svc, type, total)) return rc;
        if (int rc = theirs.init(c.svc, type, total)) return rc;
    }
    if (int rc = local_reduce(c, sendbuf, mine.data(), static_cast<int>(total), type, op))
        return rc;
    if (c.leader())
        if (int rc = link_swap(c, mine.data(), static_cast<int>(total), type, theirs.data(),
                               static_cast<int>(total), type, kLeader, kTagInterReduceScatter))
            return rc;
    return scatter_by_counts(c, theirs.data(), recvcounts, total, type, recvbuf);
}

int inter_reduce_scatter_block(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf,
                               int recvcount, plexus_coll_dtype_t *type, plexus_coll_op_t *op,
                               plexus_coll_comm_t *comm) {
    const Call c = call_of(self, comm);
    std::vector<int> counts(static_cast<size_t>(c.size), recvcount);
    return inter_reduce_scatter(self, sendbuf, recvbuf, counts.data(), type, op, comm);
}

}  // namespace plexus::coll_shm_inter
