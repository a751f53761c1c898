// MPI_Type_size, MPI_Type_get_extent, MPI_Type_get_true_extent, MPI_Get_count,
// MPI_Get_elements: what a type holds, and what a status's byte count is in its items.
#include <climits>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/datatype/type_args.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Type_size)
int PMPI_Type_size(MPI_Datatype datatype, int *size) {
    constexpr const char *fn = "MPI_Type_size";
    running(fn);
    if (int rc = check_type_arg(fn, datatype, "datatype")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, size, "size")) return rc;
    *size = datatype->size > size_t(INT_MAX) ? MPI_UNDEFINED : static_cast<int>(datatype->size);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_get_extent)
int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent) {
    constexpr const char *fn = "MPI_Type_get_extent";
    running(fn);
    if (int rc = check_type_arg(fn, datatype, "datatype")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, lb, "lb")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, extent, "extent")) return rc;
    *lb = datatype->lb;
    *extent = datatype->extent;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_get_true_extent)
int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent) {
    constexpr const char *fn = "MPI_Type_get_true_extent";
    running(fn);
    if (int rc = check_type_arg(fn, datatype, "datatype")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, true_lb, "true_lb")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, true_extent, "true_extent")) return rc;
    *true_lb = datatype->true_lb;
    *true_extent = datatype->true_extent;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Get_count)
int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count) {
    constexpr const char *fn = "MPI_Get_count";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, status, "status")) return rc;
    if (int rc = check_type_arg(fn, datatype, "datatype")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, count, "count")) return rc;
    *count = count_of(*datatype, status->plexus_count);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Get_elements)
int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count) {
    constexpr const char *fn = "MPI_Get_elements";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, status, "status")) return rc;
    if (int rc = check_type_arg(fn, datatype, "datatype")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, count, "count")) return rc;
    *count = elements_of(*datatype, status->plexus_count);
    return MPI_SUCCESS;
}

}  // extern "C"
