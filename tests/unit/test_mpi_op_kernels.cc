// Unit tests of the reduction kernels compiled per instruction set (op_kernels.h): on every set
// this CPU runs, every (operation, representation) kernel gives bit for bit what the baseline
// gives, at lengths around each vector width (the blocks and the scalar tails) and at addresses
// that are not vector-aligned. The kernels' arithmetic against the MPI definitions is
// test_mpi_op_table's job; this test is about the wide copies not differing from the narrow one.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "mpi/op/op.h"
#include "mpi/op/op_kernels.h"

using namespace plexus::mpi;

namespace {

// What an element holds, so that operands can be valid values: the floating types get finite
// numbers (random bits would make NaNs, whose payload may come from either operand).
enum class Fill { Bits, Bool, F32, F64, LongDouble };

struct RepCase {
    Rep rep;
    size_t size;  // bytes of one element, padding included
    Fill fill;
    int scalars;  // floating numbers at the start of an element (complex: 2)
};

const RepCase kReps[] = {
    {Rep::I8, 1, Fill::Bits, 0},
    {Rep::U8, 1, Fill::Bits, 0},
    {Rep::I16, 2, Fill::Bits, 0},
    {Rep::U16, 2, Fill::Bits, 0},
    {Rep::I32, 4, Fill::Bits, 0},
    {Rep::U32, 4, Fill::Bits, 0},
    {Rep::I64, 8, Fill::Bits, 0},
    {Rep::U64, 8, Fill::Bits, 0},
    {Rep::F32, 4, Fill::F32, 1},
    {Rep::F64, 8, Fill::F64, 1},
    {Rep::LongDouble, sizeof(long double), Fill::LongDouble, 1},
    {Rep::ComplexF32, sizeof(std::complex<float>), Fill::F32, 2},
    {Rep::ComplexF64, sizeof(std::complex<double>), Fill::F64, 2},
    {Rep::ComplexLongDouble, sizeof(std::complex<long double>), Fill::LongDouble, 2},
    {Rep::Bool, sizeof(bool), Fill::Bool, 0},
    {Rep::FloatInt, sizeof(LocPair<float>), Fill::F32, 1},
    {Rep::DoubleInt, sizeof(LocPair<double>), Fill::F64, 1},
    {Rep::LongInt, sizeof(LocPair<long>), Fill::Bits, 0},
    {Rep::TwoInt, sizeof(LocPair<int>), Fill::Bits, 0},
    {Rep::ShortInt, sizeof(LocPair<short>), Fill::Bits, 0},
    {Rep::LongDoubleInt, sizeof(LocPair<long double>), Fill::LongDouble, 1},
};

constexpr OpKind kKinds[] = {OpKind::Max,  OpKind::Min, OpKind::Sum,  OpKind::Prod,   OpKind::Land,  OpKind::Band,
                             OpKind::Lor,  OpKind::Bor, OpKind::Lxor, OpKind::Bxor,   OpKind::Minloc, OpKind::Maxloc};

constexpr KernelIsa kWide[] = {KernelIsa::Avx2, KernelIsa::Avx512};

template <class T>
void put_scalars(unsigned char *e, int k, std::mt19937 &gen) {
    for (int j = 0; j < k; ++j) {
        const T v = static_cast<T>(static_cast<int>(gen() % 2000001) - 1000000) / static_cast<T>(7);
        std::memcpy(e + j * sizeof(T), &v, sizeof v);
    }
}

// Random bytes (the bits of the integers, the index of the pairs, padding), valid values where
// the type needs them, and often the same small value, so that ties (MINLOC/MAXLOC, MAX/MIN of
// equals) and zeros (logical operations) happen.
std::vector<unsigned char> operand(const RepCase &rc, size_t n, std::mt19937 &gen) {
    std::vector<unsigned char> v(n * rc.size + 64);
    for (auto &b : v) b = static_cast<unsigned char>(gen());
    for (size_t i = 0; i < n; ++i) {
        unsigned char *e = v.data() + i * rc.size;
        const bool small = gen() % 3 == 0;
        switch (rc.fill) {
        case Fill::Bits:
            if (small) std::memset(e, 0, rc.size), e[0] = static_cast<unsigned char>(gen() % 3);
            break;
        case Fill::Bool: *e = gen() & 1; break;
        case Fill::F32: put_scalars<float>(e, rc.scalars, gen); break;
        case Fill::F64: put_scalars<double>(e, rc.scalars, gen); break;
        case Fill::LongDouble:
            std::memset(e, 0, rc.scalars * sizeof(long double));  // the 6 bytes past the 80 bits too
            put_scalars<long double>(e, rc.scalars, gen);
            break;
        }
    }
    return v;
}

}  // namespace

