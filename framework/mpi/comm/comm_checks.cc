// Checks and messages of the group and communicator calls.
#include "mpi/comm/comm_checks.h"

#include <unordered_set>

#include "mpi/arg_check.h"
#include "mpi/mpi_state.h"

namespace plexus::mpi {

uint32_t self_proc() { return g_mpi->procs().self(); }

int check_group(const char *function, const Group *group, const char *name) {
    if (group_valid(group)) return MPI_SUCCESS;
    if (!group) return report_errorf(nullptr, MPI_ERR_GROUP, "%s: invalid %s: MPI_GROUP_NULL", function, name);
    return report_errorf(nullptr, MPI_ERR_GROUP, "%s: invalid %s %p: not a group (freed, or never made by MPI)",
                         function, name, static_cast<const void *>(group));
}

int check_intra(const char *function, const Comm *comm, const char *name) {
    if (int rc = check_comm(function, comm)) return rc;
    if (!comm->inter) return MPI_SUCCESS;
    return report_errorf(comm, MPI_ERR_COMM, "%s: %s %s is an inter-communicator; this call needs an intra-communicator",
                         function, name, comm_name(comm).c_str());
}

int check_inter(const char *function, const Comm *comm, const char *name) {
    if (int rc = check_comm(function, comm)) return rc;
    if (comm->inter) return MPI_SUCCESS;
    return report_errorf(comm, MPI_ERR_COMM, "%s: %s %s is an intra-communicator; this call needs an inter-communicator",
                         function, name, comm_name(comm).c_str());
}

int check_local_rank(const char *function, const Comm *comm, int rank, const char *name) {
    if (rank >= 0 && rank < comm->size()) return MPI_SUCCESS;
    return report_errorf(comm, MPI_ERR_RANK, "%s: invalid %s %d: %s has %d process(es) (valid 0..%d)", function, name,
                         rank, comm_name(comm).c_str(), comm->size(), comm->size() - 1);
}

int check_subgroup(const char *function, const Comm *comm, const Group *group) {
    const std::unordered_set<uint32_t> members(comm->local_procs.begin(), comm->local_procs.end());
    for (size_t r = 0; r < group->procs.size(); ++r) {
        if (members.count(group->procs[r])) continue;
        return report_errorf(comm, MPI_ERR_GROUP, "%s: group is not a subgroup of the %sgroup of %s: its rank %zu "
                             "(MPI_COMM_WORLD rank %u) is not a member", function, comm->inter ? "local " : "",
                             comm_name(comm).c_str(), r, group->procs[r]);
    }
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi
