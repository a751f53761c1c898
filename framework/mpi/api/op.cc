// MPI_Op_create, MPI_Op_free, MPI_Op_commutative and MPI_Reduce_local. Errors about an op have no
// communicator: they go to MPI_COMM_WORLD's handler.
#include "mpi/api/profiling.h"
#include "mpi/mpi_state.h"
#include "mpi/op/op_check.h"
#include "mpi/op/op_user.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Op_create)
int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op) {
    constexpr const char *fn = "MPI_Op_create";
    running(fn);
    if (!user_fn)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: user_fn is NULL (the function that reduces)", fn);
    if (!op) return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: op is NULL (the address of the handle)", fn);
    Op *made = op_create(user_fn, commute != 0);
    if (!made) return report_errorf(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    *op = made;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Op_free)
int PMPI_Op_free(MPI_Op *op) {
    constexpr const char *fn = "MPI_Op_free";
    running(fn);
    if (!op) return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: op is NULL (the address of the handle)", fn);
    if (!op_valid(*op))
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_OP, "%s: invalid op: %s", fn, op_name(*op).c_str());
    if ((*op)->predefined)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_OP,
                             "%s: %s is a predefined operation: only those made by MPI_Op_create are freed", fn,
                             (*op)->name);
    op_destroy(*op);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Op_commutative)
int PMPI_Op_commutative(MPI_Op op, int *commute) {
    constexpr const char *fn = "MPI_Op_commutative";
    running(fn);
    if (!op_valid(op)) return report_errorf(MPI_COMM_WORLD, MPI_ERR_OP, "%s: invalid op: %s", fn, op_name(op).c_str());
    if (!commute) return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: commute is NULL", fn);
    *commute = op->commutative ? 1 : 0;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Reduce_local)
int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op) {
    constexpr const char *fn = "MPI_Reduce_local";
    running(fn);
    if (int rc = check_reduce_local(inbuf, inoutbuf, count, datatype, op)) return rc;
    if (op_apply(*op, inbuf, inoutbuf, count, datatype) != MPI_SUCCESS)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%s: out of memory for the packed copies of %d items of %s",
                             fn, count, type_name(datatype).c_str());
    return MPI_SUCCESS;
}

}  // extern "C"