TEST(OpKernels, TheBaselineAlwaysRuns) { EXPECT_TRUE(kernel_isa_runs(KernelIsa::Baseline)); }

TEST(OpKernels, WideKernelsMatchTheBaselineBitForBit) {
    std::mt19937 gen(12345);
    int sets = 0;
    for (KernelIsa isa : kWide) {
        if (!kernel_isa_runs(isa)) continue;
        ++sets;
        for (const RepCase &rc : kReps)
            for (OpKind kind : kKinds) {
                const Kernel narrow = op_kernel_for(kind, rc.rep, KernelIsa::Baseline);
                const Kernel wide = op_kernel_for(kind, rc.rep, isa);
                ASSERT_EQ(narrow == nullptr, wide == nullptr) << static_cast<int>(rc.rep) << " " << static_cast<int>(kind);
                if (!narrow) continue;
                for (size_t n : {0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 33, 63, 64, 65, 127, 129, 1000})
                    for (size_t shift : {0, 1}) {  // shift one element: not vector-aligned
                        const auto in = operand(rc, n + shift, gen), start = operand(rc, n + shift, gen);
                        auto a = start, b = start;
                        narrow(in.data() + shift * rc.size, a.data() + shift * rc.size, n);
                        wide(in.data() + shift * rc.size, b.data() + shift * rc.size, n);
                        ASSERT_EQ(0, std::memcmp(a.data(), b.data(), a.size()))
                            << "isa " << static_cast<int>(isa) << " rep " << static_cast<int>(rc.rep) << " op "
                            << static_cast<int>(kind) << " n " << n << " shift " << shift;
                    }
            }
    }
    if (sets == 0) GTEST_SKIP() << "this CPU runs only the baseline kernels";
}

// A wide set that handed out the baseline's functions would pass the bit-for-bit test above.
TEST(OpKernels, WideSetsAreCompiledOnTheirOwn) {
#if defined(__x86_64__)
    int sets = 0;
    for (KernelIsa isa : kWide) {
        if (!kernel_isa_runs(isa)) continue;
        ++sets;
        for (OpKind kind : {OpKind::Sum, OpKind::Max, OpKind::Band, OpKind::Maxloc})
            for (Rep rep : {Rep::F32, Rep::F64, Rep::I32, Rep::DoubleInt}) {
                const Kernel narrow = op_kernel_for(kind, rep, KernelIsa::Baseline);
                if (narrow) {
                    EXPECT_NE(op_kernel_for(kind, rep, isa), narrow) << static_cast<int>(isa);
                }
            }
    }
    if (sets == 0) GTEST_SKIP() << "this CPU runs only the baseline kernels";
#else
    GTEST_SKIP() << "only x86-64 builds compile wide sets";
#endif
}

TEST(OpKernels, OpKernelIsTheWidestSetThatRuns) {
    KernelIsa widest = KernelIsa::Baseline;
    for (KernelIsa isa : kWide)
        if (kernel_isa_runs(isa)) widest = isa;
    EXPECT_EQ(op_kernel(OpKind::Sum, Rep::F32), op_kernel_for(OpKind::Sum, Rep::F32, widest));
    EXPECT_EQ(op_kernel(OpKind::Maxloc, Rep::DoubleInt), op_kernel_for(OpKind::Maxloc, Rep::DoubleInt, widest));
    EXPECT_EQ(op_kernel(OpKind::Replace, Rep::F32), nullptr);
}
