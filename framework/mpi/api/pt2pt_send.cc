// The blocking and nonblocking sends of the standard, synchronous and ready modes. Nothing is
// allocated per message: blocking sends reuse one request, nonblocking ones take from the pool.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/pt2pt_start.h"

using namespace plexus::mpi;

namespace {

int send_blocking(const char *fn, SendMode mode, const void *buf, int count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm) {
    MpiState &s = running(fn);
    if (int rc = check_pt2pt(fn, Direction::Send, buf, count, type, dest, tag, comm)) [[unlikely]]
        return rc;
    Request *r = s.blocking_send();
    describe(r, RequestKind::Send, mode, buf, count, type, dest, tag, comm);
    if (int rc = start(s, r, fn)) [[unlikely]]
        return rc;
    wait_for(s, r);
    return request_error(*r, fn);
}

int send_nonblocking(const char *fn, SendMode mode, const void *buf, int count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm, MPI_Request *request) {
    MpiState &s = running(fn);
    if (int rc = check_pt2pt(fn, Direction::Send, buf, count, type, dest, tag, comm)) [[unlikely]]
        return rc;
    if (!request) [[unlikely]]
        return check_pointer(fn, comm, request, "request");
    Request *r = s.new_request();
    describe(r, RequestKind::Send, mode, buf, count, type, dest, tag, comm);
    hold_datatype(r);
    if (int rc = start(s, r, fn)) [[unlikely]] {
        s.requests.put(r);
        return rc;
    }
    *request = r;
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Send)
int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
    return send_blocking("MPI_Send", SendMode::Standard, buf, count, datatype, dest, tag, comm);
}

PLEXUS_MPI_ALIAS(Ssend)
int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
    return send_blocking("MPI_Ssend", SendMode::Synchronous, buf, count, datatype, dest, tag, comm);
}

PLEXUS_MPI_ALIAS(Rsend)
int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
    return send_blocking("MPI_Rsend", SendMode::Ready, buf, count, datatype, dest, tag, comm);
}

PLEXUS_MPI_ALIAS(Isend)
int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request) {
    return send_nonblocking("MPI_Isend", SendMode::Standard, buf, count, datatype, dest, tag, comm, request);
}

PLEXUS_MPI_ALIAS(Issend)
int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request) {
    return send_nonblocking("MPI_Issend", SendMode::Synchronous, buf, count, datatype, dest, tag, comm, request);
}

PLEXUS_MPI_ALIAS(Irsend)
int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request) {
    return send_nonblocking("MPI_Irsend", SendMode::Ready, buf, count, datatype, dest, tag, comm, request);
}

}  // extern "C"
