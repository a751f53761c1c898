// The collectives of coll_basic, one function per (collective, communicator kind), with the
// signatures of plexus_coll_functions_t. The module (basic_module.cc) puts the intra-communicator
// set or the inter-communicator set into a communicator's table. Intra algorithms live in
// intra_*.cc, inter ones in inter_*.cc; each reaches the MPI layer only through the services of
// basic_context.h.
#pragma once

#include <plexus/coll.h>

namespace plexus::coll_basic {

#define PLEXUS_COLL_BASIC_DECLARE(prefix)                                                               \
    int prefix##_barrier(plexus_coll_module_t *self, plexus_coll_comm_t *comm);                          \
    int prefix##_bcast(plexus_coll_module_t *self, void *buf, int count, plexus_coll_dtype_t *type,      \
                       int root, plexus_coll_comm_t *comm);                                              \
    int prefix##_reduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,       \
                        plexus_coll_dtype_t *type, plexus_coll_op_t *op, int root, plexus_coll_comm_t *comm); \
    int prefix##_allreduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,    \
                           plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm);   \
    int prefix##_gather(plexus_coll_module_t *self, const void *sendbuf, int sendcount,                  \
                        plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,                     \
                        plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm);              \
    int prefix##_gatherv(plexus_coll_module_t *self, const void *sendbuf, int sendcount,                 \
                         plexus_coll_dtype_t *sendtype, void *recvbuf, const int recvcounts[],           \
                         const int displs[], plexus_coll_dtype_t *recvtype, int root,                    \
                         plexus_coll_comm_t *comm);                                                      \
    int prefix##_scatter(plexus_coll_module_t *self, const void *sendbuf, int sendcount,                 \
                         plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,                    \
                         plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm);             \
    int prefix##_scatterv(plexus_coll_module_t *self, const void *sendbuf, const int sendcounts[],       \
                          const int displs[], plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount, \
                          plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm);            \
    int prefix##_allgather(plexus_coll_module_t *self, const void *sendbuf, int sendcount,               \
                           plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,                  \
                           plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm);                     \
    int prefix##_allgatherv(plexus_coll_module_t *self, const void *sendbuf, int sendcount,              \
                            plexus_coll_dtype_t *sendtype, void *recvbuf, const int recvcounts[],        \
                            const int displs[], plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm); \
    int prefix##_alltoall(plexus_coll_module_t *self, const void *sendbuf, int sendcount,                \
                          plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,                   \
                          plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm);                      \
    int prefix##_alltoallv(plexus_coll_module_t *self, const void *sendbuf, const int sendcounts[],      \
                           const int sdispls[], plexus_coll_dtype_t *sendtype, void *recvbuf,            \
                           const int recvcounts[], const int rdispls[], plexus_coll_dtype_t *recvtype,   \
                           plexus_coll_comm_t *comm);                                                    \
    int prefix##_alltoallw(plexus_coll_module_t *self, const void *sendbuf, const int sendcounts[],      \
                           const int sdispls[], plexus_coll_dtype_t *const sendtypes[], void *recvbuf,   \
                           const int recvcounts[], const int rdispls[],                                  \
                           plexus_coll_dtype_t *const recvtypes[], plexus_coll_comm_t *comm);            \
    int prefix##_reduce_scatter(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf,          \
                                const int recvcounts[], plexus_coll_dtype_t *type, plexus_coll_op_t *op, \
                                plexus_coll_comm_t *comm);                                               \
    int prefix##_reduce_scatter_block(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf,    \
                                      int recvcount, plexus_coll_dtype_t *type, plexus_coll_op_t *op,    \
                                      plexus_coll_comm_t *comm);                                         \
    int prefix##_scan(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,         \
                      plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm);        \
    int prefix##_exscan(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,       \
                        plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm);

// intra_*.cc: every function.
PLEXUS_COLL_BASIC_DECLARE(intra)
// inter_*.cc: every function except scan and exscan (MPI defines them for intra-communicators
// only); the module leaves those two unserved on inter-communicators.
PLEXUS_COLL_BASIC_DECLARE(inter)

#undef PLEXUS_COLL_BASIC_DECLARE

}  // namespace plexus::coll_basic
