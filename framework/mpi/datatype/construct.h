// Making derived datatypes: each constructor takes arguments already checked (datatype/type_args.h)
// and returns a new uncommitted type holding one program reference (the handle) and a reference to
// every type it was made of. Bounds follow MPI-2.2 (4.1.6, 4.1.7): lb/ub from the data, unless
// lb/ub markers (MPI_Type_create_resized) are in the type map; a struct's extent is padded to the
// largest alignment of its basic types when no ub marker sets it.
#pragma once

#include <vector>

#include "mpi/datatype.h"

namespace plexus::mpi {

Datatype *make_contiguous(int count, Datatype *old);
Datatype *make_vector(int count, int blocklength, int stride, Datatype *old);
Datatype *make_hvector(int count, int blocklength, MPI_Aint stride, Datatype *old);
Datatype *make_indexed(int count, const int blocklengths[], const int displacements[], Datatype *old);
Datatype *make_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[], Datatype *old);
Datatype *make_indexed_block(int count, int blocklength, const int displacements[], Datatype *old);
Datatype *make_struct(int count, const int blocklengths[], const MPI_Aint displacements[], Datatype *const types[]);
Datatype *make_resized(Datatype *old, MPI_Aint lb, MPI_Aint extent);
// A copy with the same type map and committed state (MPI_Type_dup).
Datatype *make_dup(Datatype *old);
// A type reported as made by `combiner` with these arguments (MPI_Type_get_contents) whose type
// map is that of `equivalent`, a type built of the constructors above; takes over the handle of
// `equivalent` (subarray and darray: datatype/subarray.h, darray.h).
Datatype *make_equivalent(Combiner combiner, std::vector<int> ints, Datatype *old, Datatype *equivalent);

// MPI_Type_commit: builds the program that packs it (nothing to do for predefined or committed types).
void commit(Datatype *t);

// MPI_Type_free of a derived type: the program's handle is gone; the object lives on while
// requests or other types hold it.
void free_handle(Datatype *t);
// MPI_Type_get_contents hands out a derived type as a new handle the program frees.
void add_handle(Datatype *t);

}  // namespace plexus::mpi
