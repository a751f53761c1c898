// Unit tests of op_apply on derived types (straight through the kernel when contiguous, through
// packed copies when the layout has holes: only the type map is written) and of user operations
// (called with the buffers, the count and the datatype handle as given; inout = in op inout).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mpi/datatype/construct.h"
#include "mpi/op/op.h"
#include "mpi/op/op_user.h"

using namespace plexus::mpi;

namespace {

// Derived types made in a test, freed at its end.
class OpApply : public ::testing::Test {
protected:
    void TearDown() override {
        for (Datatype *t : made_) free_handle(t);
    }
    Datatype *keep(Datatype *t) {
        commit(t);
        made_.push_back(t);
        return t;
    }

private:
    std::vector<Datatype *> made_;
};

constexpr int kHole = -999;

}  // namespace

TEST_F(OpApply, VectorOfIntWithHoles) {
    // 3 blocks of 2 ints, stride 4: ints 0,1, 4,5, 8,9 of each item; extent 10 ints.
    Datatype *v = keep(make_vector(3, 2, 4, MPI_INT));
    ASSERT_FALSE(v->contiguous);
    const int count = 7;  // items at extent 10 ints
    const size_t n = 10 * count;
    std::vector<int> a(n), b(n);
    for (size_t i = 0; i < n; ++i) {
        a[i] = static_cast<int>(i * 37 % 101) - 50;
        b[i] = static_cast<int>(i * 53 % 97) - 40;
    }
    for (Op *op : {MPI_SUM, MPI_MAX, MPI_BXOR}) {
        std::vector<int> out = b;
        ASSERT_EQ(op_apply(*op, a.data(), out.data(), count, v), MPI_SUCCESS);
        for (size_t i = 0; i < n; ++i) {
            const size_t k = i % 10;
            const bool data = k % 4 < 2;  // ints 0,1, 4,5, 8,9 of the item
            int want = b[i];
            if (data) {
                if (op == MPI_SUM) want = a[i] + b[i];
                if (op == MPI_MAX) want = a[i] > b[i] ? a[i] : b[i];
                if (op == MPI_BXOR) want = a[i] ^ b[i];
            }
            EXPECT_EQ(out[i], want) << op->name << " int " << i << (data ? " (data)" : " (hole)");
        }
    }
}

TEST_F(OpApply, StructOfOneTypeIsThatType) {
    // {double at 0, 2 doubles at 24}: made of MPI_DOUBLE only, with a hole at 8..24.
    const int bl[2] = {1, 2};
    const MPI_Aint disp[2] = {0, 24};
    Datatype *const types[2] = {MPI_DOUBLE, MPI_DOUBLE};
    Datatype *s = keep(make_struct(2, bl, disp, types));
    EXPECT_TRUE(op_allowed(*MPI_PROD, *s, nullptr));
    std::string why;
    EXPECT_FALSE(op_allowed(*MPI_BAND, *s, &why));
    EXPECT_NE(why.find("(made of MPI_DOUBLE)"), std::string::npos) << why;
    ASSERT_EQ(s->extent, 40);
    const int count = 3;
    std::vector<double> a(5 * count), out(5 * count, kHole);
    std::vector<double> b(5 * count, kHole);
    for (int i = 0; i < count; ++i)
        for (int k : {0, 3, 4}) {
            a[5 * i + k] = 1.5 * (i + 1) - k;
            b[5 * i + k] = out[5 * i + k] = -0.5 * k + i;
        }
    ASSERT_EQ(op_apply(*MPI_PROD, a.data(), out.data(), count, s), MPI_SUCCESS);
    for (int i = 0; i < 5 * count; ++i) {
        const int k = i % 5;
        const double want = (k == 0 || k >= 3) ? a[i] * b[i] : kHole;
        EXPECT_EQ(out[i], want) << i;
    }
}

TEST_F(OpApply, ContiguousDerivedGoesStraightThrough) {
    Datatype *c = keep(make_contiguous(5, MPI_INT));
    ASSERT_TRUE(c->contiguous);
    std::vector<int> a(20), b(20);
    for (int i = 0; i < 20; ++i) a[i] = i - 10, b[i] = 3 * i;
    std::vector<int> out = b;
    ASSERT_EQ(op_apply(*MPI_MIN, a.data(), out.data(), 4, c), MPI_SUCCESS);
    for (int i = 0; i < 20; ++i) EXPECT_EQ(out[i], a[i] < b[i] ? a[i] : b[i]);
}

