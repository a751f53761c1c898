// MPI_Gather and MPI_Gatherv. Intra: everybody sends, the root receives (MPI_IN_PLACE: the
// root's sendbuf, its block already in place). Inter: the root (MPI_ROOT) receives one block per
// rank of the other group, which sends; the root's own group (MPI_PROC_NULL) hands the call down
// without arguments (coll_bcast.cc says why) and the components return at once.
#include "mpi/api/profiling.h"
#include "mpi/coll/coll_api.h"

using namespace plexus::mpi;

namespace {

constexpr const char *kInter = "inter-communicators do not take MPI_IN_PLACE";
constexpr const char *kRootOnly = "the gathers take it only as the root's sendbuf";
constexpr const char *kNotRecv = "it is never the recvbuf of a gather";
constexpr coll::VSide kVRecv{"recvbuf", "recvcounts", "displs", "recvtype"};

// The send side, where it is significant.
int check_send(const char *fn, Comm *comm, coll::Role role, const void *sendbuf, int sendcount, MPI_Datatype sendtype) {
    if (comm->inter && role != coll::Role::Member) return MPI_SUCCESS;
    if (sendbuf == MPI_IN_PLACE && !comm->inter && role == coll::Role::Root) return MPI_SUCCESS;
    const char *rule = comm->inter ? kInter : role == coll::Role::Root ? nullptr : kRootOnly;
    return coll::check_data(fn, comm, sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype", rule);
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Gather)
int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
    constexpr const char *fn = "MPI_Gather";
    running(fn);
    coll::Role role;
    if (int rc = coll::check_rooted(fn, comm, root, role)) [[unlikely]]
        return rc;
    if (role == coll::Role::Idle)
        return coll::finish(comm, coll::dispatch::gather(nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr, MPI_PROC_NULL,
                                                         coll::handle(comm)));
    if (int rc = check_send(fn, comm, role, sendbuf, sendcount, sendtype)) [[unlikely]]
        return rc;
    if (role == coll::Role::Root)
        if (int rc = coll::check_data(fn, comm, recvbuf, recvcount, recvtype, "recvbuf", "recvcount", "recvtype", kNotRecv))
            [[unlikely]] return rc;
    if (coll::single(comm))
        return sendbuf == MPI_IN_PLACE
                   ? MPI_SUCCESS
                   : coll::self_copy(fn, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    return coll::finish(comm, coll::dispatch::gather(nullptr, sendbuf, sendcount, coll::handle(sendtype), recvbuf,
                                                     recvcount, coll::handle(recvtype), root, coll::handle(comm)));
}

PLEXUS_MPI_ALIAS(Gatherv)
int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
    constexpr const char *fn = "MPI_Gatherv";
    running(fn);
    coll::Role role;
    if (int rc = coll::check_rooted(fn, comm, root, role)) [[unlikely]]
        return rc;
    if (role == coll::Role::Idle)
        return coll::finish(comm, coll::dispatch::gatherv(nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                          MPI_PROC_NULL, coll::handle(comm)));
    if (int rc = check_send(fn, comm, role, sendbuf, sendcount, sendtype)) [[unlikely]]
        return rc;
    if (role == coll::Role::Root)
        if (int rc = coll::check_vside(fn, comm, recvbuf, recvcounts, displs, recvtype, kVRecv, kNotRecv))
            [[unlikely]] return rc;
    if (coll::single(comm))
        return sendbuf == MPI_IN_PLACE ? MPI_SUCCESS
                                       : coll::self_copy(fn, comm, sendbuf, sendcount, sendtype,
                                                         coll::at(recvbuf, displs[0], recvtype), recvcounts[0], recvtype);
    return coll::finish(comm, coll::dispatch::gatherv(nullptr, sendbuf, sendcount, coll::handle(sendtype), recvbuf,
                                                      recvcounts, displs, coll::handle(recvtype), root,
                                                      coll::handle(comm)));
}

}  // extern "C"
