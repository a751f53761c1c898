// MPI_Type_create_subarray: every argument checked (a subarray must lie inside its array), then
// the layout of datatype/subarray.h. The new type reports MPI_COMBINER_SUBARRAY with the
// arguments it was made with.
#include "mpi/api/profiling.h"
#include "mpi/datatype/subarray.h"
#include "mpi/datatype/type_args.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

// Each dimension: 1 <= subsizes[i] <= sizes[i], 0 <= starts[i] <= sizes[i] - subsizes[i].
int check_dimension(const char *fn, int i, int size, int subsize, int start) {
    if (size < 1)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid array_of_sizes[%d] = %d: sizes are 1 or more",
                             fn, i, size);
    if (subsize < 1 || subsize > size)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: invalid array_of_subsizes[%d] = %d: 1..array_of_sizes[%d] (%d)", fn, i, subsize, i,
                             size);
    if (start < 0 || start > size - subsize)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: invalid array_of_starts[%d] = %d: the subarray (%d elements from there) lies "
                             "outside the array's %d; starts are 0..%d",
                             fn, i, start, subsize, size, size - subsize);
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Type_create_subarray)
int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype) {
    constexpr const char *fn = "MPI_Type_create_subarray";
    running(fn);
    if (ndims < 1)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid ndims %d: an array has 1 or more dimensions",
                             fn, ndims);
    if (int rc = check_array(fn, array_of_sizes, ndims, "array_of_sizes")) return rc;
    if (int rc = check_array(fn, array_of_subsizes, ndims, "array_of_subsizes")) return rc;
    if (int rc = check_array(fn, array_of_starts, ndims, "array_of_starts")) return rc;
    for (int i = 0; i < ndims; ++i)
        if (int rc = check_dimension(fn, i, array_of_sizes[i], array_of_subsizes[i], array_of_starts[i])) return rc;
    if (int rc = check_order(fn, order)) return rc;
    if (int rc = check_type_arg(fn, oldtype, "oldtype")) return rc;
    if (int rc = check_array_extent(fn, ndims, array_of_sizes, oldtype, "array_of_sizes")) return rc;
    if (int rc = check_newtype(fn, newtype)) return rc;
    *newtype = make_subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order, oldtype);
    return MPI_SUCCESS;
}

}  // extern "C"
