// MPI_Comm_disconnect: like MPI_Comm_free, but it waits for the communicator's traffic and
// releases the connections to processes of other jobs (mpi/dpm/dpm_disconnect.h).
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/dpm/dpm_disconnect.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Comm_disconnect)
int PMPI_Comm_disconnect(MPI_Comm *comm) {
    constexpr const char *fn = "MPI_Comm_disconnect";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, comm, "comm")) return rc;
    if (int rc = check_comm(fn, *comm)) return rc;
    if ((*comm)->predefined)
        return report_errorf(*comm, MPI_ERR_COMM, "%s: %s is predefined and cannot be disconnected", fn,
                             comm_name(*comm).c_str());
    return dpm::disconnect(fn, comm);
}

}  // extern "C"
