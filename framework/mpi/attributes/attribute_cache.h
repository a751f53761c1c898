// Caching attributes on an object (MPI_Comm_set_attr, MPI_Type_set_attr ... get, delete): the
// store's entries and the delete callbacks that replacing or deleting a value runs. Keys are
// checked by the caller (a live user key of the object's kind; not freed for set); these
// functions only apply the MPI rules, the same for every kind of object.
#pragma once

#include "mpi/attributes/attribute_store.h"
#include "mpi/attributes/keyvals.h"
#include "mpi/communicator.h"

namespace plexus::mpi {

// An object attributes are cached on, as its callbacks see it.
struct AttributeHost {
    AttributeKind kind;
    void *handle;            // the MPI_Comm / MPI_Datatype / MPI_Win handed to the callbacks
    AttributeStore *store;
};

inline AttributeHost attribute_host(Comm *comm) { return {AttributeKind::Comm, comm, &comm->attributes}; }

// Caches value under keyval; a value already there is first handed to the key's delete
// callback. MPI_SUCCESS, or the callback's code (the old value then stays).
int attribute_set(AttributeHost host, int keyval, void *value);
// The value cached under keyval; false when there is none.
bool attribute_get(const AttributeStore &store, int keyval, void **value);
// Removes the value cached under keyval after its delete callback accepted it. MPI_SUCCESS, the
// callback's code (the value then stays), or -1 when no value is cached under keyval.
int attribute_delete(AttributeHost host, int keyval);

// The callback calls, with the key kept alive across them (a callback may free its own key).
int run_copy_callback(AttributeHost from, int keyval, void *value_in, void **value_out, int *flag);
int run_delete_callback(AttributeHost host, int keyval, void *value);

// The communicator forms.
inline int attribute_set(Comm *comm, int keyval, void *value) { return attribute_set(attribute_host(comm), keyval, value); }
inline bool attribute_get(const Comm *comm, int keyval, void **value) {
    return attribute_get(comm->attributes, keyval, value);
}
inline int attribute_delete(Comm *comm, int keyval) { return attribute_delete(attribute_host(comm), keyval); }

}  // namespace plexus::mpi
