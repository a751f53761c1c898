// Lowering a constructor tree to a loop program (see loop_build.h). Each type of the tree is
// lowered once (indexed types of a struct share its node), so the program is as large as the
// description, never as the data.
#include "mpi/datatype/loop_build.h"

#include <map>
#include <vector>

#include "mpi/datatype/derived_type.h"

namespace plexus::mpi {
namespace {

constexpr uint32_t kNone = LoopProgram::kNone;

void add_entry(LoopProgram &p, const LoopEntry &e) {
    p.entries.push_back(e);
    p.run_disp.push_back(e.disp);
    p.run_length.push_back(e.length);
}

class Builder {
public:
    explicit Builder(LoopProgram &p) : p_(p) {}

    LoopRef lower(const Datatype &t) {
        auto it = memo_.find(&t);
        if (it != memo_.end()) return it->second;
        const LoopRef r = t.predefined ? lower_predefined(t) : lower_derived(t);
        memo_[&t] = r;
        return r;
    }

private:
    struct Part {
        ptrdiff_t disp;
        LoopRef ref;
    };

    LoopRef lower_predefined(const Datatype &t) {
        std::vector<Part> parts;
        for (int b = 0; b < t.nblocks; ++b) parts.push_back({t.blocks[b].offset, leaf(t.blocks[b].length)});
        return sequence(parts);
    }

    LoopRef lower_derived(const Datatype &t) {
        const DerivedType &d = *t.derived;
        const auto &ints = d.ints;
        const auto &aints = d.aints;
        const Datatype &old = *d.types[0];
        const ptrdiff_t ext = old.extent;
        switch (t.combiner) {
            case Combiner::Dup:
            case Combiner::Resized:
                return lower(old);
            case Combiner::Subarray:
            case Combiner::Darray:
                return lower(*d.equivalent);
            case Combiner::Contiguous:
                return vector(size_t(ints[0]), ext, lower(old));
            case Combiner::Vector:
                return vector(size_t(ints[0]), ext * ints[2], vector(size_t(ints[1]), ext, lower(old)));
            case Combiner::Hvector:
                return vector(size_t(ints[0]), aints[0], vector(size_t(ints[1]), ext, lower(old)));
            case Combiner::Indexed:
            case Combiner::Hindexed:
            case Combiner::IndexedBlock:
            case Combiner::Struct:
                return lower_blocks(t);
            case Combiner::Named:
                break;
        }
        return {0, kNone};
    }

    // The block-list constructors: block i is ints/aints-given count copies of its type at its displacement.
    LoopRef lower_blocks(const Datatype &t) {
        const DerivedType &d = *t.derived;
        const int count = d.ints[0];
        std::vector<Part> parts;
        parts.reserve(size_t(count));
        for (int i = 0; i < count; ++i) {
            const Datatype &type = t.combiner == Combiner::Struct ? *d.types[size_t(i)] : *d.types[0];
            int blocklength;
            ptrdiff_t disp;
            switch (t.combiner) {
                case Combiner::Indexed:
                    blocklength = d.ints[size_t(1 + i)];
                    disp = d.ints[size_t(1 + count + i)] * type.extent;
                    break;
                case Combiner::IndexedBlock:
                    blocklength = d.ints[1];
                    disp = d.ints[size_t(2 + i)] * type.extent;
                    break;
                default:  // Hindexed, Struct
                    blocklength = d.ints[size_t(1 + i)];
                    disp = d.aints[size_t(i)];
            }
            parts.push_back({disp, vector(size_t(blocklength), type.extent, lower(type))});
        }
        return sequence(parts);
    }

    uint32_t add(const LoopNode &n) {
        p_.nodes.push_back(n);
        return uint32_t(p_.nodes.size() - 1);
    }

    LoopRef leaf(size_t length) {
        if (length == 0) return {0, kNone};
        auto it = leaves_.find(length);
        if (it != leaves_.end()) return {0, it->second};
        LoopNode n;
        n.kind = LoopKind::Leaf;
        n.size = length;
        return {0, leaves_[length] = add(n)};
    }

    const LoopNode &node(const LoopRef &r) const { return p_.nodes[r.node]; }

    LoopRef vector(size_t count, ptrdiff_t stride, LoopRef child) {
        if (count == 0 || child.node == kNone) return {0, kNone};
        if (count == 1) return child;
        const LoopNode c = node(child);
        if (c.kind == LoopKind::Leaf && stride == ptrdiff_t(c.size)) return {child.disp, leaf(count * c.size).node};
        // A vector of vectors whose instances follow on at the same stride is one longer vector.
        if (c.kind == LoopKind::Vector && ptrdiff_t(c.count) * c.stride == stride)
            return vector(count * c.count, c.stride, {child.disp + c.child.disp, c.child.node});
        LoopNode n;
        n.kind = LoopKind::Vector;
        n.size = count * c.size;
        n.count = count;
        n.stride = stride;
        n.child = child;
        return {0, add(n)};
    }

    struct Run {
        ptrdiff_t disp;
        size_t length;
    };

