// The module functions, with the signatures of plexus_coll_functions_t: the intra-communicator
// set (intra_functions.cc, over the communicator's TwoLevel) and the inter-communicator set
// (inter_*.cc, a local phase per group plus the leaders' exchange).
#pragma once

#include <plexus/coll.h>

namespace plexus::coll_shm_inter {

int intra_barrier(plexus_coll_module_t *self, plexus_coll_comm_t *comm);
int intra_bcast(plexus_coll_module_t *self, void *buf, int count, plexus_coll_dtype_t *type,
                int root, plexus_coll_comm_t *comm);
int intra_reduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                 plexus_coll_dtype_t *type, plexus_coll_op_t *op, int root,
                 plexus_coll_comm_t *comm);
int intra_allreduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                    plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm);
int intra_gather(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                 plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                 plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm);
int intra_scatter(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                  plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                  plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm);
int intra_allgather(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                    plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                    plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm);

int inter_barrier(plexus_coll_module_t *self, plexus_coll_comm_t *comm);
int inter_bcast(plexus_coll_module_t *self, void *buf, int count, plexus_coll_dtype_t *type,
                int root, plexus_coll_comm_t *comm);
int inter_reduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                 plexus_coll_dtype_t *type, plexus_coll_op_t *op, int root,
                 plexus_coll_comm_t *comm);
int inter_allreduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                    plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm);
int inter_gather(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                 plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                 plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm);
int inter_scatter(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                  plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                  plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm);
int inter_reduce_scatter(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf,
                         const int recvcounts[], plexus_coll_dtype_t *type, plexus_coll_op_t *op,
                         plexus_coll_comm_t *comm);
int inter_reduce_scatter_block(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf,
                               int recvcount, plexus_coll_dtype_t *type, plexus_coll_op_t *op,
                               plexus_coll_comm_t *comm);
int inter_alltoall(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                   plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                   plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm);
int inter_allgather(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                    plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                    plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm);

}  // namespace plexus::coll_shm_inter
