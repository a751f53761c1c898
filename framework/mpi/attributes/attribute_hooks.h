// What the communicator constructors and destructors call so that cached attributes follow the
// MPI rules: copy callbacks on MPI_Comm_dup, delete callbacks when a communicator goes.
#pragma once

#include "mpi/communicator.h"

namespace plexus::mpi {

// MPI_Comm_dup: runs every keyval's copy callback of from's attributes and caches on to the
// values the callbacks asked for. MPI_SUCCESS, or the error code a callback returned (the caller
// then frees `to` and reports it).
int attributes_copy(Comm *from, Comm *to);

// MPI_Comm_free, MPI_Finalize (MPI_COMM_SELF first, then MPI_COMM_WORLD): runs the delete
// callback of every attribute still cached on comm, latest first, and empties comm's store.
// MPI_SUCCESS, or the error code of the first callback that failed.
int attributes_delete_all(Comm *comm);

// MPI_Finalize, first thing while MPI still runs: deletes MPI_COMM_SELF's attributes (latest
// first, as MPI requires), then MPI_COMM_WORLD's. MPI_SUCCESS or the first callback's error.
int attributes_finalize();

}  // namespace plexus::mpi
