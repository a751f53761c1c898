// Finding which argument of a collective call was wrong and saying so.
#include "mpi/coll/coll_checks.h"

#include <string>

#include "mpi/error_report.h"

namespace plexus::mpi::coll {

int comm_error(const char *fn, const Comm *comm, bool intra_only) {
    if (!comm) return report_errorf(nullptr, MPI_ERR_COMM, "%s: invalid communicator: MPI_COMM_NULL", fn);
    if (!comm_valid(comm))
        return report_errorf(nullptr, MPI_ERR_COMM, "%s: invalid communicator %p: not a communicator (freed, or never made by MPI)",
                             fn, static_cast<const void *>(comm));
    if (intra_only && comm->inter)
        return report_errorf(comm, MPI_ERR_COMM, "%s: %s is an inter-communicator: %s is defined on intra-communicators only",
                             fn, comm_name(comm).c_str(), fn);
    return MPI_SUCCESS;
}

int check_root(const char *fn, const Comm *comm, int root) {
    if (!comm->inter) {
        if (root >= 0 && root < comm->size()) return MPI_SUCCESS;
        return report_errorf(comm, MPI_ERR_ROOT, "%s: invalid root %d: %s has %d rank%s (valid 0..%d)", fn, root,
                             comm_name(comm).c_str(), comm->size(), comm->size() == 1 ? "" : "s", comm->size() - 1);
    }
    if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < comm->remote_size())) return MPI_SUCCESS;
    return report_errorf(comm, MPI_ERR_ROOT,
                         "%s: invalid root %d on inter-communicator %s: the root passes MPI_ROOT, the rest of its group "
                         "MPI_PROC_NULL, and the other group the root's rank in it (valid 0..%d: the remote group has %d)",
                         fn, root, comm_name(comm).c_str(), comm->remote_size() - 1, comm->remote_size());
}

int check_rooted(const char *fn, const Comm *comm, int root, Role &role) {
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_root(fn, comm, root)) return rc;
    role = role_of(comm, root);
    return MPI_SUCCESS;
}

int count_error(const char *fn, const Comm *comm, int count, const char *arg) {
    return report_errorf(comm, MPI_ERR_COUNT, "%s: invalid %s %d: counts are 0 or more", fn, arg, count);
}

int type_error(const char *fn, const Comm *comm, const Datatype *type, const char *arg) {
    if (!type) return report_errorf(comm, MPI_ERR_TYPE, "%s: invalid %s: MPI_DATATYPE_NULL", fn, arg);
    if (type->magic != Datatype::kMagic)
        return report_errorf(comm, MPI_ERR_TYPE, "%s: invalid %s %p: not a datatype (freed, or never made by MPI)", fn,
                             arg, static_cast<const void *>(type));
    return report_errorf(comm, MPI_ERR_TYPE, "%s: %s %s is not committed (MPI_Type_commit)", fn, arg,
                         type_name(type).c_str());
}

int buffer_error(const char *fn, const Comm *comm, const void *buf, const Datatype *type, const char *arg,
                 const char *in_place_rule) {
    if (buf == MPI_IN_PLACE)
        return report_errorf(comm, MPI_ERR_BUFFER, "%s: %s is MPI_IN_PLACE, which is not allowed here: %s", fn, arg,
                             in_place_rule);
    return report_errorf(comm, MPI_ERR_BUFFER, "%s: invalid %s: NULL with data of %s to %s", fn, arg,
                         type_name(type).c_str(), arg[0] == 's' ? "send" : "receive");
}

int check_counts(const char *fn, const Comm *comm, const int counts[], int n, const char *arg) {
    if (!counts) return report_errorf(comm, MPI_ERR_ARG, "%s: %s is NULL (it needs %d entries)", fn, arg, n);
    for (int i = 0; i < n; ++i)
        if (counts[i] < 0)
            return report_errorf(comm, MPI_ERR_COUNT, "%s: invalid %s[%d] = %d: counts are 0 or more", fn, arg, i,
                                 counts[i]);
    return MPI_SUCCESS;
}

int check_displs(const char *fn, const Comm *comm, const int displs[], const char *arg) {
    if (displs) return MPI_SUCCESS;
    return report_errorf(comm, MPI_ERR_ARG, "%s: %s is NULL", fn, arg);
}

int check_vside(const char *fn, const Comm *comm, const void *buf, const int counts[], const int displs[],
                const Datatype *type, const VSide &arg, const char *in_place_rule) {
    const int n = peers(comm);
    if (int rc = check_counts(fn, comm, counts, n, arg.counts)) return rc;
    if (int rc = check_displs(fn, comm, displs, arg.displs)) return rc;
    if (int rc = check_type(fn, comm, type, arg.type)) return rc;
    const bool data = any_positive(counts, n) && type->size > 0;
    return check_buffer(fn, comm, buf, data, type, arg.buf, in_place_rule);
}

int check_types(const char *fn, const Comm *comm, const MPI_Datatype types[], int n, const char *arg) {
    if (!types) return report_errorf(comm, MPI_ERR_ARG, "%s: %s is NULL (it needs %d entries)", fn, arg, n);
    for (int i = 0; i < n; ++i) {
        if (datatype_valid(types[i])) continue;
        const std::string name = std::string(arg) + "[" + std::to_string(i) + "]";
        return check_type(fn, comm, types[i], name.c_str());
    }
    return MPI_SUCCESS;
}

bool any_positive(const int counts[], int n) {
    for (int i = 0; i < n; ++i)
        if (counts[i] > 0) return true;
    return false;
}

int local_copy_result(const char *fn, const Comm *comm, int rc) {
    if (rc == MPI_SUCCESS) return rc;
    if (rc == MPI_ERR_TRUNCATE)
        return report_errorf(comm, MPI_ERR_TRUNCATE,
                             "%s: the receive buffer is shorter than the data sent (recvcount x recvtype holds fewer "
                             "bytes than sendcount x sendtype)", fn);
    return report_errorf(comm, rc, "%s: out of memory for a local copy", fn);
}

}  // namespace plexus::mpi::coll
