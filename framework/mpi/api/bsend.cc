// MPI_Bsend, MPI_Ibsend, MPI_Buffer_attach, MPI_Buffer_detach.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/buffered_send.h"
#include "mpi/pt2pt_start.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Bsend)
int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
    constexpr const char *fn = "MPI_Bsend";
    MpiState &s = running(fn);
    if (int rc = check_pt2pt(fn, Direction::Send, buf, count, datatype, dest, tag, comm)) return rc;
    return start_buffered(s, fn, buf, count, datatype, dest, tag, comm);
}

// The request the user gets is complete as soon as the data is in the attached buffer.
PLEXUS_MPI_ALIAS(Ibsend)
int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request) {
    constexpr const char *fn = "MPI_Ibsend";
    MpiState &s = running(fn);
    if (int rc = check_pt2pt(fn, Direction::Send, buf, count, datatype, dest, tag, comm)) return rc;
    if (int rc = check_pointer(fn, comm, request, "request")) return rc;
    Request *r = s.new_request();
    describe(r, RequestKind::Send, SendMode::Standard, buf, count, datatype, dest, tag, comm);
    r->mpi_flags = kRequestLocal;
    // Linked to the internal send, which MPI_Cancel withdraws.
    if (int rc = start_buffered(s, fn, buf, count, datatype, dest, tag, comm, r)) {
        s.requests.put(r);
        return rc;
    }
    r->bytes = r->status.bytes = packed_bytes(datatype, count);
    r->complete = true;
    *request = r;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Buffer_attach)
int PMPI_Buffer_attach(void *buffer, int size) {
    constexpr const char *fn = "MPI_Buffer_attach";
    MpiState &s = running(fn);
    if (size < 0) return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid size %d: sizes are 0 or more", fn, size);
    if (!buffer && size > 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_BUFFER, "%s: invalid buffer: NULL with size %d", fn, size);
    if (s.bsend.attached())
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_BUFFER,
                             "%s: a buffer of %zu bytes is already attached (MPI_Buffer_detach it first)", fn,
                             s.bsend.capacity());
    s.bsend.attach(buffer, static_cast<size_t>(size));
    return MPI_SUCCESS;
}

// Waits until every buffered message has been sent, then hands the buffer back.
PLEXUS_MPI_ALIAS(Buffer_detach)
int PMPI_Buffer_detach(void *buffer_addr, int *size) {
    constexpr const char *fn = "MPI_Buffer_detach";
    MpiState &s = running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, buffer_addr, "buffer_addr")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, size, "size")) return rc;
    void *buf = nullptr;
    size_t bytes = 0;
    if (s.bsend.attached()) {
        drain_buffered(s);
        s.bsend.detach(&buf, &bytes);
    }
    *static_cast<void **>(buffer_addr) = buf;
    *size = static_cast<int>(bytes);
    return MPI_SUCCESS;
}

}  // extern "C"
