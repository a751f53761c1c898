// What the reductions need to know about a predefined type: its C representation (which kernel
// runs on it) and its MPI-2.2 5.9.2 group (which operations it may be reduced with).
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpi/datatype.h"
#include "mpi/op/op.h"

namespace plexus::mpi {

// C representations; MPI types with the same one share a kernel (MPI_INT and MPI_INT32_T).
enum class Rep : uint8_t {
    I8, U8, I16, U16, I32, U32, I64, U64,
    F32, F64, LongDouble,
    ComplexF32, ComplexF64, ComplexLongDouble,
    Bool,
    FloatInt, DoubleInt, LongInt, TwoInt, ShortInt, LongDoubleInt,
    None,  // no arithmetic (MPI_WCHAR, MPI_PACKED): only MPI_REPLACE
};
inline constexpr size_t kRepCount = static_cast<size_t>(Rep::None) + 1;

// The groups of MPI-2.2 5.9.2. MPI_CHAR counts as a C integer, as in Open MPI and MPICH.
enum class TypeGroup : uint8_t { CInteger, MultiLanguage, Floating, Complex, Logical, Byte, Pair, Other };

struct BasicClass {
    Rep rep = Rep::None;
    TypeGroup group = TypeGroup::Other;
};

// The class of a predefined type; false for anything else.
bool classify_predefined(const Datatype *type, BasicClass *out);

// Whether a predefined operation (not MPI_REPLACE, not a user one) takes a group.
bool op_takes(OpKind kind, TypeGroup group);

// The types a predefined operation takes, in words for error messages.
const char *op_type_list(OpKind kind);

}  // namespace plexus::mpi
