// Unit tests of the derived-datatype engine: every constructor's size, bounds, true bounds,
// combiner and contents; pack and unpack of random type trees (vectors of structs of indexed
// types, negative strides and displacements, resized types) against a naive implementation
// that walks the flattened type map; every split of a partial pack/unpack equal to the whole;
// MPI_Get_elements; uniform basic types; reference counts; the committed program's shortcuts.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mpi/datatype.h"
#include "mpi/datatype/construct.h"
#include "mpi/datatype/derived_type.h"

using namespace plexus::mpi;

namespace {

// One basic element of a flattened type map.
struct Entry {
    ptrdiff_t disp;
    size_t size;
};

// The type map of one item, written from the MPI definitions of the constructors and nothing
// else: the naive reference the engine is compared with.
void flatten(const Datatype &t, ptrdiff_t at, std::vector<Entry> &out) {
    if (t.predefined) {
        for (int b = 0; b < t.nblocks; ++b) out.push_back({at + t.blocks[b].offset, t.blocks[b].length});
        return;
    }
    const DerivedType &d = *t.derived;
    const auto &in = d.ints;
    const Datatype &old = *d.types[0];
    auto repeat = [&](const Datatype &c, ptrdiff_t disp, int n) {
        for (int k = 0; k < n; ++k) flatten(c, at + disp + k * c.extent, out);
    };
    switch (t.combiner) {
        case Combiner::Contiguous: repeat(old, 0, in[0]); break;
        case Combiner::Vector:
            for (int i = 0; i < in[0]; ++i) repeat(old, ptrdiff_t(i) * in[2] * old.extent, in[1]);
            break;
        case Combiner::Hvector:
            for (int i = 0; i < in[0]; ++i) repeat(old, ptrdiff_t(i) * d.aints[0], in[1]);
            break;
        case Combiner::Indexed:
            for (int i = 0; i < in[0]; ++i) repeat(old, ptrdiff_t(in[size_t(1 + in[0] + i)]) * old.extent, in[size_t(1 + i)]);
            break;
        case Combiner::Hindexed:
            for (int i = 0; i < in[0]; ++i) repeat(old, d.aints[size_t(i)], in[size_t(1 + i)]);
            break;
        case Combiner::IndexedBlock:
            for (int i = 0; i < in[0]; ++i) repeat(old, ptrdiff_t(in[size_t(2 + i)]) * old.extent, in[1]);
            break;
        case Combiner::Struct:
            for (int i = 0; i < in[0]; ++i) repeat(*d.types[size_t(i)], d.aints[size_t(i)], in[size_t(1 + i)]);
            break;
        case Combiner::Dup:
        case Combiner::Resized: repeat(old, 0, 1); break;
        // Their type maps are their equivalents' (tests/mpi/datatype_subarray.c and
        // datatype_darray.c check those against a model of their own).
        case Combiner::Subarray:
        case Combiner::Darray: repeat(*d.equivalent, 0, 1); break;
        case Combiner::Named: break;
    }
}

std::vector<Entry> type_map(const Datatype &t, int count) {
    std::vector<Entry> map;
    for (int i = 0; i < count; ++i) flatten(t, ptrdiff_t(i) * t.extent, map);
    return map;
}

// Owns the types a test makes (the program's handles).
class Types {
public:
    ~Types() {
        for (Datatype *t : made_) free_handle(t);
    }
    Datatype *keep(Datatype *t) {
        made_.push_back(t);
        return t;
    }

private:
    std::vector<Datatype *> made_;
};

// A memory region addressed by displacements that may be negative.
struct Region {
    ptrdiff_t low = 0, high = 0;
    std::vector<unsigned char> bytes;
    explicit Region(const std::vector<Entry> &map) {
        for (const Entry &e : map) {
            low = std::min(low, e.disp);
            high = std::max(high, e.disp + ptrdiff_t(e.size));
        }
        bytes.assign(size_t(high - low), 0);
    }
    unsigned char *origin() { return bytes.data() - low; }
};

std::vector<unsigned char> naive_pack(const std::vector<Entry> &map, const unsigned char *origin) {
    std::vector<unsigned char> out;
    for (const Entry &e : map) out.insert(out.end(), origin + e.disp, origin + e.disp + e.size);
    return out;
}

void naive_unpack(const std::vector<Entry> &map, const unsigned char *packed, size_t bytes, unsigned char *origin) {
    for (const Entry &e : map) {
        const size_t n = std::min(e.size, bytes);
        std::memcpy(origin + e.disp, packed, n);
        packed += n;
        bytes -= n;
        if (!bytes) break;
    }
}

int naive_elements(const std::vector<Entry> &map, size_t bytes) {
    int n = 0;
    for (const Entry &e : map) {
        if (bytes == 0) break;
        if (bytes < e.size) return MPI_UNDEFINED;
        bytes -= e.size;
        ++n;
    }
    return n;
}

std::vector<int> contents_ints(const Datatype *t) { return t->derived->ints; }

}  // namespace

