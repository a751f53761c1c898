// MPI_Reduce and MPI_Allreduce. MPI_IN_PLACE: the root's sendbuf (Reduce), everybody's sendbuf
// (Allreduce), intra-communicators only. An inter-communicator's Reduce goes down from every
// process of both groups, MPI_PROC_NULL and count 0 included (coll_bcast.cc says why).
#include "mpi/api/profiling.h"
#include "mpi/coll/coll_api.h"

using namespace plexus::mpi;

namespace {

constexpr const char *kInter = "inter-communicators do not take MPI_IN_PLACE";
constexpr const char *kNotRecv = "it is never the recvbuf of a reduction";

// count, datatype and op: the same at every process of a reduction.
int check_reduction(const char *fn, Comm *comm, int count, MPI_Datatype type, MPI_Op op) {
    if (int rc = coll::check_count(fn, comm, count, "count")) return rc;
    if (int rc = coll::check_type(fn, comm, type, "datatype")) return rc;
    return check_reduction_op(fn, comm, op, type);
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Reduce)
int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm) {
    constexpr const char *fn = "MPI_Reduce";
    running(fn);
    coll::Role role;
    if (int rc = coll::check_rooted(fn, comm, root, role)) [[unlikely]]
        return rc;
    if (role == coll::Role::Idle)
        return coll::finish(comm, coll::dispatch::reduce(nullptr, nullptr, nullptr, 0, nullptr, nullptr, MPI_PROC_NULL,
                                                         coll::handle(comm)));
    if (int rc = check_reduction(fn, comm, count, datatype, op)) [[unlikely]]
        return rc;
    const bool data = count > 0 && datatype->size > 0;
    // Intra: everybody sends, the root receives. Inter: the root receives, the other group sends.
    const bool sends = !comm->inter || role == coll::Role::Member;
    if (sends) {
        const char *rule = comm->inter ? kInter : role == coll::Role::Root ? nullptr
                                                                           : "MPI_Reduce takes it only as the root's sendbuf";
        if (int rc = coll::check_buffer(fn, comm, sendbuf, data, datatype, "sendbuf", rule)) [[unlikely]]
            return rc;
    }
    if (role == coll::Role::Root)
        if (int rc = coll::check_buffer(fn, comm, recvbuf, data, datatype, "recvbuf", kNotRecv)) [[unlikely]]
            return rc;
    if (count == 0 && !comm->inter) return MPI_SUCCESS;
    if (coll::single(comm))
        return sendbuf == MPI_IN_PLACE ? MPI_SUCCESS
                                       : coll::self_copy(fn, comm, sendbuf, count, datatype, recvbuf, count, datatype);
    return coll::finish(comm, coll::dispatch::reduce(nullptr, sendbuf, recvbuf, count, coll::handle(datatype),
                                                     coll::handle(op), root, coll::handle(comm)));
}

PLEXUS_MPI_ALIAS(Allreduce)
int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
    constexpr const char *fn = "MPI_Allreduce";
    running(fn);
    if (int rc = coll::check_comm(fn, comm)) [[unlikely]]
        return rc;
    if (int rc = check_reduction(fn, comm, count, datatype, op)) [[unlikely]]
        return rc;
    const bool data = count > 0 && datatype->size > 0;
    if (int rc = coll::check_buffer(fn, comm, sendbuf, data, datatype, "sendbuf", comm->inter ? kInter : nullptr)) [[unlikely]]
        return rc;
    if (int rc = coll::check_buffer(fn, comm, recvbuf, data, datatype, "recvbuf", kNotRecv)) [[unlikely]]
        return rc;
    if (count == 0) return MPI_SUCCESS;
    if (coll::single(comm))
        return sendbuf == MPI_IN_PLACE ? MPI_SUCCESS
                                       : coll::self_copy(fn, comm, sendbuf, count, datatype, recvbuf, count, datatype);
    return coll::finish(comm, coll::dispatch::allreduce(nullptr, sendbuf, recvbuf, count, coll::handle(datatype),
                                                        coll::handle(op), coll::handle(comm)));
}

}  // extern "C"
