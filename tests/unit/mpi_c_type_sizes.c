/* The C side of test_mpi_datatype: the size of each type a predefined datatype names and the
 * extent of the MINLOC/MAXLOC pairs, as a C compiler lays them out (the library is C++). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "mpi.h"

struct plexus_c_type {
    const char *name;
    size_t size;   /* bytes of data */
    size_t extent; /* bytes from one item to the next */
};

#define BASIC(name, type) {name, sizeof(type), sizeof(type)}
#define PAIR(name, type) {name, sizeof(type) + sizeof(int), sizeof(struct { type v; int i; })}

const struct plexus_c_type plexus_c_types[] = {
    BASIC("MPI_CHAR", char),
    BASIC("MPI_SIGNED_CHAR", signed char),
    BASIC("MPI_UNSIGNED_CHAR", unsigned char),
    BASIC("MPI_BYTE", unsigned char),
    BASIC("MPI_SHORT", short),
    BASIC("MPI_UNSIGNED_SHORT", unsigned short),
    BASIC("MPI_INT", int),
    BASIC("MPI_UNSIGNED", unsigned),
    BASIC("MPI_LONG", long),
    BASIC("MPI_UNSIGNED_LONG", unsigned long),
    BASIC("MPI_LONG_LONG_INT", long long),
    BASIC("MPI_UNSIGNED_LONG_LONG", unsigned long long),
    BASIC("MPI_FLOAT", float),
    BASIC("MPI_DOUBLE", double),
    BASIC("MPI_LONG_DOUBLE", long double),
    BASIC("MPI_WCHAR", wchar_t),
    BASIC("MPI_C_BOOL", _Bool),
    BASIC("MPI_INT8_T", int8_t),
    BASIC("MPI_INT16_T", int16_t),
    BASIC("MPI_INT32_T", int32_t),
    BASIC("MPI_INT64_T", int64_t),
    BASIC("MPI_UINT8_T", uint8_t),
    BASIC("MPI_UINT16_T", uint16_t),
    BASIC("MPI_UINT32_T", uint32_t),
    BASIC("MPI_UINT64_T", uint64_t),
    BASIC("MPI_C_FLOAT_COMPLEX", float _Complex),
    BASIC("MPI_C_DOUBLE_COMPLEX", double _Complex),
    BASIC("MPI_C_LONG_DOUBLE_COMPLEX", long double _Complex),
    BASIC("MPI_AINT", MPI_Aint),
    BASIC("MPI_OFFSET", MPI_Offset),
    BASIC("MPI_PACKED", unsigned char),
    PAIR("MPI_FLOAT_INT", float),
    PAIR("MPI_DOUBLE_INT", double),
    PAIR("MPI_LONG_INT", long),
    PAIR("MPI_2INT", int),
    PAIR("MPI_SHORT_INT", short),
    PAIR("MPI_LONG_DOUBLE_INT", long double),
};
const size_t plexus_c_type_count = sizeof plexus_c_types / sizeof plexus_c_types[0];
