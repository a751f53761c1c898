// MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Initialized, MPI_Finalized, MPI_Abort.
#include <string>

#include "mpi/api/profiling.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Init)
int PMPI_Init(int *, char ***) { return MpiState::init("MPI_Init", MPI_THREAD_SINGLE, nullptr); }

PLEXUS_MPI_ALIAS(Init_thread)
int PMPI_Init_thread(int *, char ***, int required, int *provided) {
    constexpr const char *fn = "MPI_Init_thread";
    if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: invalid thread level %d: valid are MPI_THREAD_SINGLE (0), MPI_THREAD_FUNNELED (1), "
                             "MPI_THREAD_SERIALIZED (2) and MPI_THREAD_MULTIPLE (3)",
                             fn, required);
    if (!provided) return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: provided is NULL", fn);
    return MpiState::init(fn, required, provided);
}

PLEXUS_MPI_ALIAS(Finalize)
int PMPI_Finalize(void) { return MpiState::finalize(); }

PLEXUS_MPI_ALIAS(Initialized)
int PMPI_Initialized(int *flag) {
    if (!flag) return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Initialized: flag is NULL");
    *flag = g_phase != Phase::Before;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Finalized)
int PMPI_Finalized(int *flag) {
    if (!flag) return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Finalized: flag is NULL");
    *flag = g_phase == Phase::After;
    return MPI_SUCCESS;
}

// Ends every process of the job through the runtime (the launcher reports the code), whichever
// communicator is named: a communicator smaller than the world has no way to end alone.
PLEXUS_MPI_ALIAS(Abort)
int PMPI_Abort(MPI_Comm comm, int errorcode) {
    const std::string where = g_phase == Phase::Running ? " on " + comm_name(comm)
                              : g_phase == Phase::Before ? " before MPI_Init"
                                                         : " after MPI_Finalize";
    abort_job(errorcode, "MPI_Abort was called" + where + " with error code " + std::to_string(errorcode));
}

}  // extern "C"
