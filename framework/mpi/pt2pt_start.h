// Turning a described operation (user buffer, count, datatype, peer, tag, comm) into what the
// PML takes and starting it. Contiguous datatypes go as bytes; types with holes go as the user's
// buffer marked typed, which the PML packs and unpacks fragment by fragment (no whole-message
// copy); MPI_PROC_NULL completes at once.
#pragma once

#include "mpi.h"
#include "mpi/datatype.h"
#include "mpi/mpi_state.h"
#include "mpi/request.h"
#include "mpi/request_complete.h"

namespace plexus::mpi {

inline void describe(Request *r, RequestKind kind, SendMode mode, const void *buf, int count, Datatype *type,
                     int peer, int tag, Comm *comm) {
    r->kind = kind;
    r->mode = mode;
    r->user_buf = buf;
    r->count = count;
    r->datatype = type;
    r->peer = peer;
    r->tag = tag;
    r->comm = comm;
}

[[gnu::cold]] int start_failed(Request *r, int error_class, const char *function);

// Starts r with buf and bytes already set (no datatype work).
inline int start_prepared(MpiState &s, Request *r, const char *function) {
    if (r->peer == MPI_PROC_NULL) [[unlikely]] {
        complete_proc_null(r);
        return MPI_SUCCESS;
    }
    const int rc = r->kind == Request::Kind::Send ? s.pml().start_send(r) : s.pml().start_recv(r);
    if (rc != MPI_SUCCESS) [[unlikely]]
        return start_failed(r, rc, function);
    return MPI_SUCCESS;
}

// Starts the operation describe() put into r.
inline int start(MpiState &s, Request *r, const char *function) {
    const Datatype *t = r->datatype;
    r->bytes = packed_bytes(t, r->count);
    r->typed = !t->contiguous;
    r->buf = t->contiguous ? const_cast<void *>(data_start(r->user_buf, *t)) : const_cast<void *>(r->user_buf);
    return start_prepared(s, r, function);
}

// A request that outlives its call keeps its derived datatype alive until it goes back to the
// pool (RequestPool::put releases it); predefined types are never counted.
inline void hold_datatype(Request *r) {
    if (!r->datatype->predefined) [[unlikely]] {
        datatype_retain(r->datatype);
        r->mpi_flags |= kRequestHoldsType;
    }
}

// Waits for r (progress with back-off).
inline void wait_for(MpiState &s, const Request *r) {
    if (!r->complete) s.pml().wait_until([r] { return r->complete; });
}

}  // namespace plexus::mpi
