// The committed form of a datatype: a small tree of loops ("dataloop") whose size does not grow
// with counts. Leaves are runs of bytes; a Vector repeats one child at a stride; Blocks is a list
// of byte runs (indexed types of basic data, merged where adjacent unless that would mix the
// lengths of runs that are all alike); Struct a list of children.
// Each node knows its packed size, so that a byte position in the packed stream is reached by
// division and binary search, never by walking what comes before it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plexus::mpi {

enum class LoopKind : uint8_t { Leaf, Vector, Blocks, Struct };

// A child placed at disp bytes from its parent's origin.
struct LoopRef {
    ptrdiff_t disp = 0;
    uint32_t node = 0;
};

struct LoopEntry {
    ptrdiff_t disp = 0;    // from the node's origin
    size_t length = 0;     // Blocks: bytes of the run
    uint32_t child = 0;    // Struct: the node placed at disp
    size_t packed = 0;     // packed bytes of the entries before this one
};

struct LoopNode {
    LoopKind kind = LoopKind::Leaf;
    size_t size = 0;        // packed bytes of one instance (Leaf: its length)
    // Vector: count instances of child, instance i at child.disp + i * stride.
    size_t count = 0;
    ptrdiff_t stride = 0;
    LoopRef child;
    // Blocks, Struct: entries [first, first + n).
    uint32_t first = 0;
    uint32_t n = 0;
    size_t block = 0;       // Blocks: the length all runs share (0 when they differ)
};

struct LoopProgram {
    std::vector<LoopNode> nodes;
    std::vector<LoopEntry> entries;
    // Each entry's disp and length again, one array each (same index as entries), so that the
    // copy loops of Blocks read 8 bytes per run (runs of one length) or 16, not a whole entry.
    std::vector<ptrdiff_t> run_disp;
    std::vector<size_t> run_length;
    static constexpr uint32_t kNone = UINT32_MAX;  // a LoopRef to nothing (no data)
    LoopRef root{0, kNone};  // one item of the type
    bool empty() const { return root.node == kNone; }
};

// Moves packed bytes [offset, offset + n) of count items (extent apart) of program p at base.
void loop_pack(const LoopProgram &p, const char *base, ptrdiff_t extent, size_t offset, size_t n, char *dst);
void loop_unpack(const LoopProgram &p, char *base, ptrdiff_t extent, size_t offset, size_t n, const char *src);

}  // namespace plexus::mpi
