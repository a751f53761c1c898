// The library side of MPI_Datatype: one object per type, predefined or derived, and the engine
// that moves data between a type's memory layout and its packed form (what travels).
//
// Engine API (point-to-point, MPI_Pack/Unpack, and the collectives and one-sided components):
//   pack / unpack          all of (buf, count, type) <-> packed bytes
//   pack_range /          packed bytes [offset, offset + n) of (buf, count, type); the byte
//     unpack_range          position is the whole cursor: no state is kept between calls, any
//                           split gives the same bytes as one whole call, and unpack never writes
//                           outside the type map (a truncated message fills only what arrived).
//   uniform_basic          whether an item is k copies of one predefined type (reductions)
//   datatype_retain /      a reference held past an MPI call (requests, parents); predefined
//     datatype_release      types are never counted.
// docs/datatypes.md describes the representation and its rules.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpi.h"

namespace plexus::mpi {

// How a type was made (MPI_Type_get_envelope): the MPI_COMBINER_* values.
enum class Combiner : int {
    Named = MPI_COMBINER_NAMED,
    Dup = MPI_COMBINER_DUP,
    Contiguous = MPI_COMBINER_CONTIGUOUS,
    Vector = MPI_COMBINER_VECTOR,
    Hvector = MPI_COMBINER_HVECTOR,
    Indexed = MPI_COMBINER_INDEXED,
    Hindexed = MPI_COMBINER_HINDEXED,
    IndexedBlock = MPI_COMBINER_INDEXED_BLOCK,
    Struct = MPI_COMBINER_STRUCT,
    Subarray = MPI_COMBINER_SUBARRAY,
    Darray = MPI_COMBINER_DARRAY,
    Resized = MPI_COMBINER_RESIZED,
};

// One contiguous run of bytes of a predefined item, at offset from the item's start.
struct TypeBlock {
    ptrdiff_t offset = 0;
    size_t length = 0;
};

struct DerivedType;  // datatype/derived_type.h: contents, references, the committed program
class AttributeStore;  // attributes/attribute_store.h: the attributes cached on the type

}  // namespace plexus::mpi

struct plexus_mpi_datatype_s {
    static constexpr uint32_t kMagic = 0x44545950;       // "DTYP": a handle the program may use
    static constexpr uint32_t kFreedMagic = 0x66545950;  // freed by the program, alive for its users
    static constexpr int kMaxBlocks = 2;

    uint32_t magic = kMagic;
    bool predefined = true;
    bool committed = true;     // derived types: after MPI_Type_commit
    bool contiguous = true;    // one item is size bytes at lb, and size == extent: no packing
    // Bounds set explicitly (MPI_Type_create_resized): MPI-2.2's lb/ub markers, which win over
    // the data's own bounds in every type built on this one.
    bool sticky_lb = false;
    bool sticky_ub = false;
    // MPI_LB / MPI_UB (MPI-1's marker types): a bound and nothing else. Placed in a struct, the
    // marker sets that one (sticky) bound and takes no part in the other.
    bool marker = false;
    plexus::mpi::Combiner combiner = plexus::mpi::Combiner::Named;
    size_t size = 0;           // bytes of data in one item (what travels)
    ptrdiff_t lb = 0;          // MPI_Type_get_extent
    ptrdiff_t extent = 0;
    ptrdiff_t true_lb = 0;     // MPI_Type_get_true_extent
    ptrdiff_t true_extent = 0;
    size_t align = 1;          // the largest alignment of the basic types in it (struct padding)
    // Predefined types: one basic element per block (MPI_Get_elements counts them).
    int nblocks = 1;
    plexus::mpi::TypeBlock blocks[kMaxBlocks] = {};
    char name[MPI_MAX_OBJECT_NAME] = {};
    plexus::mpi::DerivedType *derived = nullptr;  // null for predefined types
    // MPI_Type_set_attr: made on the first attribute (predefined types may carry them too).
    plexus::mpi::AttributeStore *attributes = nullptr;
};

namespace plexus::mpi {

using Datatype = ::plexus_mpi_datatype_s;

// A handle usable in communication: valid and committed.
inline bool datatype_valid(const Datatype *t) { return t && t->magic == Datatype::kMagic && t->committed; }
// A handle usable to build other types and in queries (committed or not).
inline bool datatype_exists(const Datatype *t) { return t && t->magic == Datatype::kMagic; }

// Every predefined type, for tests and for lookups by name.
struct PredefinedType {
    const char *name;
    Datatype *type;
};
const PredefinedType *predefined_types(size_t *count);

// Packed bytes of count items (count >= 0; at most INT_MAX * 32, no overflow).
inline size_t packed_bytes(const Datatype *t, int count) { return t->size * static_cast<size_t>(count); }

// The first byte of buf's data under a contiguous type. Integer arithmetic: buf may be
// MPI_BOTTOM (NULL) with lb an absolute address, where pointer arithmetic would be undefined.
template <class T>
inline T *data_start(T *buf, const Datatype &t) {
    return reinterpret_cast<T *>(reinterpret_cast<uintptr_t>(buf) + static_cast<uintptr_t>(t.lb));
}

// Copies count items at src (laid out by t) into dst, packed (count * t->size bytes). src may be
// MPI_BOTTOM (NULL) for types of absolute addresses.
void pack(const Datatype &t, const void *src, int count, void *dst);
// The reverse for the first bytes of packed data, as many items as they hold: a partial item is
// filled as far as the data goes, as a truncated message would be. dst is the start of the
// items (as the user gave it).
void unpack(const Datatype &t, const void *src, size_t bytes, void *dst);

// The cursor form: packs bytes [offset, offset + n) of the packed form of count items at buf
// into dst (n bytes). offset + n <= count * t.size.
void pack_range(const Datatype &t, const void *buf, size_t count, size_t offset, size_t n, void *dst);
// Unpacks n bytes from src into bytes [offset, offset + n) of the packed form of count items at buf.
void unpack_range(const Datatype &t, void *buf, size_t count, size_t offset, size_t n, const void *src);

// MPI_Get_count: items in bytes, MPI_UNDEFINED when bytes is not a multiple of the size.
int count_of(const Datatype &t, size_t bytes);
// MPI_Get_elements: basic elements in bytes, MPI_UNDEFINED when bytes ends inside one.
int elements_of(const Datatype &t, size_t bytes);
// Basic elements in one item.
size_t elements_per_item(const Datatype &t);

// Whether one item of t is *per_item copies of the single predefined type *basic (itself for a
// predefined type, MPI_2INT ... included). False for mixed types and for types without data.
// Inline: every reduction asks, twice per call (the argument check and the kernel's choice).
bool uniform_basic_derived(const Datatype &t, const Datatype **basic, size_t *per_item);
inline bool uniform_basic(const Datatype &t, const Datatype **basic, size_t *per_item) {
    if (t.derived) return uniform_basic_derived(t, basic, per_item);
    if (t.size == 0) return false;
    *basic = &t;
    *per_item = 1;
    return true;
}

// References held past an MPI call; the object goes when neither the program nor any holder
// uses it. No-ops for predefined types.
void datatype_retain(Datatype *t);
void datatype_release(Datatype *t);

}  // namespace plexus::mpi
