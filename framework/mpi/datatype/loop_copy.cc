// Running a loop program: copies between memory laid out by a type and its packed bytes, for any
// byte range of the packed stream. Runs of one common length (a vector's blocks, an index list
// whose runs are all alike) go through loops whose copy size the compiler knows, so that each
// copy is a load and a store or two; runs of mixed lengths are copied inline (copy_small.h),
// never by a library call per short run. A byte range is located once (division for vectors,
// binary search for lists); the runs inside it then take the same loops as whole items.
#include <algorithm>
#include <cstring>

#include "mpi/datatype/copy_small.h"
#include "mpi/datatype/loop.h"

namespace plexus::mpi {
namespace {

template <bool Pack>
class Mover {
public:
    Mover(const LoopProgram &p, char *packed) : p_(p), packed_(packed) {}

    // Bytes [skip, skip + n) of count instances of child, stride apart, starting at mem.
    void vector(const LoopRef &child, ptrdiff_t stride, char *mem, size_t skip, size_t n) {
        const size_t size = p_.nodes[child.node].size;
        if (size == 0 || n == 0) return;
        char *at = mem + child.disp + static_cast<ptrdiff_t>(skip / size) * stride;
        if (const size_t in = skip % size) {
            const size_t m = std::min(size - in, n);
            part(child.node, at, in, m);
            n -= m;
            at += stride;
        }
        if (const size_t full = n / size) {
            whole(child.node, at, stride, full);
            at += static_cast<ptrdiff_t>(full) * stride;
            n -= full * size;
        }
        if (n) part(child.node, at, 0, n);
    }

private:
    // One run of n bytes at mem, any length.
    void bytes(char *mem, size_t n) {
        if constexpr (Pack)
            copy_run(packed_, mem, n);
        else
            copy_run(mem, packed_, n);
        packed_ += n;
    }

    template <size_t L>
    static void move_fixed(char *mem, char *packed) {
        if constexpr (Pack)
            copy_fixed<L>(packed, mem);
        else
            copy_fixed<L>(mem, packed);
    }

    // count runs of L bytes, stride apart: each copy is a load and a store or two.
    // (These loops return where the packed bytes end.)
    template <size_t L>
    static char *runs_fixed(char *mem, ptrdiff_t stride, size_t count, char *packed) {
        for (size_t i = 0; i < count; ++i, mem += stride, packed += L) move_fixed<L>(mem, packed);
        return packed;
    }

    static char *runs_any(char *mem, ptrdiff_t stride, size_t count, size_t length, char *packed) {
        for (size_t i = 0; i < count; ++i, mem += stride, packed += length) {
            if constexpr (Pack)
                copy_run(packed, mem, length);
            else
                copy_run(mem, packed, length);
        }
        return packed;
    }

    // count runs of length bytes, stride apart. The lengths with loops of their own (here and in
    // runs_at) are those of the basic types and their small multiples.
    void runs(char *mem, ptrdiff_t stride, size_t count, size_t length) {
        if (stride == static_cast<ptrdiff_t>(length)) return bytes(mem, length * count);
        packed_ = runs_of_length(mem, stride, count, length, packed_);
    }

    static char *runs_of_length(char *mem, ptrdiff_t stride, size_t count, size_t length, char *packed) {
        switch (length) {
            case 1: return runs_fixed<1>(mem, stride, count, packed);
            case 2: return runs_fixed<2>(mem, stride, count, packed);
            case 4: return runs_fixed<4>(mem, stride, count, packed);
            case 8: return runs_fixed<8>(mem, stride, count, packed);
            case 12: return runs_fixed<12>(mem, stride, count, packed);
            case 16: return runs_fixed<16>(mem, stride, count, packed);
            case 24: return runs_fixed<24>(mem, stride, count, packed);
            case 32: return runs_fixed<32>(mem, stride, count, packed);
            case 48: return runs_fixed<48>(mem, stride, count, packed);
            case 64: return runs_fixed<64>(mem, stride, count, packed);
            default: return runs_any(mem, stride, count, length, packed);
        }
    }

    // n runs of L bytes at mem + disp[r]: only the displacements are read.
    template <size_t L>
    static char *blocks_fixed(const ptrdiff_t *disp, uint32_t n, char *mem, char *packed) {
        for (uint32_t r = 0; r < n; ++r, packed += L) move_fixed<L>(mem + disp[r], packed);
        return packed;
    }

    static char *blocks_any(const ptrdiff_t *disp, const size_t *length, uint32_t n, char *mem, char *packed) {
        for (uint32_t r = 0; r < n; ++r) {
            if constexpr (Pack)
                copy_run(packed, mem + disp[r], length[r]);
            else
                copy_run(mem + disp[r], packed, length[r]);
            packed += length[r];
        }
        return packed;
    }

    // Runs [i, j) of a Blocks node whose instance is at mem, all of them.
    void blocks(const LoopNode &node, uint32_t i, uint32_t j, char *mem) {
        const ptrdiff_t *disp = p_.run_disp.data() + node.first + i;
        const size_t *length = p_.run_length.data() + node.first + i;
        packed_ = runs_at(disp, length, j - i, node.block, mem, packed_);
    }

