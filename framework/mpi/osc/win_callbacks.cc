// MPI_WIN_NULL_COPY_FN, MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN: real functions (mpi.h), so that
// programs may call them or compare against them, as the communicator and datatype ones.
#include "mpi.h"

extern "C" {

int plexus_mpi_win_null_copy_fn(MPI_Win, int, void *, void *, void *, int *flag) {
    *flag = 0;
    return MPI_SUCCESS;
}

int plexus_mpi_win_dup_fn(MPI_Win, int, void *, void *attribute_val_in, void *attribute_val_out, int *flag) {
    *static_cast<void **>(attribute_val_out) = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

int plexus_mpi_win_null_delete_fn(MPI_Win, int, void *, void *) { return MPI_SUCCESS; }

}  // extern "C"
