// Unit tests of the copy loops of the datatype engine (framework/mpi/datatype/loop_copy.cc,
// copy_small.h): every run length with a loop of its own and lengths around each branch of the
// inline copy, in vectors (strided runs) and index lists (runs at displacements); runs of one
// length that touch staying apart (so that they keep their fixed-length loop) unless merging
// removes most of them; any byte range [a, b) of the packed stream, packed and unpacked alone,
// against a reference written from the runs the test itself laid out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "mpi/datatype.h"
#include "mpi/datatype/construct.h"
#include "mpi/datatype/derived_type.h"
#include "mpi/datatype/loop.h"

using namespace plexus::mpi;

namespace {

struct ByteRun {
    ptrdiff_t disp;
    size_t length;
};

// Frees the test's types at the end of a test.
class Types {
public:
    ~Types() {
        for (Datatype *t : made_) free_handle(t);
    }
    Datatype *keep(Datatype *t) {
        made_.push_back(t);
        commit(t);
        return t;
    }

private:
    std::vector<Datatype *> made_;
};

// The runs of count items of a type whose item is `item` (displacements >= 0), in packed order.
std::vector<ByteRun> runs_of(const Datatype &t, const std::vector<ByteRun> &item, int count) {
    std::vector<ByteRun> all;
    for (int i = 0; i < count; ++i)
        for (const ByteRun &r : item) all.push_back({r.disp + ptrdiff_t(i) * t.extent, r.length});
    return all;
}

// Packed bytes [a, b) of the runs, copied between origin and packed (the bytes of the range only).
void reference_range(const std::vector<ByteRun> &runs, size_t a, size_t b, unsigned char *origin, unsigned char *packed,
                     bool pack) {
    size_t at = 0;
    for (const ByteRun &r : runs) {
        for (size_t k = 0; k < r.length; ++k, ++at) {
            if (at < a || at >= b) continue;
            if (pack)
                packed[at - a] = origin[r.disp + ptrdiff_t(k)];
            else
                origin[r.disp + ptrdiff_t(k)] = packed[at - a];
        }
    }
}

// Every byte range [a, b) of count items, packed and unpacked on its own, against the reference.
void check_ranges(Datatype *t, const std::vector<ByteRun> &item, int count, const std::string &what) {
    const std::vector<ByteRun> runs = runs_of(*t, item, count);
    size_t total = 0, span = 0;
    for (const ByteRun &r : runs) {
        total += r.length;
        span = std::max(span, size_t(r.disp) + r.length);
    }
    ASSERT_EQ(total, packed_bytes(t, count)) << what;
    std::vector<unsigned char> src(span + 1), packed(total), got(total + 1);
    std::mt19937 rng(7);
    for (unsigned char &c : src) c = static_cast<unsigned char>(rng());
    for (unsigned char &c : packed) c = static_cast<unsigned char>(rng());
    const size_t step = 1 + total / 97;  // every start and end near both ends; a sample between
    for (size_t a = 0; a <= total; a += (a < 70 || a + 70 > total) ? 1 : step) {
        for (size_t b = a; b <= total; b += (b < a + 70 || b + 70 > total) ? 1 : step) {
            std::vector<unsigned char> want(total + 1, 0xEE);
            reference_range(runs, a, b, src.data(), want.data(), true);
            std::fill(got.begin(), got.end(), 0xEE);
            pack_range(*t, src.data(), size_t(count), a, b - a, got.data());
            ASSERT_EQ(got, want) << what << ": pack of bytes [" << a << ", " << b << ")";

            std::vector<unsigned char> expect(span + 1, 0x5A), dst(span + 1, 0x5A);
            reference_range(runs, a, b, expect.data(), packed.data() + a, false);
            unpack_range(*t, dst.data(), size_t(count), a, b - a, packed.data() + a);
            ASSERT_EQ(dst, expect) << what << ": unpack of bytes [" << a << ", " << b << ")";
        }
    }
}

const LoopNode &root(const Datatype *t) {
    const LoopProgram &p = *t->derived->program;
    return p.nodes[p.root.node];
}

// Displacements for n runs of length bytes with gaps of 1..2*length+5 bytes between them, in an
// order that is not increasing (the list is walked in type-map order, not address order).
std::vector<ByteRun> spread_runs(int n, size_t length, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<ByteRun> runs;
    ptrdiff_t at = 0;
    for (int i = 0; i < n; ++i) {
        at += 1 + ptrdiff_t(rng() % (2 * length + 5));
        runs.push_back({at, length});
        at += ptrdiff_t(length);
    }
    std::swap(runs[1], runs[size_t(n) - 2]);
    return runs;
}

Datatype *hindexed_of_chars(Types &k, const std::vector<ByteRun> &runs) {
    std::vector<int> bl;
    std::vector<MPI_Aint> disp;
    for (const ByteRun &r : runs) {
        bl.push_back(int(r.length));
        disp.push_back(r.disp);
    }
    return k.keep(make_hindexed(int(runs.size()), bl.data(), disp.data(), MPI_CHAR));
}

}  // namespace

