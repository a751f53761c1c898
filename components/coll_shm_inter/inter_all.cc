// Allreduce and Allgather on an inter-communicator. Both groups on one node and small
// contributions (a slot each): one phase over the union of both groups (inter_local.h), in which
// every process writes its own and reads the other group's slots. Otherwise each group's local phase collects at its
// leader (a reduction, a gather), the leaders swap their groups' results by point-to-point, and
// each leader broadcasts the other group's result within its group. Group A ends with group B's
// data and the other way round.
#include <cstring>

#include "inter_link.h"
#include "inter_local.h"
#include "shm_buffer.h"
#include "shm_decide.h"
#include "shm_functions.h"
#include "shm_tags.h"

namespace plexus::coll_shm_inter {

using namespace inter;

namespace {

// The other group's vectors combined in its rank order, x0 op (x1 op ...), so any operation.
int union_allreduce(Call &c, TwoLevel &both, const void *sendbuf, void *recvbuf, int count,
                    plexus_coll_dtype_t *type, plexus_coll_op_t *op) {
    plexus_coll_dtype_info_t info{};
    info.struct_size = sizeof info;
    if (int rc = c.svc->dtype_info(type, &info)) return rc;
    // Combined in place in recvbuf as plain runs of items, as the engine's reductions are.
    if (!info.contiguous || info.lb != 0 || info.true_lb != 0 || info.extent <= 0)
        return PLEXUS_COLL_DECLINE;
    const size_t bytes = static_cast<size_t>(info.extent) * static_cast<size_t>(count);
    if (!union_exchange_fits(*c.m->env.params, bytes, bytes)) return PLEXUS_COLL_DECLINE;
    if (count == 0) return PLEXUS_COLL_SUCCESS;
    OpCall call{c.svc, op, type};
    const Combine combine = combine_of(&call);
    const int lo = union_other(c), hi = lo + c.remote_size;
    auto *out = static_cast<uint8_t *>(recvbuf);
    return both.engine().exchange(sendbuf, bytes, lo, hi, [&](auto slot_of) {
        std::memcpy(out, slot_of(hi - 1), bytes);
        int rc = PLEXUS_COLL_SUCCESS;
        for (int i = hi - 2; i >= lo && rc == PLEXUS_COLL_SUCCESS; --i)
            rc = combine.apply(combine.ctx, slot_of(i), out, static_cast<size_t>(count));
        return rc;
    });
}

int union_allgather(Call &c, TwoLevel &both, const void *sendbuf, int sendcount,
                    plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                    plexus_coll_dtype_t *recvtype) {
    Packed mine, all;
    if (int rc = mine.init(c.svc, sendbuf, sendcount, sendtype)) return rc;
    if (int rc = all.init(c.svc, recvbuf, static_cast<long>(recvcount) * c.remote_size, recvtype))
        return rc;
    const size_t theirs = all.bytes() / static_cast<size_t>(c.remote_size);
    if (!union_exchange_fits(*c.m->env.params, mine.bytes(), theirs)) return PLEXUS_COLL_DECLINE;
    if (mine.bytes() == 0 && theirs == 0) return PLEXUS_COLL_SUCCESS;
    if (int rc = mine.pack()) return rc;
    const int lo = union_other(c);
    uint8_t *out = all.data();
    const int rc = both.engine().exchange(mine.data(), mine.bytes(), lo, lo + c.remote_size,
                                          [&](auto slot_of) {
                                              for (int j = 0; j < c.remote_size; ++j)
                                                  std::memcpy(out + static_cast<size_t>(j) * theirs,
                                                              slot_of(lo + j), theirs);
                                              return PLEXUS_COLL_SUCCESS;
                                          });
    return rc ? rc : all.unpack();
}

}  // namespace

int inter_allreduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                    plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm) {
    Call c = call_of(self, comm);
    int made = PLEXUS_COLL_SUCCESS;
    if (TwoLevel *both = union_two(c, &made))
        if (int rc = union_allreduce(c, *both, sendbuf, recvbuf, count, type, op);
            rc != PLEXUS_COLL_DECLINE)
            return rc;
    if (made) return made;
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
    int made = PLEXUS_COLL_SUCCESS;
    if (TwoLevel *both = union_two(c, &made))
        if (int rc = union_allgather(c, *both, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                     recvtype);
            rc != PLEXUS_COLL_DECLINE)
            return rc;
    if (made) return made;
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