// ---------------------------------------------------------------- constructors

TEST(MpiDatatypeEngine, ContiguousOfIntsIsContiguous) {
    Types k;
    Datatype *t = k.keep(make_contiguous(5, MPI_INT));
    commit(t);
    EXPECT_EQ(t->size, 20u);
    EXPECT_EQ(t->lb, 0);
    EXPECT_EQ(t->extent, 20);
    EXPECT_EQ(t->true_lb, 0);
    EXPECT_EQ(t->true_extent, 20);
    EXPECT_TRUE(t->contiguous);
    EXPECT_EQ(t->combiner, Combiner::Contiguous);
    EXPECT_EQ(contents_ints(t), std::vector<int>{5});
    EXPECT_EQ(t->derived->types, std::vector<Datatype *>{MPI_INT});
    EXPECT_FALSE(t->predefined);
    EXPECT_EQ(t->name[0], '\0') << "derived types are unnamed";
}

TEST(MpiDatatypeEngine, VectorBoundsAndContents) {
    Types k;
    Datatype *t = k.keep(make_vector(3, 2, 5, MPI_DOUBLE));
    EXPECT_FALSE(t->committed);
    commit(t);
    EXPECT_EQ(t->size, 48u);
    EXPECT_EQ(t->lb, 0);
    EXPECT_EQ(t->extent, (2 * 5 + 2) * 8);
    EXPECT_EQ(t->true_extent, (2 * 5 + 2) * 8);
    EXPECT_FALSE(t->contiguous);
    EXPECT_EQ(contents_ints(t), (std::vector<int>{3, 2, 5}));
    EXPECT_EQ(elements_per_item(*t), 6u);
    // A vector whose blocks abut is contiguous.
    Datatype *c = k.keep(make_vector(4, 3, 3, MPI_INT));
    commit(c);
    EXPECT_TRUE(c->contiguous);
    EXPECT_EQ(c->extent, 48);
}

TEST(MpiDatatypeEngine, NegativeStrideVector) {
    Types k;
    Datatype *t = k.keep(make_vector(3, 1, -2, MPI_INT));
    commit(t);
    EXPECT_EQ(t->size, 12u);
    EXPECT_EQ(t->lb, -16);
    EXPECT_EQ(t->extent, 20);
    EXPECT_EQ(t->true_lb, -16);
    EXPECT_EQ(t->true_extent, 20);
    int data[5] = {10, 11, 12, 13, 14};
    int packed[3];
    pack(*t, data + 4, 1, packed);
    EXPECT_EQ(packed[0], 14);
    EXPECT_EQ(packed[1], 12);
    EXPECT_EQ(packed[2], 10);
}

