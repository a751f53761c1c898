// MPI_Waitany, MPI_Testany, MPI_Waitall, MPI_Testall, MPI_Waitsome, MPI_Testsome. A request that
// failed (truncation) makes the *all and *some calls return MPI_ERR_IN_STATUS with each status's
// MPI_ERROR saying which (MPI_SUCCESS for the others); with MPI_STATUSES_IGNORE they return the
// first failure's code instead, the only place left to say it.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/pt2pt_start.h"
#include "mpi/request_check.h"

using namespace plexus::mpi;

namespace {

// Started and not yet completed by the user (null and inactive requests are not).
bool active(const Request *r) { return r && !request_inactive(r); }
bool pending(const Request *r) { return active(r) && !r->complete; }

// Completes one request of an array; its status gets MPI_ERROR too.
int complete_in_array(MpiState &s, MPI_Request *handle, MPI_Status *status, const char *fn) {
    Request *r = *handle;
    if (is_grequest(r)) [[unlikely]] {
        const int rc = finish_grequest(s, handle, status, fn);
        if (status) status->MPI_ERROR = rc;
        return rc;
    }
    const int rc = request_error(*r, fn);
    if (status) {
        fill_status(*r, status);
        status->MPI_ERROR = rc;
    }
    retire(s, handle);
    return rc;
}

int array_result(int first_error, const MPI_Status *statuses) {
    if (first_error == MPI_SUCCESS) return MPI_SUCCESS;
    return statuses ? MPI_ERR_IN_STATUS : first_error;
}

int first_complete(int count, const MPI_Request *requests) {
    for (int i = 0; i < count; ++i)
        if (active(requests[i]) && requests[i]->complete) return i;
    return MPI_UNDEFINED;
}

bool any_active(int count, const MPI_Request *requests) {
    for (int i = 0; i < count; ++i)
        if (active(requests[i])) return true;
    return false;
}

// True when no request of the array is pending; *next skips those already seen complete.
bool all_complete(int count, const MPI_Request *requests, int *next) {
    while (*next < count && !pending(requests[*next])) ++*next;
    return *next == count;
}

int complete_all(MpiState &s, int count, MPI_Request *requests, MPI_Status *statuses, const char *fn) {
    int first_error = MPI_SUCCESS;
    for (int i = 0; i < count; ++i) {
        MPI_Status *status = statuses ? &statuses[i] : nullptr;
        if (!active(requests[i])) {
            if (status) set_empty_status(status);
            continue;
        }
        const int rc = complete_in_array(s, &requests[i], status, fn);
        if (first_error == MPI_SUCCESS) first_error = rc;
    }
    return array_result(first_error, statuses);
}

int complete_some(MpiState &s, int count, MPI_Request *requests, int *outcount, int *indices, MPI_Status *statuses,
                  const char *fn) {
    int first_error = MPI_SUCCESS, done = 0;
    for (int i = 0; i < count; ++i) {
        if (!active(requests[i]) || !requests[i]->complete) continue;
        indices[done] = i;
        const int rc = complete_in_array(s, &requests[i], statuses ? &statuses[done] : nullptr, fn);
        if (first_error == MPI_SUCCESS) first_error = rc;
        ++done;
    }
    *outcount = done;
    return array_result(first_error, statuses);
}

int check_any(const char *fn, int count, MPI_Request *requests, int *index) {
    if (int rc = check_request_array(fn, count, requests)) return rc;
    return check_pointer(fn, MPI_COMM_WORLD, index, "index");
}

int check_some(const char *fn, int count, MPI_Request *requests, int *outcount, int *indices) {
    if (int rc = check_request_array(fn, count, requests)) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, outcount, "outcount")) return rc;
    return count > 0 ? check_pointer(fn, MPI_COMM_WORLD, indices, "array_of_indices") : MPI_SUCCESS;
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Waitany)
int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status) {
    constexpr const char *fn = "MPI_Waitany";
    MpiState &s = running(fn);
    if (int rc = check_any(fn, count, array_of_requests, index)) return rc;
    if (!any_active(count, array_of_requests)) {
        *index = MPI_UNDEFINED;
        if (status) set_empty_status(status);
        return MPI_SUCCESS;
    }
    int found = MPI_UNDEFINED;
    s.pml().wait_until([&] { return (found = first_complete(count, array_of_requests)) != MPI_UNDEFINED; });
    *index = found;
    return complete_one(s, &array_of_requests[found], status, fn);
}

PLEXUS_MPI_ALIAS(Testany)
int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status) {
    constexpr const char *fn = "MPI_Testany";
    MpiState &s = running(fn);
    if (int rc = check_any(fn, count, array_of_requests, index)) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, flag, "flag")) return rc;
    *index = MPI_UNDEFINED;
    if (!any_active(count, array_of_requests)) {
        *flag = 1;
        if (status) set_empty_status(status);
        return MPI_SUCCESS;
    }
    int found = first_complete(count, array_of_requests);
    if (found == MPI_UNDEFINED) {
        s.pml().progress();
        found = first_complete(count, array_of_requests);
    }
    *flag = found != MPI_UNDEFINED;
    if (found == MPI_UNDEFINED) return MPI_SUCCESS;
    *index = found;
    return complete_one(s, &array_of_requests[found], status, fn);
}

PLEXUS_MPI_ALIAS(Waitall)
int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
    constexpr const char *fn = "MPI_Waitall";
    MpiState &s = running(fn);
    if (int rc = check_request_array(fn, count, array_of_requests)) return rc;
    int next = 0;
    if (!all_complete(count, array_of_requests, &next))
        s.pml().wait_until([&] { return all_complete(count, array_of_requests, &next); });
    return complete_all(s, count, array_of_requests, array_of_statuses, fn);
}

PLEXUS_MPI_ALIAS(Testall)
int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]) {
    constexpr const char *fn = "MPI_Testall";
    MpiState &s = running(fn);
    if (int rc = check_request_array(fn, count, array_of_requests)) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, flag, "flag")) return rc;
    int next = 0;
    if (!all_complete(count, array_of_requests, &next)) {
        s.pml().progress();
        if (!all_complete(count, array_of_requests, &next)) {
            *flag = 0;
            return MPI_SUCCESS;
        }
    }
    *flag = 1;
    return complete_all(s, count, array_of_requests, array_of_statuses, fn);
}

PLEXUS_MPI_ALIAS(Waitsome)
int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                  MPI_Status array_of_statuses[]) {
    constexpr const char *fn = "MPI_Waitsome";
    MpiState &s = running(fn);
    if (int rc = check_some(fn, incount, array_of_requests, outcount, array_of_indices)) return rc;
    if (!any_active(incount, array_of_requests)) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    s.pml().wait_until([&] { return first_complete(incount, array_of_requests) != MPI_UNDEFINED; });
    return complete_some(s, incount, array_of_requests, outcount, array_of_indices, array_of_statuses, fn);
}

PLEXUS_MPI_ALIAS(Testsome)
int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                  MPI_Status array_of_statuses[]) {
    constexpr const char *fn = "MPI_Testsome";
    MpiState &s = running(fn);
    if (int rc = check_some(fn, incount, array_of_requests, outcount, array_of_indices)) return rc;
    if (!any_active(incount, array_of_requests)) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    if (first_complete(incount, array_of_requests) == MPI_UNDEFINED) s.pml().progress();
    return complete_some(s, incount, array_of_requests, outcount, array_of_indices, array_of_statuses, fn);
}

}  // extern "C"
