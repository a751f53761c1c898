// The Cartesian communicators: MPI_Cart_create (with the hardware-aware reordering) and
// MPI_Cart_sub. Collective; arguments checked by the caller; failures reported on comm.
#pragma once

#include "mpi/communicator.h"
#include "mpi/topo/topology.h"

namespace plexus::mpi::topo {

int cart_create(Comm *comm, int ndims, const int *dims, const int *periods, bool reorder, Comm **out);

// The grid of the dimensions remain[i] != 0 keeps, one communicator per slice of the others.
int cart_sub(Comm *comm, const Topology &grid, const int *remain, Comm **out);

}  // namespace plexus::mpi::topo