TEST(MpiDatatypeEngine, HvectorIndexedHindexedIndexedBlockContents) {
    Types k;
    Datatype *hv = k.keep(make_hvector(2, 3, -100, MPI_SHORT));
    EXPECT_EQ(hv->combiner, Combiner::Hvector);
    EXPECT_EQ(contents_ints(hv), (std::vector<int>{2, 3}));
    EXPECT_EQ(hv->derived->aints, std::vector<MPI_Aint>{-100});
    EXPECT_EQ(hv->lb, -100);
    EXPECT_EQ(hv->extent, 106);
    EXPECT_EQ(hv->size, 12u);

    const int bl[3] = {2, 0, 1}, disp[3] = {4, 100, -1};
    Datatype *ix = k.keep(make_indexed(3, bl, disp, MPI_INT));
    EXPECT_EQ(ix->combiner, Combiner::Indexed);
    EXPECT_EQ(contents_ints(ix), (std::vector<int>{3, 2, 0, 1, 4, 100, -1}));
    EXPECT_EQ(ix->size, 12u);
    EXPECT_EQ(ix->lb, -4) << "the empty block adds nothing";
    EXPECT_EQ(ix->extent, 28);

    const MPI_Aint hdisp[2] = {8, -8};
    const int hbl[2] = {1, 1};
    Datatype *hx = k.keep(make_hindexed(2, hbl, hdisp, MPI_DOUBLE));
    EXPECT_EQ(hx->combiner, Combiner::Hindexed);
    EXPECT_EQ(contents_ints(hx), (std::vector<int>{2, 1, 1}));
    EXPECT_EQ(hx->derived->aints, (std::vector<MPI_Aint>{8, -8}));
    EXPECT_EQ(hx->lb, -8);
    EXPECT_EQ(hx->extent, 24);

    const int bdisp[2] = {3, 0};
    Datatype *ib = k.keep(make_indexed_block(2, 2, bdisp, MPI_FLOAT));
    EXPECT_EQ(ib->combiner, Combiner::IndexedBlock);
    EXPECT_EQ(contents_ints(ib), (std::vector<int>{2, 2, 3, 0}));
    EXPECT_EQ(ib->extent, 20);
    EXPECT_EQ(ib->size, 16u);
}

TEST(MpiDatatypeEngine, StructPadsItsExtentToTheLargestAlignment) {
    Types k;
    struct S {
        double d;
        char c;
    };
    const int bl[2] = {1, 1};
    const MPI_Aint disp[2] = {offsetof(S, d), offsetof(S, c)};
    Datatype *types[2] = {MPI_DOUBLE, MPI_CHAR};
    Datatype *t = k.keep(make_struct(2, bl, disp, types));
    EXPECT_EQ(t->combiner, Combiner::Struct);
    EXPECT_EQ(t->size, 9u);
    EXPECT_EQ(t->extent, ptrdiff_t(sizeof(S)));
    EXPECT_EQ(t->true_extent, 9);
    EXPECT_EQ(t->derived->types, (std::vector<Datatype *>{MPI_DOUBLE, MPI_CHAR}));
    // No padding for a struct of chars; a resized member's explicit bounds are not padded either.
    Datatype *chars[2] = {MPI_CHAR, MPI_CHAR};
    const MPI_Aint cdisp[2] = {0, 2};
    Datatype *c = k.keep(make_struct(2, bl, cdisp, chars));
    EXPECT_EQ(c->extent, 3);
    Datatype *r = k.keep(make_resized(MPI_INT, 0, 5));
    Datatype *rs[1] = {r};
    Datatype *sr = k.keep(make_struct(1, bl, cdisp, rs));
    EXPECT_EQ(sr->extent, 5) << "ub marker: no alignment padding";
    EXPECT_TRUE(sr->sticky_ub);
}

TEST(MpiDatatypeEngine, ResizedMarkersWinInEveryTypeBuiltOnThem) {
    Types k;
    Datatype *r = k.keep(make_resized(MPI_INT, -4, 16));
    EXPECT_EQ(r->combiner, Combiner::Resized);
    EXPECT_EQ(r->derived->aints, (std::vector<MPI_Aint>{-4, 16}));
    EXPECT_EQ(r->lb, -4);
    EXPECT_EQ(r->extent, 16);
    EXPECT_EQ(r->true_lb, 0);
    EXPECT_EQ(r->true_extent, 4);
    Datatype *c = k.keep(make_contiguous(3, r));
    EXPECT_EQ(c->lb, -4);
    EXPECT_EQ(c->extent, 48);
    EXPECT_EQ(c->true_lb, 0);
    EXPECT_EQ(c->true_extent, 36);
    // A struct of a resized int (markers) and a plain double far away: the markers set the bounds.
    const int bl[2] = {1, 1};
    const MPI_Aint disp[2] = {0, 100};
    Datatype *types[2] = {r, MPI_DOUBLE};
    Datatype *s = k.keep(make_struct(2, bl, disp, types));
    EXPECT_EQ(s->lb, -4);
    EXPECT_EQ(s->extent, 16);
    EXPECT_EQ(s->true_extent, 108);
    commit(c);
    int data[12];
    for (int i = 0; i < 12; ++i) data[i] = i;
    int packed[3];
    pack(*c, data, 1, packed);
    EXPECT_EQ(packed[0], 0);
    EXPECT_EQ(packed[1], 4);
    EXPECT_EQ(packed[2], 8);
}

