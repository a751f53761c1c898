// The predefined datatypes: one exported object per C type, laid out from the compiler's own
// sizeof and offsetof so that they always match the C types they name.
#include <complex>
#include <cstddef>
#include <cstdint>

#include "mpi/datatype.h"

namespace plexus::mpi {
namespace {

constexpr void set_name(Datatype &t, const char *name) {
    for (size_t i = 0; name[i] && i + 1 < sizeof t.name; ++i) t.name[i] = name[i];
}

template <class T>
constexpr Datatype basic(const char *name) {
    Datatype t;
    t.size = sizeof(T);
    t.extent = t.true_extent = sizeof(T);
    t.align = alignof(T);
    t.blocks[0] = {0, sizeof(T)};
    set_name(t, name);
    return t;
}

// The MINLOC/MAXLOC pairs: a value and an int, with whatever padding the C struct has.
template <class V>
struct Pair {
    V value;
    int index;
};

template <class V>
constexpr Datatype pair(const char *name) {
    Datatype t;
    t.nblocks = 2;
    t.blocks[0] = {0, sizeof(V)};
    t.blocks[1] = {offsetof(Pair<V>, index), sizeof(int)};
    t.size = sizeof(V) + sizeof(int);
    t.extent = sizeof(Pair<V>);
    t.align = alignof(Pair<V>);
    t.true_extent = t.blocks[1].offset + static_cast<ptrdiff_t>(sizeof(int));
    t.contiguous = t.blocks[1].offset == static_cast<ptrdiff_t>(sizeof(V)) && t.size == static_cast<size_t>(t.extent);
    set_name(t, name);
    return t;
}

// MPI_LB / MPI_UB: no data, size and extent 0, one sticky bound (MPI-1 4.1.6).
constexpr Datatype marker(const char *name, bool lower) {
    Datatype t;
    t.nblocks = 0;
    t.marker = true;
    t.sticky_lb = lower;
    t.sticky_ub = !lower;
    set_name(t, name);
    return t;
}

}  // namespace
}  // namespace plexus::mpi

using plexus::mpi::basic;
using plexus::mpi::marker;
using plexus::mpi::Datatype;
using plexus::mpi::pair;

extern "C" {
constinit Datatype plexus_mpi_char = basic<char>("MPI_CHAR");
constinit Datatype plexus_mpi_signed_char = basic<signed char>("MPI_SIGNED_CHAR");
constinit Datatype plexus_mpi_unsigned_char = basic<unsigned char>("MPI_UNSIGNED_CHAR");
constinit Datatype plexus_mpi_byte = basic<unsigned char>("MPI_BYTE");
constinit Datatype plexus_mpi_short = basic<short>("MPI_SHORT");
constinit Datatype plexus_mpi_unsigned_short = basic<unsigned short>("MPI_UNSIGNED_SHORT");
constinit Datatype plexus_mpi_int = basic<int>("MPI_INT");
constinit Datatype plexus_mpi_unsigned = basic<unsigned>("MPI_UNSIGNED");
constinit Datatype plexus_mpi_long = basic<long>("MPI_LONG");
constinit Datatype plexus_mpi_unsigned_long = basic<unsigned long>("MPI_UNSIGNED_LONG");
constinit Datatype plexus_mpi_long_long_int = basic<long long>("MPI_LONG_LONG_INT");
constinit Datatype plexus_mpi_unsigned_long_long = basic<unsigned long long>("MPI_UNSIGNED_LONG_LONG");
constinit Datatype plexus_mpi_float = basic<float>("MPI_FLOAT");
constinit Datatype plexus_mpi_double = basic<double>("MPI_DOUBLE");
constinit Datatype plexus_mpi_long_double = basic<long double>("MPI_LONG_DOUBLE");
constinit Datatype plexus_mpi_wchar = basic<wchar_t>("MPI_WCHAR");
constinit Datatype plexus_mpi_c_bool = basic<bool>("MPI_C_BOOL");
constinit Datatype plexus_mpi_int8_t = basic<int8_t>("MPI_INT8_T");
constinit Datatype plexus_mpi_int16_t = basic<int16_t>("MPI_INT16_T");
constinit Datatype plexus_mpi_int32_t = basic<int32_t>("MPI_INT32_T");
constinit Datatype plexus_mpi_int64_t = basic<int64_t>("MPI_INT64_T");
constinit Datatype plexus_mpi_uint8_t = basic<uint8_t>("MPI_UINT8_T");
constinit Datatype plexus_mpi_uint16_t = basic<uint16_t>("MPI_UINT16_T");
constinit Datatype plexus_mpi_uint32_t = basic<uint32_t>("MPI_UINT32_T");
constinit Datatype plexus_mpi_uint64_t = basic<uint64_t>("MPI_UINT64_T");
// std::complex<T> has the size and alignment of C's T _Complex.
constinit Datatype plexus_mpi_c_float_complex = basic<std::complex<float>>("MPI_C_FLOAT_COMPLEX");
constinit Datatype plexus_mpi_c_double_complex = basic<std::complex<double>>("MPI_C_DOUBLE_COMPLEX");
constinit Datatype plexus_mpi_c_long_double_complex = basic<std::complex<long double>>("MPI_C_LONG_DOUBLE_COMPLEX");
constinit Datatype plexus_mpi_aint = basic<MPI_Aint>("MPI_AINT");
constinit Datatype plexus_mpi_offset = basic<MPI_Offset>("MPI_OFFSET");
constinit Datatype plexus_mpi_packed = basic<unsigned char>("MPI_PACKED");
constinit Datatype plexus_mpi_float_int = pair<float>("MPI_FLOAT_INT");
constinit Datatype plexus_mpi_double_int = pair<double>("MPI_DOUBLE_INT");
constinit Datatype plexus_mpi_long_int = pair<long>("MPI_LONG_INT");
constinit Datatype plexus_mpi_2int = pair<int>("MPI_2INT");
constinit Datatype plexus_mpi_short_int = pair<short>("MPI_SHORT_INT");
constinit Datatype plexus_mpi_long_double_int = pair<long double>("MPI_LONG_DOUBLE_INT");
// Not in predefined_types(): they describe no data, so nothing sends, reduces or counts them.
constinit Datatype plexus_mpi_lb = marker("MPI_LB", true);
constinit Datatype plexus_mpi_ub = marker("MPI_UB", false);
}

