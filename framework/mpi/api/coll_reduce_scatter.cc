// MPI_Reduce_scatter and MPI_Reduce_scatter_block: reduce, then block i of the result goes to
// rank i. MPI_IN_PLACE: sendbuf, intra-communicators only. recvcounts has one entry per rank of
// the local group (inter-communicators too: each group describes its own share).
#include "mpi/api/profiling.h"
#include "mpi/coll/coll_api.h"

using namespace plexus::mpi;

namespace {

constexpr const char *kInter = "inter-communicators do not take MPI_IN_PLACE";
constexpr const char *kNotRecv = "it is never the recvbuf of a reduction";

int check_reduction(const char *fn, Comm *comm, MPI_Datatype type, MPI_Op op) {
    if (int rc = coll::check_type(fn, comm, type, "datatype")) return rc;
    return check_reduction_op(fn, comm, op, type);
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Reduce_scatter)
int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm) {
    constexpr const char *fn = "MPI_Reduce_scatter";
    running(fn);
    if (int rc = coll::check_comm(fn, comm)) [[unlikely]]
        return rc;
    if (int rc = coll::check_counts(fn, comm, recvcounts, comm->size(), "recvcounts")) [[unlikely]]
        return rc;
    if (int rc = check_reduction(fn, comm, datatype, op)) [[unlikely]]
        return rc;
    // Every process passes the same recvcounts: when they are all 0 here, nobody has data.
    const bool any = coll::any_positive(recvcounts, comm->size()) && datatype->size > 0;
    if (int rc = coll::check_buffer(fn, comm, sendbuf, any, datatype, "sendbuf", comm->inter ? kInter : nullptr)) [[unlikely]]
        return rc;
    if (int rc = coll::check_buffer(fn, comm, recvbuf, recvcounts[comm->rank] > 0 && datatype->size > 0, datatype,
                                    "recvbuf", kNotRecv)) [[unlikely]]
        return rc;
    if (!coll::any_positive(recvcounts, comm->size())) return MPI_SUCCESS;
    if (coll::single(comm))
        return sendbuf == MPI_IN_PLACE ? MPI_SUCCESS
                                       : coll::self_copy(fn, comm, sendbuf, recvcounts[0], datatype, recvbuf,
                                                         recvcounts[0], datatype);
    return coll::finish(comm, coll::dispatch::reduce_scatter(nullptr, sendbuf, recvbuf, recvcounts,
                                                             coll::handle(datatype), coll::handle(op), coll::handle(comm)));
}

PLEXUS_MPI_ALIAS(Reduce_scatter_block)
int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm) {
    constexpr const char *fn = "MPI_Reduce_scatter_block";
    running(fn);
    if (int rc = coll::check_comm(fn, comm)) [[unlikely]]
        return rc;
    if (int rc = coll::check_count(fn, comm, recvcount, "recvcount")) [[unlikely]]
        return rc;
    if (int rc = check_reduction(fn, comm, datatype, op)) [[unlikely]]
        return rc;
    const bool data = recvcount > 0 && datatype->size > 0;
    if (int rc = coll::check_buffer(fn, comm, sendbuf, data, datatype, "sendbuf", comm->inter ? kInter : nullptr)) [[unlikely]]
        return rc;
    if (int rc = coll::check_buffer(fn, comm, recvbuf, data, datatype, "recvbuf", kNotRecv)) [[unlikely]]
        return rc;
    if (recvcount == 0) return MPI_SUCCESS;
    if (coll::single(comm))
        return sendbuf == MPI_IN_PLACE
                   ? MPI_SUCCESS
                   : coll::self_copy(fn, comm, sendbuf, recvcount, datatype, recvbuf, recvcount, datatype);
    return coll::finish(comm, coll::dispatch::reduce_scatter_block(nullptr, sendbuf, recvbuf, recvcount,
                                                                   coll::handle(datatype), coll::handle(op),
                                                                   coll::handle(comm)));
}

}  // extern "C"
