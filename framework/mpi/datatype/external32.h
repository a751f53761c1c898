// The "external32" representation (MPI-2.2 13.5.2): every basic element big-endian, IEEE, in
// the fixed sizes of table 13.2 (MPI_LONG 4 bytes, MPI_WCHAR 2, MPI_LONG_DOUBLE 16 ...), in
// type-map order with nothing between. Converted from and to the native packed form
// (datatype.h's pack/unpack), one run of like elements at a time.
#pragma once

#include <cstddef>
#include <vector>

#include "mpi/datatype.h"

namespace plexus::mpi {

// n consecutive basic elements of one predefined type (a pair type counts as one element).
struct BasicRun {
    const Datatype *type;
    size_t n;
};

// The basic elements of one item of t in type-map order, consecutive runs of one type merged.
std::vector<BasicRun> basic_runs(const Datatype &t);

// Bytes of one element of a predefined type in external32.
size_t external32_element_size(const Datatype &basic);
// Bytes of `items` items whose elements are runs.
size_t external32_bytes(const std::vector<BasicRun> &runs, size_t items);

// Whether this machine's long double can be converted (x87 80-bit or IEEE binary128).
bool external32_long_double_supported();

// Native packed bytes of `items` items -> external32. False when a value does not fit its
// external32 size (a long beyond 32 bits, a wchar_t beyond 16); *bad_type then names its type.
bool to_external32(const std::vector<BasicRun> &runs, size_t items, const char *native, char *external,
                   const Datatype **bad_type);
// external32 -> native packed bytes (signed values sign-extended, unsigned ones zero-extended).
void from_external32(const std::vector<BasicRun> &runs, size_t items, const char *external, char *native);

}  // namespace plexus::mpi