    // n runs at mem + disp[r], of length block each (0: of length[r]).
    static char *runs_at(const ptrdiff_t *disp, const size_t *length, uint32_t n, size_t block, char *mem, char *packed) {
        switch (block) {
            case 1: return blocks_fixed<1>(disp, n, mem, packed);
            case 2: return blocks_fixed<2>(disp, n, mem, packed);
            case 4: return blocks_fixed<4>(disp, n, mem, packed);
            case 8: return blocks_fixed<8>(disp, n, mem, packed);
            case 12: return blocks_fixed<12>(disp, n, mem, packed);
            case 16: return blocks_fixed<16>(disp, n, mem, packed);
            case 24: return blocks_fixed<24>(disp, n, mem, packed);
            case 32: return blocks_fixed<32>(disp, n, mem, packed);
            case 48: return blocks_fixed<48>(disp, n, mem, packed);
            case 64: return blocks_fixed<64>(disp, n, mem, packed);
            default: return blocks_any(disp, length, n, mem, packed);
        }
    }

    // count whole instances of node k, stride apart, starting at mem.
    void whole(uint32_t k, char *mem, ptrdiff_t stride, size_t count) {
        const LoopNode &node = p_.nodes[k];
        switch (node.kind) {
            case LoopKind::Leaf:
                return runs(mem, stride, count, node.size);
            case LoopKind::Vector: {
                const LoopNode &c = p_.nodes[node.child.node];
                for (size_t i = 0; i < count; ++i, mem += stride) {
                    if (c.kind == LoopKind::Leaf)
                        runs(mem + node.child.disp, node.stride, node.count, c.size);
                    else
                        whole(node.child.node, mem + node.child.disp, node.stride, node.count);
                }
                return;
            }
            case LoopKind::Blocks:
                for (size_t i = 0; i < count; ++i, mem += stride) blocks(node, 0, node.n, mem);
                return;
            case LoopKind::Struct:
                for (size_t i = 0; i < count; ++i, mem += stride) {
                    const LoopEntry *e = &p_.entries[node.first];
                    for (uint32_t j = 0; j < node.n; ++j) whole(e[j].child, mem + e[j].disp, 0, 1);
                }
                return;
        }
    }

    // Bytes [skip, skip + n) of one instance of node k at mem.
    void part(uint32_t k, char *mem, size_t skip, size_t n) {
        const LoopNode &node = p_.nodes[k];
        if (skip == 0 && n == node.size) return whole(k, mem, 0, 1);
        switch (node.kind) {
            case LoopKind::Leaf:
                return bytes(mem + skip, n);
            case LoopKind::Vector:
                return vector(node.child, node.stride, mem, skip, n);
            case LoopKind::Blocks:
                return run_range(node, mem, skip, n);
            case LoopKind::Struct:
                return child_range(node, mem, skip, n);
        }
    }

    // The index of the entry of node holding packed byte at: the last one that starts at or before it.
    uint32_t entry_at(const LoopNode &node, size_t at) const {
        const LoopEntry *begin = &p_.entries[node.first], *end = begin + node.n;
        const LoopEntry *e = std::upper_bound(begin, end, at, [](size_t s, const LoopEntry &x) { return s < x.packed; });
        return uint32_t(e - begin - 1);
    }

    // Bytes [skip, skip + n) of a Blocks instance: the tail of a first run, whole runs, the head of a last.
    void run_range(const LoopNode &node, char *mem, size_t skip, size_t n) {
        const LoopEntry *e = &p_.entries[node.first];
        const size_t end = skip + n;
        uint32_t i = entry_at(node, skip);
        if (const size_t in = skip - e[i].packed) {
            const size_t m = std::min(e[i].length - in, n);
            bytes(mem + e[i].disp + in, m);
            if (m == n) return;
            ++i;
        }
        uint32_t j = entry_at(node, end - 1);  // the run holding the last byte
        if (e[j].packed + e[j].length == end) ++j;
        blocks(node, i, j, mem);
        if (j < node.n && end > e[j].packed) bytes(mem + e[j].disp, end - e[j].packed);
    }

    // Bytes [skip, skip + n) of a Struct instance, child by child.
    void child_range(const LoopNode &node, char *mem, size_t skip, size_t n) {
        for (const LoopEntry *e = &p_.entries[node.first] + entry_at(node, skip); n > 0; ++e) {
            const size_t in = skip - e->packed;
            const size_t m = std::min(p_.nodes[e->child].size - in, n);
            part(e->child, mem + e->disp, in, m);
            n -= m;
            skip += m;
        }
    }

    const LoopProgram &p_;
    char *packed_;
};

// MPI_BOTTOM (NULL) with absolute displacements: address arithmetic on integers, not on a null pointer.
char *at(const void *base, ptrdiff_t disp) {
    return reinterpret_cast<char *>(reinterpret_cast<uintptr_t>(base) + static_cast<uintptr_t>(disp));
}

}  // namespace

void loop_pack(const LoopProgram &p, const char *base, ptrdiff_t extent, size_t offset, size_t n, char *dst) {
    if (p.empty()) return;
    Mover<true>(p, dst).vector({0, p.root.node}, extent, at(base, p.root.disp), offset, n);
}

void loop_unpack(const LoopProgram &p, char *base, ptrdiff_t extent, size_t offset, size_t n, const char *src) {
    if (p.empty()) return;
    Mover<false>(p, const_cast<char *>(src)).vector({0, p.root.node}, extent, at(base, p.root.disp), offset, n);
}

}  // namespace plexus::mpi
