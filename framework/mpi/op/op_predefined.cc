// The predefined operations: objects exported by libmpi (MPI_SUM is &plexus_mpi_op_sum).
#include "mpi/op/op.h"

namespace {

constexpr plexus::mpi::Op predefined(plexus::mpi::OpKind kind, const char *name) {
    plexus::mpi::Op op;
    op.kind = kind;
    op.name = name;
    return op;
}

}  // namespace

using plexus::mpi::Op;
using plexus::mpi::OpKind;

extern "C" {
constinit Op plexus_mpi_op_max = predefined(OpKind::Max, "MPI_MAX");
constinit Op plexus_mpi_op_min = predefined(OpKind::Min, "MPI_MIN");
constinit Op plexus_mpi_op_sum = predefined(OpKind::Sum, "MPI_SUM");
constinit Op plexus_mpi_op_prod = predefined(OpKind::Prod, "MPI_PROD");
constinit Op plexus_mpi_op_land = predefined(OpKind::Land, "MPI_LAND");
constinit Op plexus_mpi_op_band = predefined(OpKind::Band, "MPI_BAND");
constinit Op plexus_mpi_op_lor = predefined(OpKind::Lor, "MPI_LOR");
constinit Op plexus_mpi_op_bor = predefined(OpKind::Bor, "MPI_BOR");
constinit Op plexus_mpi_op_lxor = predefined(OpKind::Lxor, "MPI_LXOR");
constinit Op plexus_mpi_op_bxor = predefined(OpKind::Bxor, "MPI_BXOR");
constinit Op plexus_mpi_op_minloc = predefined(OpKind::Minloc, "MPI_MINLOC");
constinit Op plexus_mpi_op_maxloc = predefined(OpKind::Maxloc, "MPI_MAXLOC");
constinit Op plexus_mpi_op_replace = predefined(OpKind::Replace, "MPI_REPLACE");
}
