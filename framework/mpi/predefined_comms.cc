// MPI_COMM_WORLD and MPI_COMM_SELF: exported objects whose addresses are the handles. They exist
// (and are valid handles) from load time; MPI_Init fills in their groups and context ids.
#include "mpi/communicator.h"

extern "C" {
plexus::mpi::Comm plexus_mpi_comm_world;
plexus::mpi::Comm plexus_mpi_comm_self;
}
