// Validating arrays of request handles before a multiple completion touches any of them.
#pragma once

#include "mpi.h"
#include "mpi/request.h"

namespace plexus::mpi {

// An invalid handle, at index (or -1 for a single request).
[[gnu::cold]] int report_invalid_request(const char *function, const Request *r, int index);

// count >= 0, the arrays present when count > 0, every handle MPI_REQUEST_NULL or valid.
// MPI_SUCCESS or the reported error.
int check_request_array(const char *function, int count, const MPI_Request *requests);

}  // namespace plexus::mpi
