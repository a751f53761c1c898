// Argument checks of the calls that reduce (MPI_Reduce_local; the collectives may use
// check_reduction_op too): each failure is reported (error_report.h) with a message naming the
// call, the argument and what is valid.
#pragma once

#include <string>

#include "mpi/communicator.h"
#include "mpi/op/op.h"

namespace plexus::mpi {

// "MPI_SUM", "a user operation", or placeholders for MPI_OP_NULL and invalid handles.
std::string op_name(const Op *op);

// The op argument of a reduction on items of type (a valid type): a valid handle (MPI_ERR_OP),
// not MPI_REPLACE (one-sided accumulate only; MPI-2.2 5.9.2 does not list it: MPI_ERR_OP), and
// allowed for type (MPI_ERR_OP with op_allowed's message). MPI_SUCCESS or the reported error.
int check_reduction_op(const char *function, const Comm *comm, const Op *op, const Datatype *type);

// All of MPI_Reduce_local's arguments, reported to MPI_COMM_WORLD's handler: op handle
// (MPI_ERR_OP), type (MPI_ERR_TYPE), count (MPI_ERR_COUNT), op for type (MPI_ERR_OP), buffers
// (MPI_ERR_BUFFER: NULL with a predefined type, MPI_IN_PLACE, or the same buffer twice).
int check_reduce_local(const void *inbuf, const void *inoutbuf, int count, const Datatype *type, const Op *op);

}  // namespace plexus::mpi
