// Making the communicator a topology lives on: collective over the old communicator, like
// MPI_Comm_create, but with the members (and their order) decided by the topology call.
#pragma once

#include <vector>

#include "mpi/communicator.h"
#include "mpi/topo/topology.h"

namespace plexus::mpi::topo {

// members[r]: the rank in comm of the process that gets rank r in the new communicator. Every
// process of comm calls this with the same members; those not among them get MPI_COMM_NULL.
// The new communicator carries topology and comm's error handler. Failures are reported on comm
// (as `function`) and returned.
int make_topo_comm(const char *function, Comm *comm, const std::vector<int> &members, TopologyRef topology,
                   Comm **out);

// The topology on comm, or null (MPI_COMM_NULL, no topology).
inline const Topology *topology_of(const Comm *comm) { return comm ? comm->topo.get() : nullptr; }

}  // namespace plexus::mpi::topo
