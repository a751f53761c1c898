// MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw: block j of rank i's sendbuf goes to block i of
// rank j's recvbuf. MPI_IN_PLACE (MPI-2.2): sendbuf, intra-communicators only; the data is taken
// from recvbuf and the send arguments are ignored. Arrays have one entry per rank one sends to
// (the remote group on an inter-communicator); Alltoallw's displacements are in bytes.
#include "mpi/api/profiling.h"
#include "mpi/coll/coll_api.h"

using namespace plexus::mpi;

namespace {

constexpr const char *kInter = "inter-communicators do not take MPI_IN_PLACE";
constexpr const char *kNotRecv = "it is never the recvbuf of an all-to-all";

bool in_place(const Comm *comm, const void *sendbuf) { return sendbuf == MPI_IN_PLACE && !comm->inter; }
const char *send_rule(const Comm *comm) { return comm->inter ? kInter : nullptr; }

// Counts, displacements and buffer of one side of Alltoallv.
int check_side(const char *fn, Comm *comm, const void *buf, const int counts[], const int displs[], MPI_Datatype type,
               bool send) {
    static constexpr coll::VSide kSend{"sendbuf", "sendcounts", "sdispls", "sendtype"};
    static constexpr coll::VSide kRecv{"recvbuf", "recvcounts", "rdispls", "recvtype"};
    return coll::check_vside(fn, comm, buf, counts, displs, type, send ? kSend : kRecv,
                             send ? send_rule(comm) : kNotRecv);
}

// The same for Alltoallw (a datatype per peer).
int check_side_w(const char *fn, Comm *comm, const void *buf, const int counts[], const int displs[],
                 const MPI_Datatype types[], bool send) {
    const int n = coll::peers(comm);
    if (int rc = coll::check_counts(fn, comm, counts, n, send ? "sendcounts" : "recvcounts")) return rc;
    if (int rc = coll::check_displs(fn, comm, displs, send ? "sdispls" : "rdispls")) return rc;
    if (int rc = coll::check_types(fn, comm, types, n, send ? "sendtypes" : "recvtypes")) return rc;
    for (int i = 0; i < n; ++i)
        if (int rc = coll::check_buffer(fn, comm, buf, counts[i] > 0 && types[i]->size > 0, types[i],
                                        send ? "sendbuf" : "recvbuf", send ? send_rule(comm) : kNotRecv))
            return rc;
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Alltoall)
int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
    constexpr const char *fn = "MPI_Alltoall";
    running(fn);
    if (int rc = coll::check_comm(fn, comm)) [[unlikely]]
        return rc;
    if (!in_place(comm, sendbuf))
        if (int rc = coll::check_data(fn, comm, sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype",
                                      send_rule(comm))) [[unlikely]]
            return rc;
    if (int rc = coll::check_data(fn, comm, recvbuf, recvcount, recvtype, "recvbuf", "recvcount", "recvtype", kNotRecv))
        [[unlikely]] return rc;
    if (coll::single(comm))
        return in_place(comm, sendbuf)
                   ? MPI_SUCCESS
                   : coll::self_copy(fn, comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    return coll::finish(comm, coll::dispatch::alltoall(nullptr, sendbuf, sendcount, coll::handle(sendtype), recvbuf,
                                                       recvcount, coll::handle(recvtype), coll::handle(comm)));
}

PLEXUS_MPI_ALIAS(Alltoallv)
int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
    constexpr const char *fn = "MPI_Alltoallv";
    running(fn);
    if (int rc = coll::check_comm(fn, comm)) [[unlikely]]
        return rc;
    if (!in_place(comm, sendbuf))
        if (int rc = check_side(fn, comm, sendbuf, sendcounts, sdispls, sendtype, true)) [[unlikely]]
            return rc;
    if (int rc = check_side(fn, comm, recvbuf, recvcounts, rdispls, recvtype, false)) [[unlikely]]
        return rc;
    if (coll::single(comm))
        return in_place(comm, sendbuf)
                   ? MPI_SUCCESS
                   : coll::self_copy(fn, comm, coll::at(sendbuf, sdispls[0], sendtype), sendcounts[0], sendtype,
                                     coll::at(recvbuf, rdispls[0], recvtype), recvcounts[0], recvtype);
    return coll::finish(comm, coll::dispatch::alltoallv(nullptr, sendbuf, sendcounts, sdispls, coll::handle(sendtype),
                                                        recvbuf, recvcounts, rdispls, coll::handle(recvtype),
                                                        coll::handle(comm)));
}

PLEXUS_MPI_ALIAS(Alltoallw)
int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm) {
    constexpr const char *fn = "MPI_Alltoallw";
    running(fn);
    if (int rc = coll::check_comm(fn, comm)) [[unlikely]]
        return rc;
    if (!in_place(comm, sendbuf))
        if (int rc = check_side_w(fn, comm, sendbuf, sendcounts, sdispls, sendtypes, true)) [[unlikely]]
            return rc;
    if (int rc = check_side_w(fn, comm, recvbuf, recvcounts, rdispls, recvtypes, false)) [[unlikely]]
        return rc;
    if (coll::single(comm))
        return in_place(comm, sendbuf)
                   ? MPI_SUCCESS
                   : coll::self_copy(fn, comm, coll::at_bytes(sendbuf, sdispls[0]), sendcounts[0], sendtypes[0],
                                     coll::at_bytes(recvbuf, rdispls[0]), recvcounts[0], recvtypes[0]);
    return coll::finish(comm, coll::dispatch::alltoallw(nullptr, sendbuf, sendcounts, sdispls, coll::handles(sendtypes),
                                                        recvbuf, recvcounts, rdispls, coll::handles(recvtypes),
                                                        coll::handle(comm)));
}

}  // extern "C"
