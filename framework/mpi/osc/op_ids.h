// Predefined operations by a number that can travel in a message (osc services op_id /
// op_by_id): MPI_Accumulate takes predefined operations only, MPI_REPLACE included, and the
// target applies the one the origin named.
#pragma once

#include "mpi/op/op.h"

namespace plexus::mpi::osc {

// The number of a predefined operation; -1 for a user operation or an invalid handle.
int op_id(const Op *op);
// The predefined operation of that number; nullptr for any other number.
Op *op_by_id(int id);

}  // namespace plexus::mpi::osc
