// MPI_Grequest_start, MPI_Grequest_complete (MPI-2.2 12.2); the completion calls reach the
// callbacks through mpi/grequest.h.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/grequest.h"

using namespace plexus::mpi;

namespace {

// MPI-2.2 has no null callback to stand for "nothing to do", so each one is required: a NULL is
// a program that forgot one, found here rather than as a jump to address 0 in MPI_Wait.
int check_callback(const char *fn, const void *callback, const char *name) {
    if (callback) return MPI_SUCCESS;
    return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                         "%s: %s is NULL: a generalized request needs all three callbacks (one that only returns "
                         "MPI_SUCCESS will do)",
                         fn, name);
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Grequest_start)
int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request) {
    constexpr const char *fn = "MPI_Grequest_start";
    MpiState &s = running(fn);
    if (int rc = check_callback(fn, reinterpret_cast<const void *>(query_fn), "query_fn")) return rc;
    if (int rc = check_callback(fn, reinterpret_cast<const void *>(free_fn), "free_fn")) return rc;
    if (int rc = check_callback(fn, reinterpret_cast<const void *>(cancel_fn), "cancel_fn")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, request, "request")) return rc;
    *request = start_grequest(s, query_fn, free_fn, cancel_fn, extra_state);
    return MPI_SUCCESS;
}

// The one call another thread may make (see mpi/grequest.h).
PLEXUS_MPI_ALIAS(Grequest_complete)
int PMPI_Grequest_complete(MPI_Request request) {
    constexpr const char *fn = "MPI_Grequest_complete";
    MpiState &s = running(fn);
    if (!request)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_REQUEST, "%s: the request is MPI_REQUEST_NULL", fn);
    return complete_grequest(s, request, fn);
}

}  // extern "C"
