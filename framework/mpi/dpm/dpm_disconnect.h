// MPI_Comm_disconnect: waits for the traffic on the communicator, synchronises both groups
// (an inter-communicator's) or the group, lets the module drop what it holds, frees the
// communicator and releases the BTL endpoints of processes no other communicator reaches.
#pragma once

#include "mpi/communicator.h"

namespace plexus::mpi::dpm {

// comm is valid (intra or inter). MPI_SUCCESS with *comm = MPI_COMM_NULL, or the reported error.
int disconnect(const char *function, Comm **comm);

}  // namespace plexus::mpi::dpm
