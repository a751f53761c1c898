// User operations: heap objects, valid from MPI_Op_create to MPI_Op_free.
#include "mpi/op/op_user.h"

#include <new>

namespace plexus::mpi {

Op *op_create(MPI_User_function *fn, bool commutative) {
    Op *op = new (std::nothrow) Op;
    if (!op) return nullptr;
    op->kind = OpKind::User;
    op->predefined = false;
    op->commutative = commutative;
    op->user_fn = fn;
    op->name = "user operation";
    return op;
}

void op_destroy(Op *op) {
    op->magic = 0;
    delete op;
}

}  // namespace plexus::mpi
