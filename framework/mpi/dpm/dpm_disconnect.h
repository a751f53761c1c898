// MPI_Comm_disconnect: waits for the traffic on the communicator, synchronises both groups
// (an inter-communicator's) or the group, lets the module drop what it holds and the job
// manager's client what it learnt of the other jobs, frees the communicator and releases the BTL
// endpoints of processes no other communicator reaches.
#pragma once

#include <cstdint>
#include <vector>

#include <plexus/coll.h>

#include "mpi/communicator.h"

namespace plexus::mpi::dpm {

// comm is valid (intra or inter). MPI_SUCCESS with *comm = MPI_COMM_NULL, or the reported error.
int disconnect(const char *function, Comm **comm);

// A module call (spawn, accept, connect, join) failed after this process built its
// inter-communicator (the other side, or another process of this group, failed later): nobody
// will use it. Freed here, locally (no collective: the other side may be gone), with the BTL
// endpoints of the processes no other communicator reaches. built may be NULL.
void discard(plexus_coll_comm_t *built);

// Of ids, the processes of other jobs that no live communicator but comm (may be NULL) reaches;
// and the release of their endpoints.
std::vector<uint32_t> unreached_except(const std::vector<uint32_t> &ids, const Comm *comm);
void drop_endpoints(const std::vector<uint32_t> &gone);

}  // namespace plexus::mpi::dpm
