// MPI_Sendrecv and MPI_Sendrecv_replace: the receive is posted first, then the send, then both
// are waited for, so that two processes exchanging with each other never deadlock.
#include <cstdlib>
#include <memory>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/pt2pt_start.h"

using namespace plexus::mpi;

namespace {

// When the send cannot start after the receive did, the receive must not stay posted into a
// buffer the caller takes back.
void withdraw(MpiState &s, Request *recv) {
    if (!recv->complete && !s.pml().cancel(recv)) wait_for(s, recv);
}

// Both started (recv first); waits for both and reports the receive's error before the send's.
int finish_pair(MpiState &s, Request *send, Request *recv, MPI_Status *status, const char *fn) {
    wait_for(s, recv);
    wait_for(s, send);
    if (status) fill_status(*recv, status);
    if (int rc = request_error(*recv, fn)) return rc;
    return request_error(*send, fn);
}

struct FreeDeleter {
    void operator()(void *p) const { std::free(p); }
};

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Sendrecv)
int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
    constexpr const char *fn = "MPI_Sendrecv";
    MpiState &s = running(fn);
    if (int rc = check_pt2pt(fn, Direction::Send, sendbuf, sendcount, sendtype, dest, sendtag, comm)) return rc;
    if (int rc = check_pt2pt(fn, Direction::Recv, recvbuf, recvcount, recvtype, source, recvtag, comm)) return rc;
    Request *recv = s.blocking_recv(), *send = s.blocking_send();
    describe(recv, RequestKind::Recv, SendMode::Standard, recvbuf, recvcount, recvtype, source, recvtag, comm);
    describe(send, RequestKind::Send, SendMode::Standard, sendbuf, sendcount, sendtype, dest, sendtag, comm);
    if (int rc = start(s, recv, fn)) return rc;
    if (int rc = start(s, send, fn)) {
        withdraw(s, recv);
        return rc;
    }
    return finish_pair(s, send, recv, status, fn);
}

// The outgoing data is packed into a temporary copy first, then the buffer receives.
PLEXUS_MPI_ALIAS(Sendrecv_replace)
int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
                          MPI_Comm comm, MPI_Status *status) {
    constexpr const char *fn = "MPI_Sendrecv_replace";
    MpiState &s = running(fn);
    if (int rc = check_pt2pt(fn, Direction::Send, buf, count, datatype, dest, sendtag, comm)) return rc;
    if (int rc = check_pt2pt(fn, Direction::Recv, buf, count, datatype, source, recvtag, comm)) return rc;
    const size_t bytes = packed_bytes(datatype, count);
    std::unique_ptr<void, FreeDeleter> copy(std::malloc(bytes ? bytes : 1));
    if (!copy)
        return report_errorf(comm, MPI_ERR_OTHER, "%s: out of memory for a copy of the %zu bytes to send", fn, bytes);
    pack(*datatype, buf, count, copy.get());
    Request *recv = s.blocking_recv(), *send = s.blocking_send();
    describe(recv, RequestKind::Recv, SendMode::Standard, buf, count, datatype, source, recvtag, comm);
    describe(send, RequestKind::Send, SendMode::Standard, copy.get(), count, datatype, dest, sendtag, comm);
    send->buf = copy.get();
    send->bytes = bytes;
    if (int rc = start(s, recv, fn)) return rc;
    if (int rc = start_prepared(s, send, fn)) {
        withdraw(s, recv);
        return rc;
    }
    return finish_pair(s, send, recv, status, fn);
}

}  // extern "C"
