// User operations (MPI_Op_create / MPI_Op_free): the objects behind their handles.
#pragma once

#include "mpi/op/op.h"

namespace plexus::mpi {

// A new user operation; null when memory runs out.
Op *op_create(MPI_User_function *fn, bool commutative);

// Ends a user operation made by op_create (collectives are blocking, so none is in use by then).
// Its handle stops being valid (op_valid) for copies the program still holds, as far as the
// memory is not reused.
void op_destroy(Op *op);

}  // namespace plexus::mpi
