// Starting a buffered send from a copy in the attached buffer.
#include "mpi/buffered_send.h"

#include "mpi/pt2pt_start.h"

namespace plexus::mpi {
namespace {

void *allocate_block(MpiState &s, size_t bytes, Request *owner) {
    if (void *region = s.bsend.allocate(bytes, owner)) return region;
    // Sends that have completed since free their blocks only when somebody looks.
    s.pml().progress();
    s.reap();
    return s.bsend.allocate(bytes, owner);
}

}  // namespace

int start_buffered(MpiState &s, const char *function, const void *buf, int count, Datatype *type, int dest, int tag,
                   Comm *comm, Request *handle) {
    if (dest == MPI_PROC_NULL) return MPI_SUCCESS;
    const size_t bytes = packed_bytes(type, count);
    if (!s.bsend.attached())
        return report_errorf(comm, MPI_ERR_BUFFER,
                             "%s: no buffer is attached for a buffered send of %zu bytes (MPI_Buffer_attach one of "
                             "at least %zu bytes: the message plus MPI_BSEND_OVERHEAD)",
                             function, bytes, bytes + MPI_BSEND_OVERHEAD);
    Request *r = s.new_request();
    void *region = allocate_block(s, bytes, r);
    if (!region) {
        s.requests.put(r);
        return report_errorf(comm, MPI_ERR_BUFFER,
                             "%s: a buffered send of %zu bytes (+%d MPI_BSEND_OVERHEAD) does not fit in the attached "
                             "buffer of %zu bytes: %zu messages are still in it, the largest free block holds %zu bytes",
                             function, bytes, MPI_BSEND_OVERHEAD, s.bsend.capacity(), s.bsend.used_blocks(),
                             s.bsend.largest_free());
    }
    pack(*type, buf, count, region);
    describe(r, RequestKind::Send, SendMode::Standard, region, count, type, dest, tag, comm);
    r->buf = region;
    r->bytes = bytes;
    r->mpi_data = region;
    r->mpi_flags = kRequestBsendCopy;
    if (int rc = start_prepared(s, r, function)) {
        s.bsend.release(region);
        s.requests.put(r);
        return rc;
    }
    if (handle) {
        handle->mpi_flags |= kRequestBsendHandle;
        handle->mpi_data = r;
        handle->mpi_link_seq = r->pml.seq;
    }
    return MPI_SUCCESS;
}

Request *linked_send(const Request *handle) {
    if (!(handle->mpi_flags & kRequestBsendHandle)) return nullptr;
    auto *r = static_cast<Request *>(handle->mpi_data);
    // A request is never freed, only pooled: reading a reused one is safe, and its envelope and
    // sequence number say whether it is still our message.
    const bool same = request_valid(r) && (r->mpi_flags & kRequestBsendCopy) && r->comm == handle->comm &&
                      r->peer == handle->peer && r->tag == handle->tag && r->pml.seq == handle->mpi_link_seq;
    return same ? r : nullptr;
}

void drain_buffered(MpiState &s) {
    s.bsend.drain([&s](auto &&done) { s.pml().wait_until(done); }, [&s](Request *r) { s.requests.put(r); });
}

}  // namespace plexus::mpi
