// MPI_Dist_graph_create's collective step: any process may name any edge, so each edge is sent to
// both of its ends, and each process learns its own incoming and outgoing neighbours.
#pragma once

#include "mpi/communicator.h"
#include "mpi/topo/topology.h"

namespace plexus::mpi::topo {

// This process's edges: the sources[i] -> destinations[..] lists of MPI_Dist_graph_create
// (checked by the caller; weights null when MPI_UNWEIGHTED). Fills t's sources, destinations
// and their weights, each ordered by the rank that named the edge, then by its position in that
// rank's lists. Collective over comm; returns MPI_SUCCESS or the class of a failed exchange.
int dist_graph_exchange(Comm *comm, int n, const int *sources, const int *degrees, const int *destinations,
                        const int *weights, Topology *t);

}  // namespace plexus::mpi::topo