TEST(MpiDatatypeEngine, DupKeepsTheTypeMapAndCommittedState) {
    Types k;
    Datatype *v = k.keep(make_vector(2, 1, 3, MPI_INT));
    Datatype *d1 = k.keep(make_dup(v));
    EXPECT_FALSE(d1->committed);
    commit(v);
    Datatype *d2 = k.keep(make_dup(v));
    EXPECT_TRUE(d2->committed);
    EXPECT_EQ(d2->combiner, Combiner::Dup);
    EXPECT_EQ(d2->extent, v->extent);
    EXPECT_EQ(d2->size, v->size);
    EXPECT_EQ(d2->derived->types, std::vector<Datatype *>{v});
    EXPECT_TRUE(d2->derived->ints.empty());
}

TEST(MpiDatatypeEngine, EmptyTypes) {
    Types k;
    Datatype *t = k.keep(make_contiguous(0, MPI_INT));
    commit(t);
    EXPECT_EQ(t->size, 0u);
    EXPECT_EQ(t->extent, 0);
    EXPECT_EQ(t->true_extent, 0);
    EXPECT_EQ(elements_of(*t, 0), 0);
    const Datatype *basic = nullptr;
    size_t per = 0;
    EXPECT_FALSE(uniform_basic(*t, &basic, &per));
}

// ---------------------------------------------------------------- uniform basic type

TEST(MpiDatatypeEngine, UniformBasicType) {
    Types k;
    const Datatype *basic = nullptr;
    size_t per = 0;
    ASSERT_TRUE(uniform_basic(*MPI_DOUBLE, &basic, &per));
    EXPECT_EQ(basic, MPI_DOUBLE);
    EXPECT_EQ(per, 1u);
    ASSERT_TRUE(uniform_basic(*MPI_2INT, &basic, &per));
    EXPECT_EQ(basic, MPI_2INT);
    Datatype *v = k.keep(make_vector(3, 2, 4, MPI_FLOAT));
    Datatype *r = k.keep(make_resized(v, 0, 1000));
    Datatype *c = k.keep(make_contiguous(2, r));
    ASSERT_TRUE(uniform_basic(*c, &basic, &per));
    EXPECT_EQ(basic, MPI_FLOAT);
    EXPECT_EQ(per, 12u);
    const int bl[2] = {1, 1};
    const MPI_Aint disp[2] = {0, 8};
    Datatype *types[2] = {MPI_INT, MPI_FLOAT};
    Datatype *s = k.keep(make_struct(2, bl, disp, types));
    EXPECT_FALSE(uniform_basic(*s, &basic, &per)) << "int and float are not one type";
    Datatype *same[2] = {MPI_INT, v};
    Datatype *s2 = k.keep(make_struct(2, bl, disp, same));
    EXPECT_FALSE(uniform_basic(*s2, &basic, &per));
}

// ---------------------------------------------------------------- elements

TEST(MpiDatatypeEngine, ElementsCountPartialItemsAndBasicElements) {
    Types k;
    struct S {
        double d;
        int i[2];
    };
    const int bl[2] = {1, 2};
    const MPI_Aint disp[2] = {offsetof(S, d), offsetof(S, i)};
    Datatype *types[2] = {MPI_DOUBLE, MPI_INT};
    Datatype *s = k.keep(make_struct(2, bl, disp, types));
    commit(s);
    EXPECT_EQ(elements_of(*s, 16), 3);
    EXPECT_EQ(elements_of(*s, 32), 6);
    EXPECT_EQ(elements_of(*s, 16 + 8), 4) << "one item and a double";
    EXPECT_EQ(elements_of(*s, 16 + 12), 5);
    EXPECT_EQ(elements_of(*s, 16 + 4), MPI_UNDEFINED) << "ends inside a double";
    EXPECT_EQ(elements_of(*s, 16 + 10), MPI_UNDEFINED);
    EXPECT_EQ(count_of(*s, 32), 2);
    EXPECT_EQ(count_of(*s, 28), MPI_UNDEFINED);
    Datatype *pairs = k.keep(make_contiguous(2, MPI_DOUBLE_INT));
    EXPECT_EQ(elements_of(*pairs, 24 + 8), 5) << "pair types count both members";
}

