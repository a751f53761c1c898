// MPI_Comm_set_info and MPI_Comm_get_info (MPI-3 calls, offered for the communicator hints such
// as plexus_coll_preference). The communicator keeps a copy of every hint it was given; set_info
// adds or replaces the keys of info and leaves the others; get_info returns a new info object
// with all of them, which the program frees.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/coll/coll_state.h"
#include "mpi/info/info.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

int check_info(const char *fn, const Comm *comm, const Info *info) {
    if (info_valid(info)) return MPI_SUCCESS;
    if (!info) return report_errorf(comm, MPI_ERR_INFO, "%s: invalid info: MPI_INFO_NULL", fn);
    return report_errorf(comm, MPI_ERR_INFO, "%s: invalid info %p: not an info object (freed, or never made by MPI)", fn,
                         static_cast<const void *>(info));
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Comm_set_info)
int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
    constexpr const char *fn = "MPI_Comm_set_info";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_info(fn, comm, info)) return rc;
    coll::set_hints(comm, *info);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Comm_get_info)
int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used) {
    constexpr const char *fn = "MPI_Comm_get_info";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_pointer(fn, comm, info_used, "info_used")) return rc;
    *info_used = comm->coll ? new Info(comm->coll->hints) : new Info;
    return MPI_SUCCESS;
}

}  // extern "C"
