// MPI_Scatter and MPI_Scatterv. Intra: the root sends block i to rank i, everybody receives
// (MPI_IN_PLACE: the root's recvbuf, its block left where it is). Inter: the root (MPI_ROOT)
// sends one block per rank of the other group, which receives; MPI_PROC_NULL hands the call down
// without arguments (coll_bcast.cc says why) and the components return at once.
#include "mpi/api/profiling.h"
#include "mpi/coll/coll_api.h"

using namespace plexus::mpi;

namespace {

constexpr const char *kInter = "inter-communicators do not take MPI_IN_PLACE";
constexpr const char *kRootOnly = "the scatters take it only as the root's recvbuf";
constexpr const char *kNotSend = "it is never the sendbuf of a scatter";
constexpr coll::VSide kVSend{"sendbuf", "sendcounts", "displs", "sendtype"};

// The receive side, where it is significant.
int check_recv(const char *fn, Comm *comm, coll::Role role, void *recvbuf, int recvcount, MPI_Datatype recvtype) {
    if (comm->inter && role != coll::Role::Member) return MPI_SUCCESS;
    if (recvbuf == MPI_IN_PLACE && !comm->inter && role == coll::Role::Root) return MPI_SUCCESS;
    const char *rule = comm->inter ? kInter : kRootOnly;
    return coll::check_data(fn, comm, recvbuf, recvcount, recvtype, "recvbuf", "recvcount", "recvtype", rule);
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Scatter)
int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm) {
    constexpr const char *fn = "MPI_Scatter";
    running(fn);
    coll::Role role;
    if (int rc = coll::check_rooted(fn, comm, root, role)) [[unlikely]]
        return rc;
    if (role == coll::Role::Idle)
        return coll::finish(comm, coll::dispatch::scatter(nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr, MPI_PROC_NULL,
                                                          coll::handle(comm)));
    if (role == coll::Role::Root)
        if (int rc = coll::check_data(fn, comm, sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype", kNotSend))
            [[unlikely]] return rc;
    if (int rc = check_recv(fn, comm, role, recvbuf, recvcount, recvtype)) [[unlikely]]
        return rc;
    if (coll::single(comm))
        return recvbuf == MPI_IN_PLACE
                   ? MPI_SUCCESS
                   : coll::self_copy(fn, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    return coll::finish(comm, coll::dispatch::scatter(nullptr, sendbuf, sendcount, coll::handle(sendtype), recvbuf,
                                                      recvcount, coll::handle(recvtype), root, coll::handle(comm)));
}

PLEXUS_MPI_ALIAS(Scatterv)
int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    constexpr const char *fn = "MPI_Scatterv";
    running(fn);
    coll::Role role;
    if (int rc = coll::check_rooted(fn, comm, root, role)) [[unlikely]]
        return rc;
    if (role == coll::Role::Idle)
        return coll::finish(comm, coll::dispatch::scatterv(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr,
                                                           MPI_PROC_NULL, coll::handle(comm)));
    if (role == coll::Role::Root)
        if (int rc = coll::check_vside(fn, comm, sendbuf, sendcounts, displs, sendtype, kVSend, kNotSend))
            [[unlikely]] return rc;
    if (int rc = check_recv(fn, comm, role, recvbuf, recvcount, recvtype)) [[unlikely]]
        return rc;
    if (coll::single(comm))
        return recvbuf == MPI_IN_PLACE ? MPI_SUCCESS
                                       : coll::self_copy(fn, comm, coll::at(sendbuf, displs[0], sendtype), sendcounts[0],
                                                         sendtype, recvbuf, recvcount, recvtype);
    return coll::finish(comm, coll::dispatch::scatterv(nullptr, sendbuf, sendcounts, displs, coll::handle(sendtype),
                                                       recvbuf, recvcount, coll::handle(recvtype), root,
                                                       coll::handle(comm)));
}

}  // extern "C"
