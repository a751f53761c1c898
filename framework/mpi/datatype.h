// The library side of MPI_Datatype. Issue 4 has only the predefined types; the fields are those
// a derived-datatype engine needs (size, bounds, true bounds, combiner, name), and the layout of
// one item is a short list of blocks so that types with holes (MPI_DOUBLE_INT ...) travel packed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpi.h"

namespace plexus::mpi {

// How a type was made (MPI_Type_get_envelope); predefined types are Named.
enum class Combiner : int { Named = 0 };

// One contiguous run of bytes of an item, at offset from the item's start.
struct TypeBlock {
    ptrdiff_t offset = 0;
    size_t length = 0;
};

}  // namespace plexus::mpi

struct plexus_mpi_datatype_s {
    static constexpr uint32_t kMagic = 0x44545950;  // "DTYP": set while the handle is valid
    static constexpr int kMaxBlocks = 2;

    uint32_t magic = kMagic;
    bool predefined = true;
    bool committed = true;     // derived types: after MPI_Type_commit
    bool contiguous = true;    // one item is size bytes at lb, and size == extent: no packing
    plexus::mpi::Combiner combiner = plexus::mpi::Combiner::Named;
    size_t size = 0;           // bytes of data in one item (what travels)
    ptrdiff_t lb = 0;          // MPI_Type_get_extent
    ptrdiff_t extent = 0;
    ptrdiff_t true_lb = 0;     // MPI_Type_get_true_extent
    ptrdiff_t true_extent = 0;
    // One basic element per block (MPI_Get_elements counts them).
    int nblocks = 1;
    plexus::mpi::TypeBlock blocks[kMaxBlocks] = {};
    char name[MPI_MAX_OBJECT_NAME] = {};
};

namespace plexus::mpi {

using Datatype = ::plexus_mpi_datatype_s;

inline bool datatype_valid(const Datatype *t) { return t && t->magic == Datatype::kMagic && t->committed; }

// Every predefined type, for tests and for lookups by name.
struct PredefinedType {
    const char *name;
    Datatype *type;
};
const PredefinedType *predefined_types(size_t *count);

// Packed bytes of count items (count >= 0; at most INT_MAX * 32, no overflow).
inline size_t packed_bytes(const Datatype *t, int count) { return t->size * static_cast<size_t>(count); }

// Copies count items at src (laid out by t) into dst, packed (count * t->size bytes).
void pack(const Datatype &t, const void *src, int count, void *dst);
// The reverse for the first bytes of packed data (whole blocks only; a partial block is copied
// as far as it goes, as a truncated message would be).
void unpack(const Datatype &t, const void *src, size_t bytes, void *dst);

// MPI_Get_count: items in bytes, MPI_UNDEFINED when bytes is not a multiple of the size.
int count_of(const Datatype &t, size_t bytes);
// MPI_Get_elements: basic elements in bytes, MPI_UNDEFINED when bytes ends inside one.
int elements_of(const Datatype &t, size_t bytes);

}  // namespace plexus::mpi