// ---------------------------------------------------------------- the committed program

TEST(MpiDatatypeEngine, ProgramsStaySmallWhateverTheCount) {
    Types k;
    Datatype *big = k.keep(make_vector(1000000, 3, 7, MPI_INT));
    Datatype *small = k.keep(make_vector(2, 3, 7, MPI_INT));
    commit(big);
    commit(small);
    EXPECT_EQ(big->derived->program->nodes.size(), small->derived->program->nodes.size());
    EXPECT_LE(big->derived->program->nodes.size(), 2u);
    // Indexed blocks that touch are merged; the result is one run.
    const int bl[3] = {1, 2, 1}, disp[3] = {0, 1, 3};
    Datatype *ix = k.keep(make_indexed(3, bl, disp, MPI_INT));
    commit(ix);
    EXPECT_TRUE(ix->contiguous);
    EXPECT_EQ(ix->derived->program->nodes.size(), 1u);
    // A struct of members without holes between them is contiguous.
    struct P {
        int a;
        float b;
    };
    const int sbl[2] = {1, 1};
    const MPI_Aint sdisp[2] = {offsetof(P, a), offsetof(P, b)};
    Datatype *types[2] = {MPI_INT, MPI_FLOAT};
    Datatype *s = k.keep(make_struct(2, sbl, sdisp, types));
    commit(s);
    EXPECT_TRUE(s->contiguous);
    // ... and MPI_DOUBLE_INT (a hole at the end) is not.
    Datatype *d = k.keep(make_contiguous(1, MPI_DOUBLE_INT));
    commit(d);
    EXPECT_FALSE(d->contiguous);
}

// ---------------------------------------------------------------- random trees against the naive walk

namespace {

class RandomTypes {
public:
    RandomTypes(Types &k, unsigned seed) : k_(k), rng_(seed) {}

    // A type of at most depth levels of constructors over predefined leaves.
    Datatype *make(int depth) {
        if (depth == 0 || pick(4) == 0) return basic();
        Datatype *old = make(depth - 1);
        switch (pick(9)) {
            case 0: return k_.keep(make_contiguous(pick(4), old));
            case 1: return k_.keep(make_vector(pick(4), pick(3), int(pick(7)) - 3, old));
            case 2: return k_.keep(make_hvector(pick(4), pick(3), ptrdiff_t(pick(64)) - 32, old));
            case 3: {
                const int n = pick(4);
                std::vector<int> bl(static_cast<size_t>(n)), disp(static_cast<size_t>(n));
                for (int i = 0; i < n; ++i) {
                    bl[size_t(i)] = pick(3);
                    disp[size_t(i)] = int(pick(9)) - 4;
                }
                return k_.keep(make_indexed(n, bl.data(), disp.data(), old));
            }
            case 4: {
                const int n = pick(4);
                std::vector<int> bl(static_cast<size_t>(n));
                std::vector<MPI_Aint> disp(static_cast<size_t>(n));
                for (int i = 0; i < n; ++i) {
                    bl[size_t(i)] = pick(3);
                    disp[size_t(i)] = ptrdiff_t(pick(80)) - 40;
                }
                return k_.keep(make_hindexed(n, bl.data(), disp.data(), old));
            }
            case 5: {
                const int n = pick(4);
                std::vector<int> disp(static_cast<size_t>(n));
                for (int i = 0; i < n; ++i) disp[size_t(i)] = int(pick(9)) - 4;
                return k_.keep(make_indexed_block(n, pick(3), disp.data(), old));
            }
            case 6: {
                const int n = 1 + pick(3);
                std::vector<int> bl(static_cast<size_t>(n));
                std::vector<MPI_Aint> disp(static_cast<size_t>(n));
                std::vector<Datatype *> types(static_cast<size_t>(n));
                for (int i = 0; i < n; ++i) {
                    bl[size_t(i)] = pick(3);
                    disp[size_t(i)] = ptrdiff_t(pick(96)) - 48;
                    types[size_t(i)] = i == 0 ? old : make(depth - 1);
                }
                return k_.keep(make_struct(n, bl.data(), disp.data(), types.data()));
            }
            case 7: return k_.keep(make_resized(old, ptrdiff_t(pick(16)) - 8, ptrdiff_t(pick(40)) - 4));
            default: return k_.keep(make_dup(old));
        }
    }

private:
    Datatype *basic() {
        static Datatype *const basics[] = {MPI_CHAR, MPI_SHORT, MPI_INT, MPI_DOUBLE, MPI_DOUBLE_INT, MPI_SHORT_INT,
                                           MPI_C_DOUBLE_COMPLEX};
        return basics[pick(sizeof basics / sizeof basics[0])];
    }
    int pick(size_t n) { return int(std::uniform_int_distribution<size_t>(0, n - 1)(rng_)); }

