// MPI_Reduce_scatter and MPI_Reduce_scatter_block on an inter-communicator: each group reduces its
// whole vector to its leader (local collective), the leaders swap the results, and each leader
// scatters the other group's result within its group by its recvcounts. MPI makes both groups'
// vectors the same length (the sum of each group's recvcounts).
#include <memory>
#include <new>

#include "basic_functions.h"
#include "inter_support.h"

namespace plexus::coll_basic {
namespace {

using namespace inter;

// Reduces this group's vector (total items) and swaps the result with the other group's: at the
// leader, *other then holds the other group's result; elsewhere it stays unallocated.
int reduce_and_swap(const Call &c, const void *sendbuf, int total, plexus_coll_dtype_t *type,
                    plexus_coll_op_t *op, int tag, TempBuffer *other) {
    Layout layout;
    TempBuffer mine;
    if (int rc = layout_and_temp(c.svc, type, total, c.leader(), &layout, &mine);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    if (c.leader() && !other->allocate(layout, total)) return PLEXUS_COLL_ERR_NO_MEM;
    void *result = c.leader() ? mine.data() : nullptr;
    if (int rc = c.coll->reduce(nullptr, sendbuf, result, total, type, op, kLeader, c.local);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    if (!c.leader()) return PLEXUS_COLL_SUCCESS;
    return c.svc->sendrecv(result, total, type, kLeader, other->data(), total, type, kLeader, tag,
                           c.comm);
}

}  // namespace

int inter_reduce_scatter(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf,
                         const int recvcounts[], plexus_coll_dtype_t *type, plexus_coll_op_t *op,
                         plexus_coll_comm_t *comm) {
    const Call c = call_of(self, comm);
    long long sum = 0;
    for (int i = 0; i < c.size; ++i) sum += recvcounts[i];
    int total = 0;
    if (int rc = to_count(sum, &total); rc != PLEXUS_COLL_SUCCESS) return rc;

    TempBuffer other;
    if (int rc = reduce_and_swap(c, sendbuf, total, type, op, kTagReduceScatter, &other);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    // The blocks lie back to back in the leader's copy of the result.
    std::unique_ptr<int[]> displs;
    if (c.leader()) {
        displs.reset(new (std::nothrow) int[static_cast<size_t>(c.size)]);
        if (!displs) return PLEXUS_COLL_ERR_NO_MEM;
        int offset = 0;
        for (int i = 0; i < c.size; ++i) {
            displs[i] = offset;
            offset += recvcounts[i];
        }
    }
    void *result = c.leader() ? other.data() : nullptr;
    return c.coll->scatterv(nullptr, result, recvcounts, displs.get(), type, recvbuf,
                            recvcounts[c.rank], type, kLeader, c.local);
}

int inter_reduce_scatter_block(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf,
                               int recvcount, plexus_coll_dtype_t *type, plexus_coll_op_t *op,
                               plexus_coll_comm_t *comm) {
    const Call c = call_of(self, comm);
    int total = 0;
    if (int rc = to_count(1LL * c.size * recvcount, &total); rc != PLEXUS_COLL_SUCCESS) return rc;

    TempBuffer other;
    if (int rc = reduce_and_swap(c, sendbuf, total, type, op, kTagReduceScatterBlock, &other);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    void *result = c.leader() ? other.data() : nullptr;
    return c.coll->scatter(nullptr, result, recvcount, type, recvbuf, recvcount, type, kLeader,
                           c.local);
}

}  // namespace plexus::coll_basic
