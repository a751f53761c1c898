// Reordering a Cartesian grid onto the hardware (MPI_Cart_create with reorder): processes that
// share a node, a cache or a core get neighbouring grid positions, so that most halo traffic stays
// close. A pure function of the grid and the processes' localities.
#pragma once

#include <vector>

#include "mpi/topo/locality.h"

namespace plexus::mpi::topo {

// The cost of a placement: the sum of distance() over the grid's edges (each process and its
// next neighbour along every dimension, wrap-around included where periodic). placement[r] is
// the index in procs of the process at grid rank r.
long long placement_cost(const std::vector<int> &dims, const std::vector<int> &periods,
                         const std::vector<Locality> &procs, const std::vector<int> &placement);

// The placement for the grid (whose size is at most procs.size(); the processes 0..size-1 take
// part, as without reordering): recursive bisection that cuts the grid across its longest extent
// and the processes, sorted by locality, at the group boundary nearest the middle. Returns the
// identity unless that lowers placement_cost, so reordering never makes the grid worse by this
// measure and changes nothing where every process looks alike.
std::vector<int> grid_map(const std::vector<int> &dims, const std::vector<int> &periods,
                          const std::vector<Locality> &procs);

}  // namespace plexus::mpi::topo
