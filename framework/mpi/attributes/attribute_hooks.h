// What the constructors and destructors of objects with attributes call so that cached
// attributes follow the MPI rules: copy callbacks on MPI_Comm_dup / MPI_Type_dup, delete
// callbacks when the object goes.
#pragma once

#include "mpi/attributes/attribute_cache.h"
#include "mpi/communicator.h"

namespace plexus::mpi {

// A dup: runs every keyval's copy callback of from's attributes and caches on `to` the values
// the callbacks asked for. MPI_SUCCESS, or the error code a callback returned (the copies made
// so far are deleted again; the caller then frees `to` and reports it).
int attributes_copy(AttributeHost from, AttributeHost to);

// Freeing (MPI_Comm_free, MPI_Type_free, MPI_Finalize): runs the delete callback of every
// attribute still cached, latest first, and empties the store. MPI_SUCCESS, or the error code of
// the first callback that failed.
int attributes_delete_all(AttributeHost host);

// The communicator forms.
inline int attributes_copy(Comm *from, Comm *to) { return attributes_copy(attribute_host(from), attribute_host(to)); }
inline int attributes_delete_all(Comm *comm) { return attributes_delete_all(attribute_host(comm)); }

// MPI_Finalize, first thing while MPI still runs: deletes MPI_COMM_SELF's attributes (latest
// first, as MPI requires), then MPI_COMM_WORLD's. MPI_SUCCESS or the first callback's error.
int attributes_finalize();

}  // namespace plexus::mpi
