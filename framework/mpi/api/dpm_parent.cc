// MPI_Comm_get_parent: the inter-communicator to the parents that the dpm module built in
// MPI_Init (MPI_COMM_NULL when this job was not spawned, or the program freed or disconnected it).
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/dpm/dpm.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Comm_get_parent)
int PMPI_Comm_get_parent(MPI_Comm *parent) {
    constexpr const char *fn = "MPI_Comm_get_parent";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, parent, "parent")) return rc;
    Comm *p = dpm::parent();
    *parent = p ? p : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

}  // extern "C"
