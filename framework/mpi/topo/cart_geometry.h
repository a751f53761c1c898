// Positions in a Cartesian grid: rank <-> coordinates (row-major, the last dimension fastest),
// neighbours along one dimension, periodic wrap-around. Pure functions on a topology the caller
// has checked to be Cartesian.
#pragma once

#include <vector>

#include "mpi/topo/topology.h"

namespace plexus::mpi::topo {

// Product of the dims (1 for none).
long long grid_size(const std::vector<int> &dims);

// The coordinates of rank (0 <= rank < grid size).
std::vector<int> cart_coords(const Topology &t, int rank);

// The rank at coords, wrapping periodic dimensions; -1 when a coordinate of a non-periodic
// dimension lies outside 0..dims[i]-1, with *bad_dim set to that dimension.
int cart_rank(const Topology &t, const int *coords, int *bad_dim);

// MPI_Cart_shift: the ranks disp steps back (source) and forward (dest) of rank along
// dimension dim; MPI_PROC_NULL past the end of a non-periodic dimension.
void cart_shift(const Topology &t, int rank, int dim, int disp, int *source, int *dest);

}  // namespace plexus::mpi::topo
