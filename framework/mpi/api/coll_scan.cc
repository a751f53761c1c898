// MPI_Scan and MPI_Exscan: prefix reductions, intra-communicators only. MPI_IN_PLACE: sendbuf.
// Exscan leaves rank 0's recvbuf untouched (MPI leaves it undefined).
#include "mpi/api/profiling.h"
#include "mpi/coll/coll_api.h"

using namespace plexus::mpi;

namespace {

// Every argument of a prefix reduction.
int check_prefix(const char *fn, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                 MPI_Comm comm) {
    if (int rc = coll::check_comm(fn, comm, true)) return rc;
    if (int rc = coll::check_count(fn, comm, count, "count")) return rc;
    if (int rc = coll::check_type(fn, comm, type, "datatype")) return rc;
    if (int rc = check_reduction_op(fn, comm, op, type)) return rc;
    const bool data = count > 0 && type->size > 0;
    if (int rc = coll::check_buffer(fn, comm, sendbuf, data, type, "sendbuf", nullptr)) return rc;
    return coll::check_buffer(fn, comm, recvbuf, data, type, "recvbuf", "it is never the recvbuf of a reduction");
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Scan)
int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
    constexpr const char *fn = "MPI_Scan";
    running(fn);
    if (int rc = check_prefix(fn, sendbuf, recvbuf, count, datatype, op, comm)) [[unlikely]]
        return rc;
    if (count == 0) return MPI_SUCCESS;
    if (coll::single(comm))
        return sendbuf == MPI_IN_PLACE ? MPI_SUCCESS
                                       : coll::self_copy(fn, comm, sendbuf, count, datatype, recvbuf, count, datatype);
    return coll::finish(comm, coll::dispatch::scan(nullptr, sendbuf, recvbuf, count, coll::handle(datatype),
                                                   coll::handle(op), coll::handle(comm)));
}

PLEXUS_MPI_ALIAS(Exscan)
int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
    constexpr const char *fn = "MPI_Exscan";
    running(fn);
    if (int rc = check_prefix(fn, sendbuf, recvbuf, count, datatype, op, comm)) [[unlikely]]
        return rc;
    if (count == 0 || coll::single(comm)) return MPI_SUCCESS;
    return coll::finish(comm, coll::dispatch::exscan(nullptr, sendbuf, recvbuf, count, coll::handle(datatype),
                                                     coll::handle(op), coll::handle(comm)));
}

}  // extern "C"
