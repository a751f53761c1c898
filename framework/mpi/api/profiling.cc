// MPI_Pcontrol (MPI-2.2 section 14.2.4): a message from the program to whatever profiling tool is
// interposed (level 0 off, 1 on, 2 flush, others the tool's own). Without a tool nothing listens,
// so the library's own does nothing and always succeeds, even before MPI_Init.
#include "mpi/api/profiling.h"

#include "mpi.h"

extern "C" {

PLEXUS_MPI_ALIAS(Pcontrol)
int PMPI_Pcontrol(const int, ...) { return MPI_SUCCESS; }

}  // extern "C"
