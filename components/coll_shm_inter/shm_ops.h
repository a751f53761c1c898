// The typed collectives over a TwoLevel, what both the intra-communicator functions and the
// inter-communicator local phases call. Each returns PLEXUS_COLL_DECLINE, before anything has
// moved, where the engine does not serve the call, decided from what every process of the
// communicator knows alike (sizes, the operation, the node groups): messages past the size table
// (unless coll_shm_inter_force), reductions of datatypes that are not contiguous items starting
// at 0, gathers and scatters across nodes, counts past the services' ints.
#pragma once

#include <plexus/coll.h>

#include "shm_two_level.h"

namespace plexus::coll_shm_inter::ops {

int barrier(const Env &env, TwoLevel &two);
int bcast(const Env &env, TwoLevel &two, void *buf, int count, plexus_coll_dtype_t *type, int root);
// root < 0: every process gets the result (Allreduce).
int reduce(const Env &env, TwoLevel &two, const void *sendbuf, void *recvbuf, int count,
           plexus_coll_dtype_t *type, plexus_coll_op_t *op, int root);
// root < 0: every process gets every block (Allgather).
int gather(const Env &env, TwoLevel &two, const void *sendbuf, int sendcount,
           plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
           plexus_coll_dtype_t *recvtype, int root);
int scatter(const Env &env, TwoLevel &two, const void *sendbuf, int sendcount,
            plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
            plexus_coll_dtype_t *recvtype, int root);

}  // namespace plexus::coll_shm_inter::ops
