// Finding which argument was wrong and saying so.
#include "mpi/arg_check.h"

#include <string>

namespace plexus::mpi {
namespace {

std::string rank_range(const Comm *comm, Direction dir) {
    const size_t n = comm->remote_procs.size();
    std::string valid = n ? "valid 0.." + std::to_string(n - 1) + ", " : "valid: ";
    if (dir == Direction::Recv) valid += "MPI_ANY_SOURCE, ";
    return comm_name(comm) + " has " + std::to_string(n) + (n == 1 ? " rank" : " ranks") + " (" + valid + "MPI_PROC_NULL)";
}

int report_tag(const char *function, const Comm *comm, int tag, Direction dir) {
    if (dir == Direction::Send)
        return report_errorf(comm, MPI_ERR_TAG, "%s: invalid tag %d: send tags are 0..%d (MPI_TAG_UB)", function,
                             tag, kTagUpperBound);
    return report_errorf(comm, MPI_ERR_TAG, "%s: invalid tag %d: receive tags are 0..%d (MPI_TAG_UB) or MPI_ANY_TAG",
                         function, tag, kTagUpperBound);
}

int report_rank(const char *function, const Comm *comm, int peer, Direction dir) {
    return report_errorf(comm, MPI_ERR_RANK, "%s: invalid %s %d: %s", function,
                         dir == Direction::Send ? "rank" : "source rank", peer, rank_range(comm, dir).c_str());
}

}  // namespace

int check_comm(const char *function, const Comm *comm) {
    if (comm_valid(comm)) return MPI_SUCCESS;
    if (!comm) return report_errorf(nullptr, MPI_ERR_COMM, "%s: invalid communicator: MPI_COMM_NULL", function);
    return report_errorf(nullptr, MPI_ERR_COMM,
                         "%s: invalid communicator %p: not a communicator (freed, or never made by MPI)", function,
                         static_cast<const void *>(comm));
}

int check_datatype(const char *function, const Comm *comm, const Datatype *type) {
    if (datatype_valid(type)) return MPI_SUCCESS;
    if (!type) return report_errorf(comm, MPI_ERR_TYPE, "%s: invalid datatype: MPI_DATATYPE_NULL", function);
    if (type->magic != Datatype::kMagic)
        return report_errorf(comm, MPI_ERR_TYPE, "%s: invalid datatype %p: not a datatype (freed, or never made by MPI)",
                             function, static_cast<const void *>(type));
    return report_errorf(comm, MPI_ERR_TYPE, "%s: datatype %s is not committed (MPI_Type_commit)", function,
                         type_name(type).c_str());
}

int check_pointer(const char *function, const Comm *comm, const void *p, const char *name) {
    if (p) return MPI_SUCCESS;
    return report_errorf(comm, MPI_ERR_ARG, "%s: %s is NULL", function, name);
}

int diagnose_pt2pt(const char *function, Direction dir, const void *buf, int count, const Datatype *type, int peer,
                   int tag, const Comm *comm) {
    if (int rc = check_comm(function, comm)) return rc;
    if (count < 0)
        return report_errorf(comm, MPI_ERR_COUNT, "%s: invalid count %d: counts are 0 or more", function, count);
    if (int rc = check_datatype(function, comm, type)) return rc;
    if (!buf && count > 0 && type->predefined)
        return report_errorf(comm, MPI_ERR_BUFFER, "%s: invalid buffer: NULL with count %d of %s", function, count,
                             type_name(type).c_str());
    if (!peer_valid(comm, peer, dir)) return report_rank(function, comm, peer, dir);
    if (!tag_valid(tag, dir)) return report_tag(function, comm, tag, dir);
    return MPI_SUCCESS;
}

int diagnose_probe(const char *function, int source, int tag, const Comm *comm) {
    if (int rc = check_comm(function, comm)) return rc;
    if (!peer_valid(comm, source, Direction::Recv)) return report_rank(function, comm, source, Direction::Recv);
    if (!tag_valid(tag, Direction::Recv)) return report_tag(function, comm, tag, Direction::Recv);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi
