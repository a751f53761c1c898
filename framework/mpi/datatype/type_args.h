// Argument checks of the datatype calls (constructors, queries, MPI_Pack/Unpack): each returns
// MPI_SUCCESS or reports the error (to MPI_COMM_WORLD's handler unless a communicator is given)
// with the function, the argument and its value in the message.
#pragma once

#include "mpi.h"
#include "mpi/datatype.h"

namespace plexus::mpi {

// A type to build from or to query: valid, committed or not (MPI_ERR_TYPE).
int check_type_arg(const char *function, const Datatype *type, const char *name);
// A count of items or blocks (MPI_ERR_COUNT when negative).
int check_count_arg(const char *function, int count, const char *name);
// A block length (MPI_ERR_ARG when negative); index < 0 for a single one.
int check_blocklength(const char *function, int blocklength, int index);
// An input array of count entries (MPI_ERR_ARG when NULL and count > 0).
int check_array(const char *function, const void *array, int count, const char *name);
// Where the new type goes (MPI_ERR_ARG when NULL).
int check_newtype(const char *function, const MPI_Datatype *newtype);
// Every blocklengths[i] >= 0.
int check_blocklengths(const char *function, int count, const int blocklengths[]);
// The arguments the indexed forms share (MPI-2 and MPI-1 names alike).
int check_indexed(const char *function, int count, const int blocklengths[], const void *displacements,
                  MPI_Datatype oldtype, MPI_Datatype *newtype);
// The arguments of both struct forms, every type named by its index.
int check_struct(const char *function, int count, const int blocklengths[], const MPI_Aint displacements[],
                 const MPI_Datatype types[], MPI_Datatype *newtype);
// MPI_ORDER_C or MPI_ORDER_FORTRAN (MPI_ERR_ARG).
int check_order(const char *function, int order);
// An array of sizes[] elements of old (subarray, darray) whose extent an MPI_Aint holds (MPI_ERR_ARG).
int check_array_extent(const char *function, int ndims, const int sizes[], const Datatype *old, const char *name);

}  // namespace plexus::mpi
