// Communicators from communicators: Comm_dup, Comm_split, Comm_create (intra- and
// inter-communicator forms), and Comm_free. The collective work is in comm/.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/comm/comm_build.h"
#include "mpi/comm/comm_checks.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Comm_dup)
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
    constexpr const char *fn = "MPI_Comm_dup";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_pointer(fn, comm, newcomm, "newcomm")) return rc;
    return comm_dup(comm, newcomm);
}

PLEXUS_MPI_ALIAS(Comm_split)
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
    constexpr const char *fn = "MPI_Comm_split";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (color < 0 && color != MPI_UNDEFINED)
        return report_errorf(comm, MPI_ERR_ARG, "%s: invalid color %d: colors are 0 or more, or MPI_UNDEFINED", fn,
                             color);
    if (int rc = check_pointer(fn, comm, newcomm, "newcomm")) return rc;
    return comm_split(comm, color, key, newcomm);
}

PLEXUS_MPI_ALIAS(Comm_create)
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm) {
    constexpr const char *fn = "MPI_Comm_create";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_group(fn, group, "group")) return rc;
    if (int rc = check_subgroup(fn, comm, group)) return rc;
    if (int rc = check_pointer(fn, comm, newcomm, "newcomm")) return rc;
    return comm_create(comm, group, newcomm);
}

PLEXUS_MPI_ALIAS(Comm_free)
int PMPI_Comm_free(MPI_Comm *comm) {
    constexpr const char *fn = "MPI_Comm_free";
    running(fn);
    if (int rc = check_pointer(fn, nullptr, comm, "comm")) return rc;
    if (int rc = check_comm(fn, *comm)) return rc;
    if ((*comm)->predefined)
        return report_errorf(*comm, MPI_ERR_COMM, "%s: %s is predefined and cannot be freed", fn,
                             comm_name(*comm).c_str());
    return comm_free(comm);
}

}  // extern "C"
