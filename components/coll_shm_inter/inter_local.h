// What the inter-communicator functions share: the view of one call, the typed temporaries the
// leaders use, and the local phases. A local phase runs on the module's TwoLevel over the local
// group (made at the first call that has one: collective over the local group, and every process
// of a group reaches the same calls) and, where the engine declines or shared memory cannot serve
// the group, through the local communicator's own chain (services->dispatch).
#pragma once

#include <climits>
#include <cstdint>
#include <vector>

#include <plexus/coll.h>

#include "shm_module.h"

namespace plexus::coll_shm_inter::inter {

// Rank 0 of each group leads: it carries the exchange with the other group and roots the local
// phases.
constexpr int kLeader = 0;

struct Call {
    Module *m;
    const plexus_coll_services_t *svc;
    plexus_coll_comm_t *comm;   // the inter-communicator
    plexus_coll_comm_t *local;  // its local group's intra-communicator
    int rank, size, remote_size;
    bool leader() const { return rank == kLeader; }
};
Call call_of(plexus_coll_module_t *self, plexus_coll_comm_t *comm);

// n items of type in one of the module's kept buffers (addressed true_lb before its storage):
// kept between calls, since allocating megabytes per call and touching them again costs a page
// fault per 4 KiB (coll_basic's README, "Scratch memory").
class Temp {
public:
    explicit Temp(std::vector<uint8_t> &store) : store_(store) {}
    int init(const plexus_coll_services_t *svc, plexus_coll_dtype_t *type, long n);
    void *data() { return ptr_; }

private:
    std::vector<uint8_t> &store_;
    void *ptr_ = nullptr;
};

// Bytes of count items of type.
int bytes_of(const plexus_coll_services_t *svc, plexus_coll_dtype_t *type, long count, size_t *out);

// The local phases, rooted at the leader.
int local_barrier(Call &c);  // the whole barrier (for groups without shared memory)
int local_bcast(Call &c, void *buf, int count, plexus_coll_dtype_t *type);
int local_reduce(Call &c, const void *sendbuf, void *recvbuf, int count, plexus_coll_dtype_t *type,
                 plexus_coll_op_t *op);
int local_gather(Call &c, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                 void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype);
int local_scatter(Call &c, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                  void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype);
// One node group over the union of both groups, when every process of both is on one node
// (static groups on one machine, a parent and the children it spawned): then Barrier and the
// small Allreduce, Allgather and Alltoall need no leaders' message at all, each one phase of
// flags in one segment (README, "The union of the two groups"), and Bcast and Reduce are one
// phase of the root and the other group (inter_rooted.cc). Made at the first of these calls (the
// same call in every process of both groups: the MPI layer hands them down from every process,
// the rooted calls' MPI_PROC_NULL side included); the group whose
// leader has the lower (host, pid) comes first. nullptr when it cannot be made (processes on
// several nodes, coll_shm_inter_inter_union 0, no segment): the same answer in every process.
// *rc: an error of the setup's messages.
TwoLevel *union_two(Call &c, int *rc);
// This process's group and the other group in the union: [lo, lo + size).
inline int union_mine(const Call &c) { return c.m->both_lo; }
inline int union_other(const Call &c) { return c.m->other_lo; }

// The local group's TwoLevel, made on first use; nullptr when shared memory cannot serve the
// group (every process of the group agrees). *rc: an error of the setup's messages.
TwoLevel *local_two(Call &c, int *rc);

}  // namespace plexus::coll_shm_inter::inter