namespace plexus::mpi {

const PredefinedType *predefined_types(size_t *count) {
    static const PredefinedType table[] = {
        {"MPI_CHAR", MPI_CHAR},
        {"MPI_SIGNED_CHAR", MPI_SIGNED_CHAR},
        {"MPI_UNSIGNED_CHAR", MPI_UNSIGNED_CHAR},
        {"MPI_BYTE", MPI_BYTE},
        {"MPI_SHORT", MPI_SHORT},
        {"MPI_UNSIGNED_SHORT", MPI_UNSIGNED_SHORT},
        {"MPI_INT", MPI_INT},
        {"MPI_UNSIGNED", MPI_UNSIGNED},
        {"MPI_LONG", MPI_LONG},
        {"MPI_UNSIGNED_LONG", MPI_UNSIGNED_LONG},
        {"MPI_LONG_LONG_INT", MPI_LONG_LONG_INT},
        {"MPI_UNSIGNED_LONG_LONG", MPI_UNSIGNED_LONG_LONG},
        {"MPI_FLOAT", MPI_FLOAT},
        {"MPI_DOUBLE", MPI_DOUBLE},
        {"MPI_LONG_DOUBLE", MPI_LONG_DOUBLE},
        {"MPI_WCHAR", MPI_WCHAR},
        {"MPI_C_BOOL", MPI_C_BOOL},
        {"MPI_INT8_T", MPI_INT8_T},
        {"MPI_INT16_T", MPI_INT16_T},
        {"MPI_INT32_T", MPI_INT32_T},
        {"MPI_INT64_T", MPI_INT64_T},
        {"MPI_UINT8_T", MPI_UINT8_T},
        {"MPI_UINT16_T", MPI_UINT16_T},
        {"MPI_UINT32_T", MPI_UINT32_T},
        {"MPI_UINT64_T", MPI_UINT64_T},
        {"MPI_C_FLOAT_COMPLEX", MPI_C_FLOAT_COMPLEX},
        {"MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX},
        {"MPI_C_LONG_DOUBLE_COMPLEX", MPI_C_LONG_DOUBLE_COMPLEX},
        {"MPI_AINT", MPI_AINT},
        {"MPI_OFFSET", MPI_OFFSET},
        {"MPI_PACKED", MPI_PACKED},
        {"MPI_FLOAT_INT", MPI_FLOAT_INT},
        {"MPI_DOUBLE_INT", MPI_DOUBLE_INT},
        {"MPI_LONG_INT", MPI_LONG_INT},
        {"MPI_2INT", MPI_2INT},
        {"MPI_SHORT_INT", MPI_SHORT_INT},
        {"MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT},
    };
    *count = sizeof table / sizeof table[0];
    return table;
}

}  // namespace plexus::mpi
