// Finding which argument of a reduction was wrong and saying so.
#include "mpi/op/op_check.h"

#include <cstdio>

#include "mpi/arg_check.h"
#include "mpi/error_report.h"

namespace plexus::mpi {

std::string op_name(const Op *op) {
    if (!op) return "MPI_OP_NULL";
    if (!op_valid(op)) return "(not an operation)";
    return op->predefined ? op->name : "a user operation";
}

namespace {

int check_op_handle(const char *function, const Comm *comm, const Op *op) {
    if (op_valid(op)) return MPI_SUCCESS;
    if (!op) return report_errorf(comm, MPI_ERR_OP, "%s: invalid op: MPI_OP_NULL", function);
    return report_errorf(comm, MPI_ERR_OP, "%s: invalid op %p: not an operation (freed, or never made by MPI)",
                         function, static_cast<const void *>(op));
}

}  // namespace

int check_reduction_op(const char *function, const Comm *comm, const Op *op, const Datatype *type) {
    if (int rc = check_op_handle(function, comm, op)) return rc;
    if (op->kind == OpKind::Replace)
        return report_errorf(comm, MPI_ERR_OP,
                             "%s: MPI_REPLACE is not a reduction operation: it is for MPI_Accumulate only", function);
    if (op_allowed(*op, *type, nullptr)) [[likely]]
        return MPI_SUCCESS;
    std::string why;
    op_allowed(*op, *type, &why);
    return report_errorf(comm, MPI_ERR_OP, "%s: invalid op for datatype: %s", function, why.c_str());
}

int check_reduce_local(const void *inbuf, const void *inoutbuf, int count, const Datatype *type, const Op *op) {
    constexpr const char *fn = "MPI_Reduce_local";
    const Comm *world = MPI_COMM_WORLD;
    if (int rc = check_op_handle(fn, world, op)) return rc;
    if (int rc = check_datatype(fn, world, type)) return rc;
    if (count < 0) return report_errorf(world, MPI_ERR_COUNT, "%s: invalid count %d: counts are 0 or more", fn, count);
    if (int rc = check_reduction_op(fn, world, op, type)) return rc;
    if (count == 0) return MPI_SUCCESS;
    const struct {
        const void *buf;
        const char *name;
    } bufs[] = {{inbuf, "inbuf"}, {inoutbuf, "inoutbuf"}};
    for (const auto &b : bufs) {
        if (b.buf == MPI_IN_PLACE)
            return report_errorf(world, MPI_ERR_BUFFER, "%s: %s is MPI_IN_PLACE, which MPI_Reduce_local does not take",
                                 fn, b.name);
        if (!b.buf && type->predefined)
            return report_errorf(world, MPI_ERR_BUFFER, "%s: %s is NULL with count %d of %s", fn, b.name, count,
                                 type_name(type).c_str());
    }
    if (inbuf == inoutbuf)
        return report_errorf(world, MPI_ERR_BUFFER, "%s: inbuf and inoutbuf are the same buffer %p: they must not overlap",
                             fn, inbuf);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi
