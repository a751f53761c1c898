// MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN and their MPI_TYPE_ twins: real
// functions (mpi.h), so that programs may also call them or compare against them.
#include "mpi.h"

extern "C" {

int plexus_mpi_comm_null_copy_fn(MPI_Comm, int, void *, void *, void *, int *flag) {
    *flag = 0;
    return MPI_SUCCESS;
}

int plexus_mpi_comm_dup_fn(MPI_Comm, int, void *, void *attribute_val_in, void *attribute_val_out, int *flag) {
    *static_cast<void **>(attribute_val_out) = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

int plexus_mpi_comm_null_delete_fn(MPI_Comm, int, void *, void *) { return MPI_SUCCESS; }

}  // extern "C"

// The datatype ones (MPI_TYPE_NULL_COPY_FN, MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN).
extern "C" {

int plexus_mpi_type_null_copy_fn(MPI_Datatype, int, void *, void *, void *, int *flag) {
    *flag = 0;
    return MPI_SUCCESS;
}

int plexus_mpi_type_dup_fn(MPI_Datatype, int, void *, void *attribute_val_in, void *attribute_val_out, int *flag) {
    *static_cast<void **>(attribute_val_out) = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

int plexus_mpi_type_null_delete_fn(MPI_Datatype, int, void *, void *) { return MPI_SUCCESS; }

}  // extern "C"
