// Questions about communicators: Comm_compare, Comm_test_inter, Comm_remote_size.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/comm/comm_checks.h"
#include "mpi/comm/comm_compare.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Comm_compare)
int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result) {
    constexpr const char *fn = "MPI_Comm_compare";
    running(fn);
    if (int rc = check_comm(fn, comm1)) return rc;
    if (int rc = check_comm(fn, comm2)) return rc;
    if (int rc = check_pointer(fn, comm1, result, "result")) return rc;
    *result = comm_compare(comm1, comm2);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Comm_test_inter)
int PMPI_Comm_test_inter(MPI_Comm comm, int *flag) {
    constexpr const char *fn = "MPI_Comm_test_inter";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_pointer(fn, comm, flag, "flag")) return rc;
    *flag = comm->inter;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Comm_remote_size)
int PMPI_Comm_remote_size(MPI_Comm comm, int *size) {
    constexpr const char *fn = "MPI_Comm_remote_size";
    running(fn);
    if (int rc = check_inter(fn, comm, "comm")) return rc;
    if (int rc = check_pointer(fn, comm, size, "size")) return rc;
    *size = comm->remote_size();
    return MPI_SUCCESS;
}

}  // extern "C"
