// MPI_Dims_create's factorization as a pure function: the free (zero) dimensions get factors of
// nnodes / (product of the fixed ones), as close to each other as possible, in non-increasing
// order.
#pragma once

#include <vector>

namespace plexus::mpi::topo {

// "As close as possible": the smallest difference between the largest and the smallest free
// dimension; among those, the smallest largest dimension (then the next, and so on). Fills the
// zero entries of dims; the caller has checked that nnodes > 0, every entry is >= 0 and the
// fixed entries divide nnodes.
void dims_create(int nnodes, std::vector<int> &dims);

}  // namespace plexus::mpi::topo
