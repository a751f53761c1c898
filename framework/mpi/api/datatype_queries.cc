// MPI_Type_size, MPI_Get_count, MPI_Get_elements: statuses count bytes; these turn them into items.
#include "mpi/arg_check.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

extern "C" {

int MPI_Type_size(MPI_Datatype datatype, int *size) {
    running("MPI_Type_size");
    if (int rc = check_datatype("MPI_Type_size", MPI_COMM_WORLD, datatype)) return rc;
    if (int rc = check_pointer("MPI_Type_size", MPI_COMM_WORLD, size, "size")) return rc;
    *size = static_cast<int>(datatype->size);
    return MPI_SUCCESS;
}

int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count) {
    running("MPI_Get_count");
    if (int rc = check_pointer("MPI_Get_count", MPI_COMM_WORLD, status, "status")) return rc;
    if (int rc = check_datatype("MPI_Get_count", MPI_COMM_WORLD, datatype)) return rc;
    if (int rc = check_pointer("MPI_Get_count", MPI_COMM_WORLD, count, "count")) return rc;
    *count = count_of(*datatype, status->plexus_count);
    return MPI_SUCCESS;
}

int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count) {
    running("MPI_Get_elements");
    if (int rc = check_pointer("MPI_Get_elements", MPI_COMM_WORLD, status, "status")) return rc;
    if (int rc = check_datatype("MPI_Get_elements", MPI_COMM_WORLD, datatype)) return rc;
    if (int rc = check_pointer("MPI_Get_elements", MPI_COMM_WORLD, count, "count")) return rc;
    *count = elements_of(*datatype, status->plexus_count);
    return MPI_SUCCESS;
}

}  // extern "C"