    Types &k_;
    std::mt19937 rng_;
};

// Checks one type with count items: whole pack and unpack, and every split of both.
void check_against_naive(Datatype *t, int count, const std::string &what) {
    commit(t);
    const std::vector<Entry> map = type_map(*t, count);
    size_t total = 0;
    for (const Entry &e : map) total += e.size;
    ASSERT_EQ(total, packed_bytes(t, count)) << what;
    Region src(map);
    for (size_t i = 0; i < src.bytes.size(); ++i) src.bytes[i] = static_cast<unsigned char>(i * 7 + 3);
    const std::vector<unsigned char> expect = naive_pack(map, src.origin());

    std::vector<unsigned char> got(total + 1, 0xEE);
    pack(*t, src.origin(), count, got.data());
    ASSERT_EQ(std::vector<unsigned char>(got.begin(), got.begin() + ptrdiff_t(total)), expect) << what;
    EXPECT_EQ(got[total], 0xEE) << what << ": wrote past the packed bytes";

    // Every split point of a partial pack gives the same bytes as the whole.
    for (size_t split = 0; split <= total; ++split) {
        std::vector<unsigned char> parts(total, 0);
        pack_range(*t, src.origin(), size_t(count), 0, split, parts.data());
        pack_range(*t, src.origin(), size_t(count), split, total - split, parts.data() + split);
        ASSERT_EQ(parts, expect) << what << ": split at " << split;
    }

    // Unpack into a region full of a marker: the type map gets the data, nothing else changes.
    // (Overlapping type maps are fine for both: later entries win in both.)
    Region want(map), dst(map);
    std::fill(want.bytes.begin(), want.bytes.end(), 0x5A);
    naive_unpack(map, expect.data(), total, want.origin());
    std::fill(dst.bytes.begin(), dst.bytes.end(), 0x5A);
    unpack(*t, expect.data(), total, dst.origin());
    ASSERT_EQ(dst.bytes, want.bytes) << what;
    for (size_t split = 0; split <= total; split += 1 + total / 23) {
        std::fill(dst.bytes.begin(), dst.bytes.end(), 0x5A);
        unpack_range(*t, dst.origin(), size_t(count), 0, split, expect.data());
        unpack_range(*t, dst.origin(), size_t(count), split, total - split, expect.data() + split);
        ASSERT_EQ(dst.bytes, want.bytes) << what << ": split at " << split;
        // A truncated message: only the first split bytes arrive.
        Region cut(map);
        std::fill(cut.bytes.begin(), cut.bytes.end(), 0x5A);
        naive_unpack(map, expect.data(), split, cut.origin());
        std::fill(dst.bytes.begin(), dst.bytes.end(), 0x5A);
        unpack(*t, expect.data(), split, dst.origin());
        ASSERT_EQ(dst.bytes, cut.bytes) << what << ": truncated at " << split;
        EXPECT_EQ(elements_of(*t, split), naive_elements(map, split)) << what << ": elements in " << split;
    }
}

}  // namespace

TEST(MpiDatatypeEngine, RandomTypeTreesPackLikeTheNaiveWalk) {
    for (unsigned seed = 1; seed <= 300; ++seed) {
        Types k;
        RandomTypes gen(k, seed);
        Datatype *t = gen.make(4);
        if (t->predefined) t = k.keep(make_contiguous(1, t));
        check_against_naive(t, 1 + int(seed % 3), "seed " + std::to_string(seed));
        if (HasFatalFailure()) return;
    }
}

