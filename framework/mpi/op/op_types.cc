// The predefined types as the reductions see them: representation and MPI-2.2 group.
#include "mpi/op/op_types.h"

#include <type_traits>

namespace plexus::mpi {
namespace {

// The representation of an integer C type, from its size and signedness (long and long long
// are both I64 here, char is I8 or U8 as the compiler has it).
template <class T>
constexpr Rep int_rep() {
    static_assert(std::is_integral_v<T> && sizeof(T) <= 8);
    constexpr bool s = std::is_signed_v<T>;
    switch (sizeof(T)) {
    case 1: return s ? Rep::I8 : Rep::U8;
    case 2: return s ? Rep::I16 : Rep::U16;
    case 4: return s ? Rep::I32 : Rep::U32;
    default: return s ? Rep::I64 : Rep::U64;
    }
}

struct Entry {
    const Datatype *type;
    BasicClass cls;
};

// The most used types first: the lookup is a short linear scan, once per reduction call.
const Entry kTable[] = {
    {MPI_INT, {int_rep<int>(), TypeGroup::CInteger}},
    {MPI_DOUBLE, {Rep::F64, TypeGroup::Floating}},
    {MPI_FLOAT, {Rep::F32, TypeGroup::Floating}},
    {MPI_LONG, {int_rep<long>(), TypeGroup::CInteger}},
    {MPI_UNSIGNED, {int_rep<unsigned>(), TypeGroup::CInteger}},
    {MPI_LONG_LONG_INT, {int_rep<long long>(), TypeGroup::CInteger}},
    {MPI_UNSIGNED_LONG, {int_rep<unsigned long>(), TypeGroup::CInteger}},
    {MPI_UNSIGNED_LONG_LONG, {int_rep<unsigned long long>(), TypeGroup::CInteger}},
    {MPI_SHORT, {int_rep<short>(), TypeGroup::CInteger}},
    {MPI_UNSIGNED_SHORT, {int_rep<unsigned short>(), TypeGroup::CInteger}},
    {MPI_CHAR, {int_rep<char>(), TypeGroup::CInteger}},
    {MPI_SIGNED_CHAR, {int_rep<signed char>(), TypeGroup::CInteger}},
    {MPI_UNSIGNED_CHAR, {int_rep<unsigned char>(), TypeGroup::CInteger}},
    {MPI_INT8_T, {int_rep<int8_t>(), TypeGroup::CInteger}},
    {MPI_INT16_T, {int_rep<int16_t>(), TypeGroup::CInteger}},
    {MPI_INT32_T, {int_rep<int32_t>(), TypeGroup::CInteger}},
    {MPI_INT64_T, {int_rep<int64_t>(), TypeGroup::CInteger}},
    {MPI_UINT8_T, {int_rep<uint8_t>(), TypeGroup::CInteger}},
    {MPI_UINT16_T, {int_rep<uint16_t>(), TypeGroup::CInteger}},
    {MPI_UINT32_T, {int_rep<uint32_t>(), TypeGroup::CInteger}},
    {MPI_UINT64_T, {int_rep<uint64_t>(), TypeGroup::CInteger}},
    {MPI_AINT, {int_rep<MPI_Aint>(), TypeGroup::MultiLanguage}},
    {MPI_OFFSET, {int_rep<MPI_Offset>(), TypeGroup::MultiLanguage}},
    {MPI_LONG_DOUBLE, {Rep::LongDouble, TypeGroup::Floating}},
    {MPI_C_FLOAT_COMPLEX, {Rep::ComplexF32, TypeGroup::Complex}},
    {MPI_C_DOUBLE_COMPLEX, {Rep::ComplexF64, TypeGroup::Complex}},
    {MPI_C_LONG_DOUBLE_COMPLEX, {Rep::ComplexLongDouble, TypeGroup::Complex}},
    {MPI_C_BOOL, {Rep::Bool, TypeGroup::Logical}},
    {MPI_BYTE, {Rep::U8, TypeGroup::Byte}},
    {MPI_DOUBLE_INT, {Rep::DoubleInt, TypeGroup::Pair}},
    {MPI_2INT, {Rep::TwoInt, TypeGroup::Pair}},
    {MPI_FLOAT_INT, {Rep::FloatInt, TypeGroup::Pair}},
    {MPI_LONG_INT, {Rep::LongInt, TypeGroup::Pair}},
    {MPI_SHORT_INT, {Rep::ShortInt, TypeGroup::Pair}},
    {MPI_LONG_DOUBLE_INT, {Rep::LongDoubleInt, TypeGroup::Pair}},
    {MPI_WCHAR, {Rep::None, TypeGroup::Other}},
    {MPI_PACKED, {Rep::None, TypeGroup::Other}},
};

}  // namespace

bool classify_predefined(const Datatype *type, BasicClass *out) {
    for (const Entry &e : kTable)
        if (e.type == type) {
            *out = e.cls;
            return true;
        }
    return false;
}

bool op_takes(OpKind kind, TypeGroup g) {
    using G = TypeGroup;
    switch (kind) {
    case OpKind::Max:
    case OpKind::Min: return g == G::CInteger || g == G::MultiLanguage || g == G::Floating;
    case OpKind::Sum:
    case OpKind::Prod: return g == G::CInteger || g == G::MultiLanguage || g == G::Floating || g == G::Complex;
    case OpKind::Land:
    case OpKind::Lor:
    // MPI-2.2 leaves MPI_AINT and MPI_OFFSET out here (they are "Fortran integer" there), but
    // Open MPI and MPICH accept them and third-party tests rely on it.
    case OpKind::Lxor: return g == G::CInteger || g == G::MultiLanguage || g == G::Logical;
    case OpKind::Band:
    case OpKind::Bor:
    case OpKind::Bxor: return g == G::CInteger || g == G::MultiLanguage || g == G::Byte;
    case OpKind::Minloc:
    case OpKind::Maxloc: return g == G::Pair;
    case OpKind::Replace:
    case OpKind::User: return true;
    }
    return false;
}

const char *op_type_list(OpKind kind) {
    switch (kind) {
    case OpKind::Max:
    case OpKind::Min:
        return "C integers (MPI_INT, MPI_UNSIGNED_LONG, MPI_INT8_T ...), floating point (MPI_FLOAT, MPI_DOUBLE, "
               "MPI_LONG_DOUBLE), MPI_AINT and MPI_OFFSET";
    case OpKind::Sum:
    case OpKind::Prod:
        return "C integers (MPI_INT, MPI_UNSIGNED_LONG, MPI_INT8_T ...), floating point (MPI_FLOAT, MPI_DOUBLE, "
               "MPI_LONG_DOUBLE), complex (MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX), "
               "MPI_AINT and MPI_OFFSET";
    case OpKind::Land:
    case OpKind::Lor:
    case OpKind::Lxor:
        return "C integers (MPI_INT, MPI_UNSIGNED_LONG, MPI_INT8_T ...), MPI_C_BOOL, MPI_AINT and MPI_OFFSET";
    case OpKind::Band:
    case OpKind::Bor:
    case OpKind::Bxor:
        return "C integers (MPI_INT, MPI_UNSIGNED_LONG, MPI_INT8_T ...), MPI_BYTE, MPI_AINT and MPI_OFFSET";
    case OpKind::Minloc:
    case OpKind::Maxloc:
        return "the pair types MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT and "
               "MPI_LONG_DOUBLE_INT";
    case OpKind::Replace:
    case OpKind::User: return "any type";
    }
    return "";
}

}  // namespace plexus::mpi
