// Groups of communicators and the group queries: Comm_group, Comm_remote_group, Group_size,
// Group_rank, Group_translate_ranks, Group_compare, Group_free.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/comm/comm_checks.h"
#include "mpi/comm/group_ops.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Comm_group)
int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group) {
    constexpr const char *fn = "MPI_Comm_group";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_pointer(fn, comm, group, "group")) return rc;
    *group = make_group(comm->local_procs, self_proc());
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Comm_remote_group)
int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group) {
    constexpr const char *fn = "MPI_Comm_remote_group";
    running(fn);
    if (int rc = check_inter(fn, comm, "comm")) return rc;
    if (int rc = check_pointer(fn, comm, group, "group")) return rc;
    *group = make_group(comm->remote_procs, self_proc());
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Group_size)
int PMPI_Group_size(MPI_Group group, int *size) {
    constexpr const char *fn = "MPI_Group_size";
    running(fn);
    if (int rc = check_group(fn, group, "group")) return rc;
    if (int rc = check_pointer(fn, nullptr, size, "size")) return rc;
    *size = group->size();
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Group_rank)
int PMPI_Group_rank(MPI_Group group, int *rank) {
    constexpr const char *fn = "MPI_Group_rank";
    running(fn);
    if (int rc = check_group(fn, group, "group")) return rc;
    if (int rc = check_pointer(fn, nullptr, rank, "rank")) return rc;
    *rank = group->rank;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Group_translate_ranks)
int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]) {
    constexpr const char *fn = "MPI_Group_translate_ranks";
    running(fn);
    if (int rc = check_group(fn, group1, "group1")) return rc;
    if (int rc = check_group(fn, group2, "group2")) return rc;
    const GroupOpResult r = group_translate(group1->procs, n, ranks1, group2->procs, ranks2);
    if (!r) return report_errorf(nullptr, r.error_class, "%s: %s", fn, r.message.c_str());
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Group_compare)
int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result) {
    constexpr const char *fn = "MPI_Group_compare";
    running(fn);
    if (int rc = check_group(fn, group1, "group1")) return rc;
    if (int rc = check_group(fn, group2, "group2")) return rc;
    if (int rc = check_pointer(fn, nullptr, result, "result")) return rc;
    *result = group1 == group2 ? MPI_IDENT : group_compare(group1->procs, group2->procs);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Group_free)
int PMPI_Group_free(MPI_Group *group) {
    constexpr const char *fn = "MPI_Group_free";
    running(fn);
    if (int rc = check_pointer(fn, nullptr, group, "group")) return rc;
    if (int rc = check_group(fn, *group, "*group")) return rc;
    group_release(*group);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

}  // extern "C"