TEST_F(OpApply, ContiguousButMisalignedStart) {
    // One int at byte 1 of the item: contiguous (size == extent), but not aligned for int.
    const int bl[1] = {1};
    const MPI_Aint disp[1] = {1};
    Datatype *t = keep(make_hindexed(1, bl, disp, MPI_INT));
    alignas(8) unsigned char a[1 + 4 * 3], b[1 + 4 * 3];
    const int av[3] = {5, -7, 1 << 20}, bv[3] = {10, 10, 10};
    std::memcpy(a + 1, av, sizeof av);
    std::memcpy(b + 1, bv, sizeof bv);
    a[0] = b[0] = 0xee;
    ASSERT_EQ(op_apply(*MPI_SUM, a, b, 3, t), MPI_SUCCESS);
    int got[3];
    std::memcpy(got, b + 1, sizeof got);
    EXPECT_EQ(got[0], 15);
    EXPECT_EQ(got[1], 3);
    EXPECT_EQ(got[2], (1 << 20) + 10);
    EXPECT_EQ(b[0], 0xee);
}

TEST_F(OpApply, LargeVectorCrossesChunks) {
    // 20000 doubles at stride 2 (160 KB packed): several chunks of the packed path.
    Datatype *v = keep(make_vector(20000, 1, 2, MPI_DOUBLE));
    std::vector<double> a(40000), b(40000);
    for (int i = 0; i < 40000; ++i) a[i] = i * 0.5, b[i] = (i % 2) ? kHole : 1.0 * (40000 - i);
    std::vector<double> out = b;
    ASSERT_EQ(op_apply(*MPI_SUM, a.data(), out.data(), 1, v), MPI_SUCCESS);
    int bad = 0;
    for (int i = 0; i < 40000; ++i) bad += out[i] != ((i % 2) ? kHole : a[i] + b[i]);
    EXPECT_EQ(bad, 0);
}

namespace {
struct DoubleInt {
    double value;
    int index;
};
}  // namespace

TEST_F(OpApply, VectorOfPairsWithPadding) {
    // Every other MPI_DOUBLE_INT: packed without the padding, laid out again for the kernel.
    Datatype *v = keep(make_vector(4, 1, 2, MPI_DOUBLE_INT));
    std::vector<DoubleInt> a(8), b(8);
    for (int i = 0; i < 8; ++i) {
        a[i] = {static_cast<double>(i % 3), 10 + i};
        b[i] = {1.0, 5 + i % 4};
    }
    for (Op *op : {MPI_MAXLOC, MPI_MINLOC}) {
        std::vector<DoubleInt> out = b;
        ASSERT_EQ(op_apply(*op, a.data(), out.data(), 1, v), MPI_SUCCESS);
        for (int i = 0; i < 8; ++i) {
            DoubleInt want = b[i];
            if (i % 2 == 0) {
                const bool a_wins = op == MPI_MAXLOC ? a[i].value > b[i].value : a[i].value < b[i].value;
                if (a[i].value == b[i].value)
                    want.index = a[i].index < b[i].index ? a[i].index : b[i].index;
                else if (a_wins)
                    want = a[i];
            }
            EXPECT_EQ(out[i].value, want.value) << op->name << " " << i;
            EXPECT_EQ(out[i].index, want.index) << op->name << " " << i;
        }
    }
    std::string why;
    EXPECT_FALSE(op_allowed(*MPI_SUM, *v, &why));
    EXPECT_NE(why.find("made of MPI_DOUBLE_INT"), std::string::npos) << why;
}

TEST_F(OpApply, MixedTypesOnlyForReplaceAndUserOps) {
    const int bl[2] = {1, 1};
    const MPI_Aint disp[2] = {0, 8};
    Datatype *const types[2] = {MPI_INT, MPI_DOUBLE};
    Datatype *s = keep(make_struct(2, bl, disp, types));
    std::string why;
    EXPECT_FALSE(op_allowed(*MPI_SUM, *s, &why));
    EXPECT_NE(why.find("mixes several predefined types"), std::string::npos) << why;
    EXPECT_TRUE(op_allowed(*MPI_REPLACE, *s, nullptr));
    struct IntDouble {
        int i;
        int pad;
        double d;
    };
    IntDouble a[2] = {{1, 111, 2.5}, {3, 333, -4.5}}, b[2] = {{0, 7, 0}, {0, 8, 0}};
    ASSERT_EQ(op_apply(*MPI_REPLACE, a, b, 2, s), MPI_SUCCESS);
    EXPECT_EQ(b[0].i, 1);
    EXPECT_EQ(b[0].d, 2.5);
    EXPECT_EQ(b[1].i, 3);
    EXPECT_EQ(b[1].d, -4.5);
    EXPECT_EQ(b[0].pad, 7);  // the hole is not written
    EXPECT_EQ(b[1].pad, 8);
}

// ---------------------------------------------------------------- user operations

