// Generalized requests (MPI-2.2 12.2): requests whose operation the program carries out itself
// and ends with MPI_Grequest_complete, often from a thread of its own. The completion calls
// reach the program's callbacks through here: query_fn for the status, free_fn when the request
// goes, cancel_fn for MPI_Cancel.
//
// MPI_Grequest_complete may run on any thread (it is the one call MPI_THREAD_FUNNELED lets
// other threads make here); everything else runs on the thread that called MPI_Init. The
// completing thread touches only the request's atomic event bits and one global signal; the
// main thread's progress turns a signalled completion into Request::complete, so that the
// completion calls, which read that flag, need no lock.
#pragma once

#include <atomic>

#include "mpi.h"
#include "mpi/mpi_state.h"
#include "mpi/request.h"
#include "mpi/request_flags.h"

namespace plexus::mpi {

struct Grequest {
    MPI_Grequest_query_function *query_fn;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel_fn;
    void *extra_state;
    std::atomic<unsigned> events{0};  // GrequestEvent bits
};

enum GrequestEvent : unsigned {
    kGreqCompleted = 1u << 0,   // MPI_Grequest_complete has run
    kGreqFreed = 1u << 1,       // MPI_Request_free came before it
    kGreqReleasable = 1u << 2,  // after both: free_fn has returned (called by the completing thread)
};

inline bool is_grequest(const Request *r) { return (r->mpi_flags & kRequestGeneralized) != 0; }

// MPI_Grequest_start: a new active request (the callbacks were checked).
Request *start_grequest(MpiState &s, MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state);

// MPI_Grequest_complete, on any thread. MPI_ERR_REQUEST when r is not a live generalized request
// or was completed already; free_fn's code when the request had been freed (free_fn runs here).
int complete_grequest(MpiState &s, Request *r, const char *function);

// A completion call (Wait, Test ... of one or many) ends r: query_fn fills status (a scratch one
// under MPI_STATUS_IGNORE), free_fn runs, the request goes back to the pool and *handle becomes
// MPI_REQUEST_NULL. Returns free_fn's code when it failed, else query_fn's, reported on
// MPI_COMM_WORLD like any error.
int finish_grequest(MpiState &s, MPI_Request *handle, MPI_Status *status, const char *function);

// MPI_Request_get_status of a completed r: query_fn fills status, r stays. query_fn's code.
int query_grequest(const Request &r, MPI_Status *status, const char *function);

// MPI_Request_free: free_fn runs now when the program completed r already, else in
// MPI_Grequest_complete; *handle becomes MPI_REQUEST_NULL. free_fn's code, or MPI_SUCCESS.
int free_grequest(MpiState &s, MPI_Request *handle, const char *function);

// MPI_Cancel: cancel_fn, told whether MPI_Grequest_complete has run. cancel_fn's code.
int cancel_grequest(const Request &r, const char *function);

}  // namespace plexus::mpi
