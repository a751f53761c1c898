// Caching attributes on a communicator (MPI_Comm_set_attr, get, delete): the store's entries and
// the delete callbacks that replacing or deleting a value runs. Keys are checked by the caller
// (a live user key; not freed for set); these functions only apply the MPI rules.
#pragma once

#include "mpi/communicator.h"

namespace plexus::mpi {

// Caches value under keyval; a value already there is first handed to the key's delete
// callback. MPI_SUCCESS, or the callback's code (the old value then stays).
int attribute_set(Comm *comm, int keyval, void *value);
// The value cached under keyval; false when there is none.
bool attribute_get(const Comm *comm, int keyval, void **value);
// Removes the value cached under keyval after its delete callback accepted it. MPI_SUCCESS, the
// callback's code (the value then stays), or -1 when no value is cached under keyval.
int attribute_delete(Comm *comm, int keyval);

// The callback calls, with the key kept alive across them (a callback may free its own key).
int run_copy_callback(Comm *from, int keyval, void *value_in, void **value_out, int *flag);
int run_delete_callback(Comm *comm, int keyval, void *value);

}  // namespace plexus::mpi