    // Parts in type-map order, each at its displacement: runs of bytes where possible.
    LoopRef sequence(const std::vector<Part> &parts) {
        std::vector<Part> items = flatten(parts, true);
        if (items.empty()) return {0, kNone};
        if (items.size() == 1) return {items[0].disp, items[0].ref.node};
        if (LoopRef r = regular(items); r.node != kNone) return r;
        // Runs of one length (an indexed block type) that merge where they happen to touch would
        // mix lengths and lose the copy loop of that length; unless merging removes most of
        // them, they stay apart.
        if (!equal_runs(items)) {
            std::vector<Part> apart = flatten(parts, false);
            if (equal_runs(apart) && 2 * items.size() > apart.size()) items = std::move(apart);
        }
        bool all_runs = true;
        for (const Part &i : items) all_runs = all_runs && node(i.ref).kind == LoopKind::Leaf;
        LoopNode n;
        n.kind = all_runs ? LoopKind::Blocks : LoopKind::Struct;
        n.first = uint32_t(p_.entries.size());
        n.n = uint32_t(items.size());
        n.block = all_runs ? node(items[0].ref).size : 0;
        for (const Part &i : items) {
            const size_t length = node(i.ref).size;
            if (length != n.block) n.block = 0;
            add_entry(p_, {i.disp, all_runs ? length : 0, i.ref.node, n.size});
            n.size += length;
        }
        return {0, add(n)};
    }

    // The parts as a list of runs and other nodes, runs that touch merged or not.
    std::vector<Part> flatten(const std::vector<Part> &parts, bool merge) {
        std::vector<Part> items;  // runs are Parts whose ref is a leaf
        for (const Part &part : parts) {
            if (part.ref.node == kNone) continue;
            const ptrdiff_t disp = part.disp + part.ref.disp;
            const LoopNode n = node(part.ref);  // a copy: appending may grow the node array
            if (n.kind == LoopKind::Blocks) {
                for (uint32_t i = 0; i < n.n; ++i) {
                    const LoopEntry &e = p_.entries[n.first + i];
                    append_run(items, {disp + e.disp, e.length}, merge);
                }
            } else if (n.kind == LoopKind::Leaf) {
                append_run(items, {disp, n.size}, merge);
            } else {
                items.push_back({disp, {0, part.ref.node}});
            }
        }
        return items;
    }

    // Whether all items are runs of one length (leaves are shared: one node per length).
    bool equal_runs(const std::vector<Part> &items) const {
        for (const Part &i : items)
            if (i.ref.node != items[0].ref.node || node(i.ref).kind != LoopKind::Leaf) return false;
        return true;
    }

    void append_run(std::vector<Part> &items, Run r, bool merge) {
        if (merge && !items.empty()) {
            Part &last = items.back();
            const LoopNode &ln = node(last.ref);
            if (ln.kind == LoopKind::Leaf && last.disp + ptrdiff_t(ln.size) == r.disp) {
                const size_t length = ln.size + r.length;
                last.ref = leaf(length);
                return;
            }
        }
        items.push_back({r.disp, leaf(r.length)});
    }

    // Items that are one node at evenly spaced displacements: a vector.
    LoopRef regular(const std::vector<Part> &items) {
        const ptrdiff_t step = items[1].disp - items[0].disp;
        for (size_t i = 1; i < items.size(); ++i)
            if (items[i].ref.node != items[0].ref.node || items[i].disp - items[i - 1].disp != step) return {0, kNone};
        return vector(items.size(), step, {items[0].disp, items[0].ref.node});
    }

    LoopProgram &p_;
    std::map<const Datatype *, LoopRef> memo_;
    std::map<size_t, uint32_t> leaves_;
};

// Simplifying leaves nodes nobody refers to (the parts that merged): copies what the root reaches.
class Compactor {
public:
    explicit Compactor(const LoopProgram &from) : from_(from), map_(from.nodes.size(), kNone) {}

    LoopProgram run() {
        out_.root = {from_.root.disp, copy(from_.root.node)};
        return std::move(out_);
    }

private:
    uint32_t copy(uint32_t k) {
        if (map_[k] != kNone) return map_[k];
        LoopNode n = from_.nodes[k];
        if (n.kind == LoopKind::Vector) n.child.node = copy(n.child.node);
        if (n.kind == LoopKind::Blocks || n.kind == LoopKind::Struct) {
            std::vector<LoopEntry> entries(from_.entries.begin() + n.first, from_.entries.begin() + n.first + n.n);
            if (n.kind == LoopKind::Struct)
                for (LoopEntry &e : entries) e.child = copy(e.child);
            n.first = uint32_t(out_.entries.size());
            for (const LoopEntry &e : entries) add_entry(out_, e);
        }
        out_.nodes.push_back(n);
        return map_[k] = uint32_t(out_.nodes.size() - 1);
    }

    const LoopProgram &from_;
    std::vector<uint32_t> map_;
    LoopProgram out_;
};

}  // namespace

LoopProgram build_program(const Datatype &t) {
    LoopProgram p;
    p.root = Builder(p).lower(t);
    if (p.empty()) return LoopProgram{};
    return Compactor(p).run();
}

bool program_is_contiguous(const LoopProgram &p, ptrdiff_t lb) {
    if (p.empty()) return true;
    return p.nodes[p.root.node].kind == LoopKind::Leaf && p.root.disp == lb;
}

}  // namespace plexus::mpi
