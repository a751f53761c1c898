// MPI_Comm_compare as a pure function of two communicators' groups.
#pragma once

#include "mpi/communicator.h"

namespace plexus::mpi {

// MPI_IDENT (the same object), MPI_CONGRUENT (same groups in the same order; for
// inter-communicators both the local and the remote group), MPI_SIMILAR (same members, other
// order) or MPI_UNEQUAL (including an intra- against an inter-communicator).
int comm_compare(const Comm *a, const Comm *b);

}  // namespace plexus::mpi