TEST(MpiDatatypeEngine, NestedVectorOfStructOfIndexed) {
    Types k;
    const int bl[3] = {2, 1, 3}, disp[3] = {5, 0, -4};
    Datatype *ix = k.keep(make_indexed(3, bl, disp, MPI_SHORT));
    const int sbl[3] = {2, 1, 1};
    const MPI_Aint sdisp[3] = {0, 40, -24};
    Datatype *types[3] = {ix, MPI_DOUBLE, MPI_CHAR};
    Datatype *s = k.keep(make_struct(3, sbl, sdisp, types));
    Datatype *v = k.keep(make_vector(4, 2, -3, s));
    Datatype *r = k.keep(make_resized(v, -8, 56));
    Datatype *outer = k.keep(make_hvector(3, 1, 1000, r));
    check_against_naive(outer, 2, "vector of struct of indexed");
}

TEST(MpiDatatypeEngine, StridedFastPathsMatchTheNaiveWalk) {
    Types k;
    // Block sizes that take the fixed-size loops (1, 2, 4, 8, 12, 16, 32 bytes) and others.
    for (int blocklength : {1, 2, 3, 4, 5, 8, 16}) {
        for (int stride : {-9, -1, 17}) {
            Datatype *v = k.keep(make_vector(33, blocklength, stride * blocklength, MPI_CHAR));
            check_against_naive(v, 2, "vector of " + std::to_string(blocklength) + " chars, stride " + std::to_string(stride));
            Datatype *w = k.keep(make_vector(9, blocklength, stride * blocklength, MPI_INT));
            check_against_naive(w, 3, "vector of " + std::to_string(blocklength) + " ints, stride " + std::to_string(stride));
            if (HasFatalFailure()) return;
        }
    }
    const int disp[5] = {9, 0, 4, 20, 2};
    Datatype *ib = k.keep(make_indexed_block(5, 1, disp, MPI_DOUBLE));
    check_against_naive(ib, 4, "indexed block of doubles");
}

// ---------------------------------------------------------------- absolute addresses and life cycle

TEST(MpiDatatypeEngine, AbsoluteAddressesFromMpiBottom) {
    Types k;
    int a = 7;
    double b = 2.5;
    const int bl[2] = {1, 1};
    const MPI_Aint disp[2] = {MPI_Aint(reinterpret_cast<uintptr_t>(&a)), MPI_Aint(reinterpret_cast<uintptr_t>(&b))};
    Datatype *types[2] = {MPI_INT, MPI_DOUBLE};
    Datatype *t = k.keep(make_struct(2, bl, disp, types));
    commit(t);
    unsigned char packed[12];
    pack(*t, MPI_BOTTOM, 1, packed);
    int a2;
    double b2;
    std::memcpy(&a2, packed, 4);
    std::memcpy(&b2, packed + 4, 8);
    EXPECT_EQ(a2, 7);
    EXPECT_EQ(b2, 2.5);
    a = 0;
    b = 0;
    unpack(*t, packed, sizeof packed, MPI_BOTTOM);
    EXPECT_EQ(a, 7);
    EXPECT_EQ(b, 2.5);
}

TEST(MpiDatatypeEngine, FreedTypesLiveOnWhileUsed) {
    Datatype *v = make_vector(2, 1, 2, MPI_INT);
    Datatype *c = make_contiguous(3, v);
    EXPECT_EQ(v->derived->internal_refs, 1) << "c holds v";
    free_handle(v);
    EXPECT_EQ(v->magic, Datatype::kFreedMagic) << "the program's handle is gone";
    EXPECT_FALSE(datatype_valid(v));
    EXPECT_EQ(c->derived->types[0]->size, 8u) << "... the object is not";
    commit(c);
    datatype_retain(c);  // a pending request
    free_handle(c);
    EXPECT_EQ(c->magic, Datatype::kFreedMagic);
    int data[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, packed[6];
    pack(*c, data, 1, packed);
    EXPECT_EQ(packed[5], 8) << "ints 0, 2 | 3, 5 | 6, 8: v has extent 12";
    add_handle(v);  // MPI_Type_get_contents hands it out again
    EXPECT_TRUE(datatype_exists(v));
    datatype_release(c);  // goes, releasing v
    EXPECT_EQ(v->derived->internal_refs, 0);
    free_handle(v);
}
