// MPI_Allgather and MPI_Allgatherv: everybody's block to everybody. MPI_IN_PLACE: sendbuf,
// intra-communicators only (each rank's block already in its place in recvbuf). Inter: each
// group receives the other group's blocks (recvcounts/displs: one entry per remote rank).
#include "mpi/api/profiling.h"
#include "mpi/coll/coll_api.h"

using namespace plexus::mpi;

namespace {

constexpr const char *kInter = "inter-communicators do not take MPI_IN_PLACE";
constexpr const char *kNotRecv = "it is never the recvbuf of an allgather";
constexpr coll::VSide kVRecv{"recvbuf", "recvcounts", "displs", "recvtype"};

int check_send(const char *fn, Comm *comm, const void *sendbuf, int sendcount, MPI_Datatype sendtype) {
    if (sendbuf == MPI_IN_PLACE && !comm->inter) return MPI_SUCCESS;
    return coll::check_data(fn, comm, sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype",
                            comm->inter ? kInter : nullptr);
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Allgather)
int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm) {
    constexpr const char *fn = "MPI_Allgather";
    running(fn);
    if (int rc = coll::check_comm(fn, comm)) [[unlikely]]
        return rc;
    if (int rc = check_send(fn, comm, sendbuf, sendcount, sendtype)) [[unlikely]]
        return rc;
    if (int rc = coll::check_data(fn, comm, recvbuf, recvcount, recvtype, "recvbuf", "recvcount", "recvtype", kNotRecv))
        [[unlikely]] return rc;
    if (coll::single(comm))
        return sendbuf == MPI_IN_PLACE
                   ? MPI_SUCCESS
                   : coll::self_copy(fn, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    return coll::finish(comm, coll::dispatch::allgather(nullptr, sendbuf, sendcount, coll::handle(sendtype), recvbuf,
                                                        recvcount, coll::handle(recvtype), coll::handle(comm)));
}

PLEXUS_MPI_ALIAS(Allgatherv)
int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
    constexpr const char *fn = "MPI_Allgatherv";
    running(fn);
    if (int rc = coll::check_comm(fn, comm)) [[unlikely]]
        return rc;
    if (int rc = check_send(fn, comm, sendbuf, sendcount, sendtype)) [[unlikely]]
        return rc;
    if (int rc = coll::check_vside(fn, comm, recvbuf, recvcounts, displs, recvtype, kVRecv, kNotRecv))
        [[unlikely]] return rc;
    if (coll::single(comm))
        return sendbuf == MPI_IN_PLACE ? MPI_SUCCESS
                                       : coll::self_copy(fn, comm, sendbuf, sendcount, sendtype,
                                                         coll::at(recvbuf, displs[0], recvtype), recvcounts[0], recvtype);
    return coll::finish(comm, coll::dispatch::allgatherv(nullptr, sendbuf, sendcount, coll::handle(sendtype), recvbuf,
                                                         recvcounts, displs, coll::handle(recvtype), coll::handle(comm)));
}

}  // extern "C"
