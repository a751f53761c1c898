// What happens when a request has completed: its status goes to the user (count in bytes, the
// user's MPI_ERROR left alone by single completions), packed data is unpacked, an error the PML
// recorded (truncation) is reported, and the request becomes inactive or goes back to the pool.
#pragma once

#include "mpi.h"
#include "mpi/grequest.h"
#include "mpi/mpi_state.h"
#include "mpi/request.h"
#include "mpi/request_flags.h"

namespace plexus::mpi {

inline bool request_valid(const Request *r) { return r && r->mpi_magic == Request::kLiveMagic; }
// A request that has nothing to wait for: a persistent one not started.
inline bool request_inactive(const Request *r) { return r->persistent && !r->active; }

// The status of an empty request (MPI_REQUEST_NULL, inactive): any source, any tag, no data.
inline void set_empty_status(MPI_Status *s) {
    s->MPI_SOURCE = MPI_ANY_SOURCE;
    s->MPI_TAG = MPI_ANY_TAG;
    s->MPI_ERROR = MPI_SUCCESS;
    s->plexus_cancelled = 0;
    s->plexus_count = 0;
}

// Everything but MPI_ERROR. A truncated receive reports what fitted.
inline void fill_status(const Request &r, MPI_Status *s) {
    s->MPI_SOURCE = r.status.source;
    s->MPI_TAG = r.status.tag;
    s->plexus_cancelled = r.status.cancelled;
    s->plexus_count = r.status.bytes < r.bytes || r.kind == Request::Kind::Send ? r.status.bytes : r.bytes;
}

[[gnu::cold]] int report_request_error(const Request &r, const char *function);
// MPI_SUCCESS, or the error the PML recorded, reported to the request's communicator.
inline int request_error(const Request &r, const char *function) {
    if (r.status.error == MPI_SUCCESS) [[likely]]
        return MPI_SUCCESS;
    return report_request_error(r, function);
}

// A completed request is done with: persistent ones become inactive, others go back to the pool
// and the handle becomes MPI_REQUEST_NULL.
inline void retire(MpiState &s, MPI_Request *handle) {
    Request *r = *handle;
    if (r->persistent) {
        r->active = false;
        return;
    }
    s.requests.put(r);
    *handle = MPI_REQUEST_NULL;
}

// The usual end of a single completion (Wait, Test, Waitany, Testany): status, data, error, retire.
inline int complete_one(MpiState &s, MPI_Request *handle, MPI_Status *status, const char *function) {
    Request *r = *handle;
    if (is_grequest(r)) [[unlikely]]
        return finish_grequest(s, handle, status, function);  // the program's query_fn and free_fn
    if (status) fill_status(*r, status);
    const int rc = request_error(*r, function);
    retire(s, handle);
    return rc;
}

// Completes r at once as MPI_PROC_NULL operations do: source MPI_PROC_NULL, tag MPI_ANY_TAG, no data.
inline void complete_proc_null(Request *r) {
    r->status.source = MPI_PROC_NULL;
    r->status.tag = MPI_ANY_TAG;
    r->status.bytes = 0;
    r->status.error = MPI_SUCCESS;
    r->mpi_flags |= kRequestLocal;
    r->complete = true;
}

}  // namespace plexus::mpi
