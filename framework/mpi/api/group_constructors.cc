// Groups made from groups: Group_incl, excl, range_incl, range_excl, union, intersection,
// difference. The work is in comm/group_ops (pure, unit-tested); here the handles.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/comm/comm_checks.h"
#include "mpi/comm/group_ops.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

int finish(const char *fn, GroupOpResult r, MPI_Group *newgroup) {
    if (!r) return report_errorf(nullptr, r.error_class, "%s: %s", fn, r.message.c_str());
    *newgroup = make_group(std::move(r.procs), self_proc());
    return MPI_SUCCESS;
}

// Union, intersection, difference: two groups in, one out.
template <class Op>
int set_op(const char *fn, MPI_Group group1, MPI_Group group2, MPI_Group *newgroup, Op op) {
    running(fn);
    if (int rc = check_group(fn, group1, "group1")) return rc;
    if (int rc = check_group(fn, group2, "group2")) return rc;
    if (int rc = check_pointer(fn, nullptr, newgroup, "newgroup")) return rc;
    *newgroup = make_group(op(group1->procs, group2->procs), self_proc());
    return MPI_SUCCESS;
}

// Incl, excl and their range forms: one group and a list in, one group out.
template <class List, class Op>
int list_op(const char *fn, MPI_Group group, int n, List list, MPI_Group *newgroup, Op op) {
    running(fn);
    if (int rc = check_group(fn, group, "group")) return rc;
    if (int rc = check_pointer(fn, nullptr, newgroup, "newgroup")) return rc;
    return finish(fn, op(group->procs, n, list), newgroup);
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Group_incl)
int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup) {
    return list_op("MPI_Group_incl", group, n, ranks, newgroup, group_incl);
}

PLEXUS_MPI_ALIAS(Group_excl)
int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup) {
    return list_op("MPI_Group_excl", group, n, ranks, newgroup, group_excl);
}

PLEXUS_MPI_ALIAS(Group_range_incl)
int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup) {
    return list_op("MPI_Group_range_incl", group, n, const_cast<const int(*)[3]>(ranges), newgroup, group_range_incl);
}

PLEXUS_MPI_ALIAS(Group_range_excl)
int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup) {
    return list_op("MPI_Group_range_excl", group, n, const_cast<const int(*)[3]>(ranges), newgroup, group_range_excl);
}

PLEXUS_MPI_ALIAS(Group_union)
int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) {
    return set_op("MPI_Group_union", group1, group2, newgroup, group_union);
}

PLEXUS_MPI_ALIAS(Group_intersection)
int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) {
    return set_op("MPI_Group_intersection", group1, group2, newgroup, group_intersection);
}

PLEXUS_MPI_ALIAS(Group_difference)
int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) {
    return set_op("MPI_Group_difference", group1, group2, newgroup, group_difference);
}

}  // extern "C"
