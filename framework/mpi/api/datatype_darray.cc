// MPI_Type_create_darray: every argument checked (the process grid must be the group's size and
// the distribution must cover the array), then the layout of datatype/subarray.h. The new type
// reports MPI_COMBINER_DARRAY with the arguments it was made with.
#include "mpi/api/profiling.h"
#include "mpi/datatype/subarray.h"
#include "mpi/datatype/type_args.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

const char *distrib_name(int distrib) {
    switch (distrib) {
        case MPI_DISTRIBUTE_BLOCK:
            return "MPI_DISTRIBUTE_BLOCK";
        case MPI_DISTRIBUTE_CYCLIC:
            return "MPI_DISTRIBUTE_CYCLIC";
        case MPI_DISTRIBUTE_NONE:
            return "MPI_DISTRIBUTE_NONE";
    }
    return nullptr;
}

// Dimension i: a positive size, a known distribution with a usable darg, and (block) blocks that
// reach the end of the dimension.
int check_dimension(const char *fn, int i, int gsize, int distrib, int darg, int psize) {
    if (gsize < 1)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid array_of_gsizes[%d] = %d: sizes are 1 or more",
                             fn, i, gsize);
    if (psize < 1)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: invalid array_of_psizes[%d] = %d: a grid has 1 or more processes per dimension", fn,
                             i, psize);
    const char *name = distrib_name(distrib);
    if (!name)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: invalid array_of_distribs[%d] = %d: MPI_DISTRIBUTE_BLOCK, _CYCLIC or _NONE", fn, i,
                             distrib);
    if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg < 1)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: invalid array_of_dargs[%d] = %d: 1 or more, or MPI_DISTRIBUTE_DFLT_DARG", fn, i,
                             darg);
    if (distrib == MPI_DISTRIBUTE_NONE && psize != 1)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: array_of_psizes[%d] = %d with MPI_DISTRIBUTE_NONE: an undistributed dimension has "
                             "1 process",
                             fn, i, psize);
    if (distrib == MPI_DISTRIBUTE_BLOCK && darg != MPI_DISTRIBUTE_DFLT_DARG && (long long)darg * psize < gsize)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: array_of_dargs[%d] = %d is too small for MPI_DISTRIBUTE_BLOCK: %d processes of "
                             "blocks of %d cover %lld of the %d elements (array_of_gsizes[%d])",
                             fn, i, darg, psize, darg, (long long)darg * psize, gsize, i);
    return MPI_SUCCESS;
}

// The grid has exactly `size` processes and `rank` is one of them.
int check_grid(const char *fn, int size, int rank, int ndims, const int psizes[]) {
    long long processes = 1;
    for (int i = 0; i < ndims && processes <= size; ++i) processes *= psizes[i];  // stops before overflowing
    if (processes != size)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: the process grid array_of_psizes has %s%lld processes; size is %d: they must be equal",
                             fn, processes > size ? "at least " : "", processes, size);
    if (rank < 0 || rank >= size)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid rank %d: ranks are 0..%d (size %d)", fn, rank,
                             size - 1, size);
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Type_create_darray)
int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[], const int array_of_distribs[],
                            const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype) {
    constexpr const char *fn = "MPI_Type_create_darray";
    running(fn);
    if (size < 1)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid size %d: a group has 1 or more processes", fn,
                             size);
    if (ndims < 1)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid ndims %d: an array has 1 or more dimensions",
                             fn, ndims);
    if (int rc = check_array(fn, array_of_gsizes, ndims, "array_of_gsizes")) return rc;
    if (int rc = check_array(fn, array_of_distribs, ndims, "array_of_distribs")) return rc;
    if (int rc = check_array(fn, array_of_dargs, ndims, "array_of_dargs")) return rc;
    if (int rc = check_array(fn, array_of_psizes, ndims, "array_of_psizes")) return rc;
    for (int i = 0; i < ndims; ++i)
        if (int rc = check_dimension(fn, i, array_of_gsizes[i], array_of_distribs[i], array_of_dargs[i],
                                     array_of_psizes[i]))
            return rc;
    if (int rc = check_grid(fn, size, rank, ndims, array_of_psizes)) return rc;
    if (int rc = check_order(fn, order)) return rc;
    if (int rc = check_type_arg(fn, oldtype, "oldtype")) return rc;
    if (int rc = check_array_extent(fn, ndims, array_of_gsizes, oldtype, "array_of_gsizes")) return rc;
    if (int rc = check_newtype(fn, newtype)) return rc;
    *newtype = make_darray(size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs, array_of_psizes,
                           order, oldtype);
    return MPI_SUCCESS;
}

}  // extern "C"