namespace {

struct Seen {
    void *in = nullptr;
    void *inout = nullptr;
    int len = -1;
    MPI_Datatype type = nullptr;
    int calls = 0;
} seen;

// Not commutative: inout = in - inout (so the operands' order shows).
void subtract(void *in, void *inout, int *len, MPI_Datatype *type) {
    seen = {in, inout, *len, *type, seen.calls + 1};
    const int *a = static_cast<const int *>(in);
    int *b = static_cast<int *>(inout);
    const int stride = *type == MPI_INT ? 1 : 2;  // the vector below: every other int
    for (int i = 0; i < *len; ++i) b[i * stride] = a[i * stride] - b[i * stride];
}

void add(void *in, void *inout, int *len, MPI_Datatype *) {
    for (int i = 0; i < *len; ++i) static_cast<double *>(inout)[i] += static_cast<const double *>(in)[i];
}

}  // namespace

TEST_F(OpApply, UserOpsGetTheBuffersAndTheHandle) {
    Op *sub = op_create(subtract, false);
    ASSERT_NE(sub, nullptr);
    EXPECT_TRUE(op_valid(sub));
    EXPECT_FALSE(sub->predefined);
    EXPECT_FALSE(sub->commutative);
    EXPECT_EQ(sub->kind, OpKind::User);
    const int a[4] = {10, 20, 30, 40};
    int b[4] = {1, 2, 3, 4};
    seen = {};
    ASSERT_EQ(op_apply(*sub, a, b, 4, MPI_INT), MPI_SUCCESS);
    EXPECT_EQ(seen.calls, 1);
    EXPECT_EQ(seen.in, a);
    EXPECT_EQ(seen.inout, b);
    EXPECT_EQ(seen.len, 4);
    EXPECT_EQ(seen.type, MPI_INT);
    EXPECT_EQ(b[0], 9);  // in - inout, not inout - in
    EXPECT_EQ(b[3], 36);

    // A derived type: the user function sees it, and the buffers as they are (no packing).
    Datatype *v = keep(make_vector(2, 1, 2, MPI_INT));
    int c[4] = {1, -1, 1, -1};
    seen = {};
    ASSERT_EQ(op_apply(*sub, a, c, 1, v), MPI_SUCCESS);
    EXPECT_EQ(seen.type, v);
    EXPECT_EQ(seen.len, 1);
    EXPECT_EQ(seen.inout, c);
    EXPECT_EQ(c[0], 9);
    EXPECT_EQ(c[1], -1);
    EXPECT_TRUE(op_allowed(*sub, *v, nullptr));
    EXPECT_TRUE(op_allowed(*sub, *MPI_WCHAR, nullptr));  // user ops take any type

    // count 0: nothing to call the function for
    seen = {};
    ASSERT_EQ(op_apply(*sub, a, c, 0, MPI_INT), MPI_SUCCESS);
    EXPECT_EQ(seen.calls, 0);
    op_destroy(sub);

    Op *plus = op_create(add, true);
    ASSERT_NE(plus, nullptr);
    EXPECT_TRUE(plus->commutative);
    const double x[2] = {1.5, 2.5};
    double y[2] = {10, 20};
    ASSERT_EQ(op_apply(*plus, x, y, 2, MPI_DOUBLE), MPI_SUCCESS);
    EXPECT_EQ(y[0], 11.5);
    EXPECT_EQ(y[1], 22.5);
    op_destroy(plus);
}

TEST_F(OpApply, PairsInABufferThatEndsAtTheTrueExtent) {
    // A collective's temporary buffer for n pairs is true_extent + (n - 1) * extent bytes: the
    // last pair has no padding after it, so the kernel must touch the members only (AddressSanitizer
    // and valgrind see a whole-struct copy run past the allocation).
    const Datatype &t = *MPI_DOUBLE_INT;
    constexpr int n = 3;
    const size_t bytes = static_cast<size_t>(t.true_extent + (n - 1) * t.extent);
    ASSERT_LT(bytes, n * sizeof(DoubleInt));
    auto *in = static_cast<DoubleInt *>(std::malloc(bytes));
    auto *inout = static_cast<DoubleInt *>(std::malloc(bytes));
    ASSERT_TRUE(in && inout);
    for (int i = 0; i < n; ++i) {
        in[i].value = i;
        in[i].index = 10 + i;
        inout[i].value = 1.0;
        inout[i].index = 20 + i;
    }
    ASSERT_EQ(op_apply(*MPI_MINLOC, in, inout, n, MPI_DOUBLE_INT), MPI_SUCCESS);
    EXPECT_EQ(inout[0].value, 0.0);
    EXPECT_EQ(inout[0].index, 10);
    EXPECT_EQ(inout[1].value, 1.0);  // a tie: the lower index
    EXPECT_EQ(inout[1].index, 11);
    EXPECT_EQ(inout[2].value, 1.0);
    EXPECT_EQ(inout[2].index, 22);
    std::free(in);
    std::free(inout);
}
