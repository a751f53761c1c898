// Argument checks of the topology calls (MPI-2.2 chapter 7), each reporting on the communicator
// what is wrong with which argument: MPI_ERR_TOPOLOGY for a communicator without the topology a
// call needs or a topology larger than its communicator, MPI_ERR_DIMS for bad dimensions,
// MPI_ERR_RANK for ranks, MPI_ERR_ARG for the rest.
#pragma once

#include "mpi.h"
#include "mpi/communicator.h"
#include "mpi/topo/topology.h"

namespace plexus::mpi::topo {

// comm is a valid communicator with a topology of `kind`; *out gets it.
int check_topology(const char *function, const Comm *comm, Kind kind, const Topology **out);

// ndims >= 0, dims[i] > 0, periods given, the grid no larger than comm (an intra-communicator).
int check_grid(const char *function, const Comm *comm, int ndims, const int *dims, const int *periods);

// nnodes in 0..size of comm, index non-decreasing from >= 0, every edge a node of the graph.
int check_graph(const char *function, const Comm *comm, int nnodes, const int *index, const int *edges);

// A list of `count` ranks of comm (`what`: "sources", "destinations"); MPI_ERR_RANK for one
// outside comm.
int check_rank_list(const char *function, const Comm *comm, const int *ranks, int count, const char *what);

// weights of `count` edges: MPI_UNWEIGHTED, or (when count > 0) a list of non-negative values.
int check_weights(const char *function, const Comm *comm, const int *weights, int count, const char *what);

// A count argument (degree, n, maxdims ...) that must be >= 0.
int check_count(const char *function, const Comm *comm, int value, const char *what);

// The communicator a topology is built on: valid, and an intra-communicator (MPI_ERR_COMM).
int check_topology_parent(const char *function, const Comm *comm);

}  // namespace plexus::mpi::topo