TEST(MpiDatatypeCopy, IndexListsOfEveryRunLength) {
    // The lengths with loops of their own, and their neighbours (the inline copy's branches).
    for (size_t length : {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 100, 300}) {
        Types k;
        const std::vector<ByteRun> runs = spread_runs(7, length, unsigned(length));
        Datatype *t = hindexed_of_chars(k, runs);
        ASSERT_EQ(root(t).kind, LoopKind::Blocks) << length;
        EXPECT_EQ(root(t).block, length) << "runs of one length share a loop";
        check_ranges(t, runs, 2, "index list of runs of " + std::to_string(length) + " bytes");
        if (HasFatalFailure()) return;
    }
}

TEST(MpiDatatypeCopy, IndexListsOfMixedRunLengths) {
    // Lengths 1..70 in a shuffled order: every branch of the inline copy, and memcpy above 64.
    std::vector<size_t> lengths;
    for (size_t l = 1; l <= 70; ++l) lengths.push_back(l);
    std::shuffle(lengths.begin(), lengths.end(), std::mt19937(3));
    std::vector<ByteRun> runs;
    ptrdiff_t at = 0;
    for (size_t l : lengths) {
        runs.push_back({at, l});
        at += ptrdiff_t(l) + 1 + ptrdiff_t(l % 5);
    }
    Types k;
    Datatype *t = hindexed_of_chars(k, runs);
    ASSERT_EQ(root(t).kind, LoopKind::Blocks);
    EXPECT_EQ(root(t).block, 0u);
    check_ranges(t, runs, 2, "index list of mixed runs");
}

TEST(MpiDatatypeCopy, VectorsOfEveryRunLength) {
    for (size_t length : {1, 2, 3, 4, 8, 12, 13, 16, 24, 32, 40, 48, 64, 65, 200}) {
        Types k;
        const int count = 9, stride = int(2 * length + 3);
        Datatype *t = k.keep(make_hvector(count, int(length), stride, MPI_CHAR));
        std::vector<ByteRun> runs;
        for (int i = 0; i < count; ++i) runs.push_back({ptrdiff_t(i) * stride, length});
        check_ranges(t, runs, 2, "vector of runs of " + std::to_string(length) + " bytes");
        if (HasFatalFailure()) return;
    }
}

TEST(MpiDatatypeCopy, EqualRunsThatTouchStayApart) {
    // Blocks of 4 doubles, some of them touching the one before: merged they would be runs of
    // 32 and 64 bytes; apart, all take the 32-byte loop.
    const int disp[10] = {0, 4, 10, 20, 24, 28, 40, 50, 54, 70};
    std::vector<ByteRun> runs;
    for (int d : disp) runs.push_back({ptrdiff_t(d) * 8, 32});
    Types k;
    Datatype *t = k.keep(make_indexed_block(10, 4, disp, MPI_DOUBLE));
    ASSERT_EQ(root(t).kind, LoopKind::Blocks);
    EXPECT_EQ(root(t).n, 10u);
    EXPECT_EQ(root(t).block, 32u);
    check_ranges(t, runs, 3, "indexed block of touching blocks");
}

TEST(MpiDatatypeCopy, MostlyTouchingRunsMerge) {
    // 25 blocks of one double in three stretches: three runs, not 25 copies of 8 bytes.
    int disp[25];
    std::vector<ByteRun> runs;
    for (int i = 0; i < 25; ++i) disp[i] = i < 10 ? i : i < 20 ? 10 + i : 25 + i;
    Types k;
    Datatype *t = k.keep(make_indexed_block(25, 1, disp, MPI_DOUBLE));
    ASSERT_EQ(root(t).kind, LoopKind::Blocks);
    EXPECT_EQ(root(t).n, 3u);
    runs = {{0, 80}, {160, 80}, {360, 40}};
    check_ranges(t, runs, 2, "indexed block of mostly touching blocks");
}

TEST(MpiDatatypeCopy, StructOfIndexListsCopiesEachList) {
    // A struct whose members are index lists of one length (a list inside a Struct node, whole
    // and cut at any byte).
    const int disp[4] = {3, 0, 9, 5};
    Types k;
    Datatype *ib = k.keep(make_indexed_block(4, 2, disp, MPI_INT));
    const int bl[2] = {2, 1};
    const MPI_Aint sdisp[2] = {0, 200};
    Datatype *types[2] = {ib, MPI_DOUBLE};
    Datatype *s = k.keep(make_struct(2, bl, sdisp, types));
    std::vector<ByteRun> runs;
    for (int copy = 0; copy < 2; ++copy)
        for (int d : disp) runs.push_back({ptrdiff_t(copy) * ib->extent + d * 4, 8});
    runs.push_back({200, 8});
    check_ranges(s, runs, 2, "struct of index lists");
}
