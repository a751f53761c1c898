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
// The local group's TwoLevel, made on first use; nullptr when shared memory cannot serve the
// group (every process of the group agrees). *rc: an error of the setup's messages.
TwoLevel *local_two(Call &c, int *rc);

}  // namespace plexus::coll_shm_inter::inter
