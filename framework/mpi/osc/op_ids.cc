// Operation numbers are the OpKind values: fixed by the library, so every process of the job
// agrees on them.
#include "mpi/osc/op_ids.h"

#include <plexus/osc.h>

namespace plexus::mpi::osc {

static_assert(static_cast<int>(OpKind::Replace) == PLEXUS_OSC_OP_REPLACE,
              "plexus/osc.h names MPI_REPLACE's number for the components");

int op_id(const Op *op) {
    if (!op_valid(op) || !op->predefined || op->kind == OpKind::User) return -1;
    return static_cast<int>(op->kind);
}

Op *op_by_id(int id) {
    switch (static_cast<OpKind>(id)) {
        case OpKind::Max: return MPI_MAX;
        case OpKind::Min: return MPI_MIN;
        case OpKind::Sum: return MPI_SUM;
        case OpKind::Prod: return MPI_PROD;
        case OpKind::Land: return MPI_LAND;
        case OpKind::Band: return MPI_BAND;
        case OpKind::Lor: return MPI_LOR;
        case OpKind::Bor: return MPI_BOR;
        case OpKind::Lxor: return MPI_LXOR;
        case OpKind::Bxor: return MPI_BXOR;
        case OpKind::Minloc: return MPI_MINLOC;
        case OpKind::Maxloc: return MPI_MAXLOC;
        case OpKind::Replace: return MPI_REPLACE;
        case OpKind::User: break;
    }
    return nullptr;
}

}  // namespace plexus::mpi::osc
