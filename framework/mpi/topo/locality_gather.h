// Collecting every process's Locality over a communicator (collective over comm's group).
#pragma once

#include <vector>

#include "mpi/communicator.h"
#include "mpi/topo/locality.h"

namespace plexus::mpi::topo {

// out[r]: rank r's locality. Each process sends its node and its CPU binding; the groups come
// from hwloc on the node (processes on one node see the same machine). A process whose binding
// cannot be read counts as running anywhere on its node. Returns MPI_SUCCESS or the class of a
// failed exchange (not reported).
int gather_locality(Comm *comm, std::vector<Locality> *out);

}  // namespace plexus::mpi::topo
