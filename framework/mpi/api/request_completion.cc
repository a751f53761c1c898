// MPI_Wait, MPI_Test, MPI_Request_get_status, MPI_Request_free.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/pt2pt_start.h"
#include "mpi/request_check.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Wait)
int PMPI_Wait(MPI_Request *request, MPI_Status *status) {
    constexpr const char *fn = "MPI_Wait";
    MpiState &s = running(fn);
    if (!request) [[unlikely]]
        return check_pointer(fn, MPI_COMM_WORLD, request, "request");
    Request *r = *request;
    if (!r || request_inactive(r)) [[unlikely]] {
        if (status) set_empty_status(status);
        return MPI_SUCCESS;
    }
    if (!request_valid(r)) [[unlikely]]
        return report_invalid_request(fn, r, -1);
    wait_for(s, r);
    return complete_one(s, request, status, fn);
}

PLEXUS_MPI_ALIAS(Test)
int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
    constexpr const char *fn = "MPI_Test";
    MpiState &s = running(fn);
    if (!request || !flag) [[unlikely]]
        return check_pointer(fn, MPI_COMM_WORLD, nullptr, request ? "flag" : "request");
    Request *r = *request;
    if (!r || request_inactive(r)) [[unlikely]] {
        *flag = 1;
        if (status) set_empty_status(status);
        return MPI_SUCCESS;
    }
    if (!request_valid(r)) [[unlikely]]
        return report_invalid_request(fn, r, -1);
    if (!r->complete) s.pml().progress();
    if (!r->complete) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    *flag = 1;
    return complete_one(s, request, status, fn);
}

// Like MPI_Test, but the request stays as it is (not freed, not made inactive).
PLEXUS_MPI_ALIAS(Request_get_status)
int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status) {
    constexpr const char *fn = "MPI_Request_get_status";
    MpiState &s = running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, flag, "flag")) return rc;
    if (!request || request_inactive(request)) {
        *flag = 1;
        if (status) set_empty_status(status);
        return MPI_SUCCESS;
    }
    if (!request_valid(request)) return report_invalid_request(fn, request, -1);
    if (!request->complete) s.pml().progress();
    *flag = request->complete;
    if (!request->complete) return MPI_SUCCESS;
    if (is_grequest(request)) return query_grequest(*request, status, fn);
    if (status) fill_status(*request, status);
    return request_error(*request, fn);
}

// An active request is released once it completes (MpiState::reap); the handle is gone now.
PLEXUS_MPI_ALIAS(Request_free)
int PMPI_Request_free(MPI_Request *request) {
    constexpr const char *fn = "MPI_Request_free";
    MpiState &s = running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, request, "request")) return rc;
    Request *r = *request;
    if (!r)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_REQUEST, "%s: the request is MPI_REQUEST_NULL", fn);
    if (!request_valid(r)) return report_invalid_request(fn, r, -1);
    if (is_grequest(r)) return free_grequest(s, request, fn);  // free_fn now, or at its completion
    *request = MPI_REQUEST_NULL;
    if (r->complete || request_inactive(r)) {
        s.requests.put(r);
        return MPI_SUCCESS;
    }
    r->user_freed = true;
    r->mpi_next = s.freed_active;
    s.freed_active = r;
    return MPI_SUCCESS;
}

}  // extern "C"
