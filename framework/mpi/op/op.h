// The library side of MPI_Op: the predefined reduction operations with a kernel per allowed
// predefined type, and user operations (MPI_Op_create). Collectives (coll components through the
// services table, the MPI layer's own checks) use only what this header declares.
#pragma once

#include <cstdint>
#include <string>

#include "mpi.h"
#include "mpi/datatype.h"

namespace plexus::mpi {

enum class OpKind : uint8_t { Max, Min, Sum, Prod, Land, Band, Lor, Bor, Lxor, Bxor, Minloc, Maxloc, Replace, User };

}  // namespace plexus::mpi

struct plexus_mpi_op_s {
    static constexpr uint32_t kMagic = 0x4f504552;  // "OPER": set while the handle is valid
    uint32_t magic = kMagic;
    plexus::mpi::OpKind kind = plexus::mpi::OpKind::User;
    bool predefined = true;
    bool commutative = true;
    MPI_User_function *user_fn = nullptr;  // OpKind::User
    const char *name = "";                  // "MPI_SUM"; "user operation" for user ones
};

namespace plexus::mpi {

using Op = ::plexus_mpi_op_s;

inline bool op_valid(const Op *op) { return op && op->magic == Op::kMagic; }

// Whether op may reduce items of type (MPI-2.2 5.9.2: e.g. MPI_BAND on integers and MPI_BYTE,
// MPI_MAXLOC on the pair types; a derived type counts as the predefined type it is made of
// when it is made of one only; user operations take any type). When not, *why says why in words
// fit for an error message ("MPI_BAND is not defined for MPI_DOUBLE: it takes C integers, ...").
bool op_allowed(const Op &op, const Datatype &type, std::string *why);

// inout = in op inout, elementwise over count items of type (MPI_Reduce_local). type must be
// allowed (op_allowed). Non-contiguous derived types are handled (through packed copies when the
// layout has holes). Returns MPI_SUCCESS or MPI_ERR_NO_MEM.
int op_apply(const Op &op, const void *in, void *inout, int count, Datatype *type);

}  // namespace plexus::mpi
