// Dispatch: a collective call on a communicator goes to the first module of its chain for that
// function (coll_state.h); a module answering PLEXUS_COLL_DECLINE hands it to the next. When
// every module declines, or none serves the function, the call fails with
// MPI_ERR_UNSUPPORTED_OPERATION; a module's own error ends the call with it.
//
// The functions have the signatures of plexus_coll_functions_t (self is ignored) and are what
// the services' `dispatch` member points to: a component reaches any communicator's collectives
// with them (an inter-communicator's local phase on comm_local). They return MPI error classes
// and keep the failure's message; the MPI API (api/coll_*.cc) calls them after its checks and
// hands a failure to the communicator's error handler with report_failure. A failure inside a
// component's nested call becomes the detail of the outer call's message.
#pragma once

#include <plexus/coll.h>

#include "mpi/communicator.h"

namespace plexus::mpi::coll {

// The dispatch functions as a table (services' `dispatch`).
const plexus_coll_functions_t &dispatch_table();

// Reports the failure of the call that returned error_class on comm (its error handler decides)
// with the message the failure left; returns what the MPI call returns.
[[gnu::cold]] int report_failure(Comm *comm, int error_class);

namespace dispatch {
int barrier(plexus_coll_module_t *, plexus_coll_comm_t *comm);
int bcast(plexus_coll_module_t *, void *buf, int count, plexus_coll_dtype_t *type, int root, plexus_coll_comm_t *comm);
int reduce(plexus_coll_module_t *, const void *sendbuf, void *recvbuf, int count, plexus_coll_dtype_t *type,
           plexus_coll_op_t *op, int root, plexus_coll_comm_t *comm);
int allreduce(plexus_coll_module_t *, const void *sendbuf, void *recvbuf, int count, plexus_coll_dtype_t *type,
              plexus_coll_op_t *op, plexus_coll_comm_t *comm);
int gather(plexus_coll_module_t *, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype, void *recvbuf,
           int recvcount, plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm);
int gatherv(plexus_coll_module_t *, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype, void *recvbuf,
            const int recvcounts[], const int displs[], plexus_coll_dtype_t *recvtype, int root,
            plexus_coll_comm_t *comm);
int scatter(plexus_coll_module_t *, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype, void *recvbuf,
            int recvcount, plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm);
int scatterv(plexus_coll_module_t *, const void *sendbuf, const int sendcounts[], const int displs[],
             plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, int root,
             plexus_coll_comm_t *comm);
int allgather(plexus_coll_module_t *, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
              void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm);
int allgatherv(plexus_coll_module_t *, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
               void *recvbuf, const int recvcounts[], const int displs[], plexus_coll_dtype_t *recvtype,
               plexus_coll_comm_t *comm);
int alltoall(plexus_coll_module_t *, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype, void *recvbuf,
             int recvcount, plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm);
int alltoallv(plexus_coll_module_t *, const void *sendbuf, const int sendcounts[], const int sdispls[],
              plexus_coll_dtype_t *sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
              plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm);
int alltoallw(plexus_coll_module_t *, const void *sendbuf, const int sendcounts[], const int sdispls[],
              plexus_coll_dtype_t *const sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
              plexus_coll_dtype_t *const recvtypes[], plexus_coll_comm_t *comm);
int reduce_scatter(plexus_coll_module_t *, const void *sendbuf, void *recvbuf, const int recvcounts[],
                   plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm);
int reduce_scatter_block(plexus_coll_module_t *, const void *sendbuf, void *recvbuf, int recvcount,
                         plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm);
int scan(plexus_coll_module_t *, const void *sendbuf, void *recvbuf, int count, plexus_coll_dtype_t *type,
         plexus_coll_op_t *op, plexus_coll_comm_t *comm);
int exscan(plexus_coll_module_t *, const void *sendbuf, void *recvbuf, int count, plexus_coll_dtype_t *type,
           plexus_coll_op_t *op, plexus_coll_comm_t *comm);
}  // namespace dispatch

}  // namespace plexus::mpi::coll
