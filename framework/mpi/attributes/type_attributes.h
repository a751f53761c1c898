// Attributes cached on datatypes (MPI_Type_set_attr ...): the datatype as an attribute host, and
// what MPI_Type_dup and MPI_Type_free run (copy and delete callbacks), through the same cache
// and hooks as communicators.
#pragma once

#include "mpi/attributes/attribute_cache.h"
#include "mpi/datatype.h"

namespace plexus::mpi {

// The type as its callbacks see it; its store is made on first use.
AttributeHost attribute_host(Datatype *type);

// MPI_Type_dup: the copy callbacks of from's attributes, onto `to`. MPI_SUCCESS or the failing
// callback's code (the copies made are deleted again; the caller frees `to`).
int type_attributes_copy(Datatype *from, Datatype *to);
// MPI_Type_free: every delete callback, latest first; the store goes. MPI_SUCCESS or the first
// failing callback's code.
int type_attributes_free(Datatype *type);

// MPI_Type_dup with the copy callbacks: *dup is the new type, or on a callback's failure nothing
// is made and its code returned.
int dup_type(Datatype *old, Datatype **dup);
// MPI_Type_free of a derived type's handle: when it is the program's last handle, the delete
// callbacks run first; a failing one's code is returned and the handle stays (its attributes
// are gone, as for a communicator).
int free_type(Datatype *type);

}  // namespace plexus::mpi
