// Persistent requests: MPI_Send_init, MPI_Ssend_init, MPI_Rsend_init, MPI_Bsend_init,
// MPI_Recv_init, MPI_Start, MPI_Startall. The request keeps the description; each start resets
// the outcome and starts it again.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/buffered_send.h"
#include "mpi/pt2pt_start.h"
#include "mpi/request_check.h"

using namespace plexus::mpi;

namespace {

int make_persistent(const char *fn, RequestKind kind, SendMode mode, uint32_t flags, const void *buf, int count,
                    MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Request *request) {
    MpiState &s = running(fn);
    const Direction dir = kind == RequestKind::Send ? Direction::Send : Direction::Recv;
    if (int rc = check_pt2pt(fn, dir, buf, count, type, peer, tag, comm)) return rc;
    if (int rc = check_pointer(fn, comm, request, "request")) return rc;
    Request *r = s.new_request();
    describe(r, kind, mode, buf, count, type, peer, tag, comm);
    r->persistent = true;
    r->mpi_flags = flags;
    hold_datatype(r);
    r->complete = true;  // inactive: nothing to wait for
    *request = r;
    return MPI_SUCCESS;
}

int check_startable(const char *fn, const Request *r, int index) {
    if (!request_valid(r)) return report_invalid_request(fn, r, index);
    const std::string which = index < 0 ? "the request" : "request [" + std::to_string(index) + "]";
    if (!r->persistent)
        return report_errorf(r->comm, MPI_ERR_REQUEST,
                             "%s: %s is not persistent (only requests of MPI_Send_init, MPI_Recv_init ... start)", fn,
                             which.c_str());
    if (r->active)
        return report_errorf(r->comm, MPI_ERR_REQUEST, "%s: %s is already active (complete it before starting it again)",
                             fn, which.c_str());
    return MPI_SUCCESS;
}

int restart(MpiState &s, Request *r, const char *fn) {
    r->complete = false;
    r->status = {};
    r->pml = {};
    r->mpi_flags &= kRequestBuffered | kRequestHoldsType;
    r->active = true;
    int rc;
    if (r->mpi_flags & kRequestBuffered) {
        // The user's request completes as soon as the copy is in the attached buffer.
        rc = start_buffered(s, fn, r->user_buf, r->count, r->datatype, r->peer, r->tag, r->comm, r);
        r->status.bytes = r->bytes = packed_bytes(r->datatype, r->count);
        r->complete = true;
    } else {
        rc = start(s, r, fn);
    }
    if (rc != MPI_SUCCESS) {
        r->active = false;
        r->complete = true;
    }
    return rc;
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Send_init)
int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request *request) {
    return make_persistent("MPI_Send_init", RequestKind::Send, SendMode::Standard, 0, buf, count, datatype, dest, tag,
                           comm, request);
}

PLEXUS_MPI_ALIAS(Ssend_init)
int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request) {
    return make_persistent("MPI_Ssend_init", RequestKind::Send, SendMode::Synchronous, 0, buf, count, datatype, dest,
                           tag, comm, request);
}

PLEXUS_MPI_ALIAS(Rsend_init)
int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request) {
    return make_persistent("MPI_Rsend_init", RequestKind::Send, SendMode::Ready, 0, buf, count, datatype, dest, tag,
                           comm, request);
}

PLEXUS_MPI_ALIAS(Bsend_init)
int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request) {
    return make_persistent("MPI_Bsend_init", RequestKind::Send, SendMode::Standard, kRequestBuffered, buf, count,
                           datatype, dest, tag, comm, request);
}

PLEXUS_MPI_ALIAS(Recv_init)
int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Request *request) {
    return make_persistent("MPI_Recv_init", RequestKind::Recv, SendMode::Standard, 0, buf, count, datatype, source,
                           tag, comm, request);
}

PLEXUS_MPI_ALIAS(Start)
int PMPI_Start(MPI_Request *request) {
    constexpr const char *fn = "MPI_Start";
    MpiState &s = running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, request, "request")) return rc;
    if (int rc = check_startable(fn, *request, -1)) return rc;
    return restart(s, *request, fn);
}

// Every request is checked before any starts, so that a bad one starts none.
PLEXUS_MPI_ALIAS(Startall)
int PMPI_Startall(int count, MPI_Request array_of_requests[]) {
    constexpr const char *fn = "MPI_Startall";
    MpiState &s = running(fn);
    if (int rc = check_request_array(fn, count, array_of_requests)) return rc;
    for (int i = 0; i < count; ++i)
        if (int rc = check_startable(fn, array_of_requests[i], i)) return rc;
    for (int i = 0; i < count; ++i)
        if (int rc = restart(s, array_of_requests[i], fn)) return rc;
    return MPI_SUCCESS;
}

}  // extern "C"
