// The argument checks of the MPI collective calls (api/coll_*.cc), MPI-2.2 rules, each failure
// reported on the communicator's error handler with the function, the argument and its value.
// Only arguments significant at the calling process are checked: a non-root may pass anything
// as the root's buffers, MPI_DATATYPE_NULL included.
#pragma once

#include "mpi.h"
#include "mpi/communicator.h"
#include "mpi/datatype.h"
#include "mpi/error_report.h"

namespace plexus::mpi::coll {

// The reports behind the checks below: cold, out of line, so that the checks themselves inline
// into every collective call as a few compares.
[[gnu::cold]] int comm_error(const char *fn, const Comm *comm, bool intra_only);
[[gnu::cold]] int count_error(const char *fn, const Comm *comm, int count, const char *arg);
[[gnu::cold]] int type_error(const char *fn, const Comm *comm, const Datatype *type, const char *arg);
[[gnu::cold]] int buffer_error(const char *fn, const Comm *comm, const void *buf, const Datatype *type,
                               const char *arg, const char *in_place_rule);

// A valid communicator (MPI_ERR_COMM); intra_only: inter-communicators refused too (Scan, Exscan).
inline int check_comm(const char *fn, const Comm *comm, bool intra_only = false) {
    if (comm_valid(comm) && !(intra_only && comm->inter)) [[likely]]
        return MPI_SUCCESS;
    return comm_error(fn, comm, intra_only);
}

// What the calling process does in a rooted collective.
enum class Role {
    Root,     // the root (intra: rank == root; inter: MPI_ROOT)
    Member,   // any other process of an intra-communicator, or the group opposite the root
    Idle,     // inter-communicator, root's group, not the root (MPI_PROC_NULL): takes no part
};

// root: intra 0..size-1; inter MPI_ROOT, MPI_PROC_NULL or a rank of the remote group (MPI_ERR_ROOT).
int check_root(const char *fn, const Comm *comm, int root);
// After check_root.
inline Role role_of(const Comm *comm, int root) {
    if (comm->inter) return root == MPI_ROOT ? Role::Root : root == MPI_PROC_NULL ? Role::Idle : Role::Member;
    return root == comm->rank ? Role::Root : Role::Member;
}
// The opening every rooted collective shares: check_comm, check_root, then the caller's role.
int check_rooted(const char *fn, const Comm *comm, int root, Role &role);

// count >= 0 (MPI_ERR_COUNT), arg names it ("sendcount").
inline int check_count(const char *fn, const Comm *comm, int count, const char *arg) {
    if (count >= 0) [[likely]]
        return MPI_SUCCESS;
    return count_error(fn, comm, count, arg);
}
// A valid, committed datatype (MPI_ERR_TYPE).
inline int check_type(const char *fn, const Comm *comm, const Datatype *type, const char *arg) {
    if (datatype_valid(type)) [[likely]]
        return MPI_SUCCESS;
    return type_error(fn, comm, type, arg);
}
// A buffer holding data (nonempty) of type: not NULL with a predefined type (a derived one may
// use MPI_BOTTOM). MPI_IN_PLACE: allowed when in_place_rule is null, else MPI_ERR_BUFFER with
// the rule as the reason ("MPI_Gather takes it only as the root's sendbuf").
inline int check_buffer(const char *fn, const Comm *comm, const void *buf, bool nonempty, const Datatype *type,
                        const char *arg, const char *in_place_rule) {
    const bool ok = buf == MPI_IN_PLACE ? !in_place_rule : buf || !nonempty || !type->predefined;
    if (ok) [[likely]]
        return MPI_SUCCESS;
    return buffer_error(fn, comm, buf, type, arg, in_place_rule);
}
// count, type and buffer together; the names are the arguments'.
inline int check_data(const char *fn, const Comm *comm, const void *buf, int count, const Datatype *type,
                      const char *buf_arg, const char *count_arg, const char *type_arg, const char *in_place_rule) {
    if (int rc = check_count(fn, comm, count, count_arg)) return rc;
    if (int rc = check_type(fn, comm, type, type_arg)) return rc;
    return check_buffer(fn, comm, buf, count > 0 && type->size > 0, type, buf_arg, in_place_rule);
}
// An array of n counts: not NULL (MPI_ERR_ARG), each >= 0 (MPI_ERR_COUNT, with its index).
int check_counts(const char *fn, const Comm *comm, const int counts[], int n, const char *arg);
// A displacement array: not NULL (MPI_ERR_ARG).
int check_displs(const char *fn, const Comm *comm, const int displs[], const char *arg);
// One side of a v-collective (Gatherv's receive side, Scatterv's send side, Alltoallv's both):
// peers(comm) counts, the displacements, the type, then the buffer, which holds data when some
// count is positive. The *_arg are the argument names, in_place_rule as for check_buffer.
struct VSide {
    const char *buf, *counts, *displs, *type;
};
int check_vside(const char *fn, const Comm *comm, const void *buf, const int counts[], const int displs[],
                const Datatype *type, const VSide &arg, const char *in_place_rule);
// n datatypes (MPI_Alltoallw): the array not NULL (MPI_ERR_ARG), each valid (MPI_ERR_TYPE).
int check_types(const char *fn, const Comm *comm, const MPI_Datatype types[], int n, const char *arg);
// Whether counts[0..n) has an entry > 0.
bool any_positive(const int counts[], int n);

// The number of ranks an array argument covers: the remote group on an inter-communicator.
inline int peers(const Comm *comm) { return comm->inter ? comm->remote_size() : comm->size(); }

// Reports the MPI_ERR_TRUNCATE/MPI_ERR_NO_MEM of a size-1 local copy (or returns MPI_SUCCESS).
int local_copy_result(const char *fn, const Comm *comm, int rc);

}  // namespace plexus::mpi::coll
