// Messages for bad request handles.
#include "mpi/request_check.h"

#include "mpi/error_report.h"
#include "mpi/request_complete.h"

namespace plexus::mpi {

int report_invalid_request(const char *function, const Request *r, int index) {
    const std::string which = index < 0 ? "request" : "request [" + std::to_string(index) + "]";
    return report_errorf(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                         "%s: invalid %s %p: not a request (already completed and freed, or never made by MPI)",
                         function, which.c_str(), static_cast<const void *>(r));
}

int check_request_array(const char *function, int count, const MPI_Request *requests) {
    if (count < 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_COUNT, "%s: invalid count %d: counts are 0 or more", function,
                             count);
    if (count > 0 && !requests)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: array_of_requests is NULL with count %d", function,
                             count);
    for (int i = 0; i < count; ++i)
        if (requests[i] && !request_valid(requests[i])) return report_invalid_request(function, requests[i], i);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi
