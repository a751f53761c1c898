// The kernels. Each is a loop over fixed-size blocks plus a scalar tail: the block loop has a
// trip count known at compile time, which g++ vectorises at -O2 (its "very cheap" cost model
// refuses loops of unknown length), and __restrict tells it the operands do not overlap. On x86-64
// the same loops are compiled three times, for the baseline (SSE2), AVX2 and AVX-512, and the
// widest the CPU runs is picked once: the baseline alone leaves half or three quarters of a
// modern core's vector width unused on the large reductions of Reduce and Allreduce.
#include "mpi/op/op_kernels.h"

// No fused multiply-add: the wide kernels must round as the baseline does (SSE2 has no FMA), so
// that a result does not depend on the CPU a rank runs on.
#pragma GCC optimize("fp-contract=off")

#include <array>
#include <complex>
#include <cstdint>
#include <type_traits>

namespace plexus::mpi {
namespace {

template <class T> struct is_complex : std::false_type {};
template <class T> struct is_complex<std::complex<T>> : std::true_type {};
template <class T> struct is_pair : std::false_type {};
template <class V> struct is_pair<LocPair<V>> : std::true_type {};

template <class T>
constexpr bool kInteger = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T>
constexpr bool kFloating = std::is_floating_point_v<T>;

// Integer arithmetic wraps (two's complement) instead of being undefined on overflow: it is done
// in an unsigned type at least as wide as int, so that short * short is not promoted to int.
template <class T>
using Wide = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

struct Max {
    template <class T> T operator()(T a, T b) const { return a > b ? a : b; }
};
struct Min {
    template <class T> T operator()(T a, T b) const { return a < b ? a : b; }
};
struct Sum {
    template <class T> T operator()(T a, T b) const {
        if constexpr (kInteger<T>)
            return static_cast<T>(static_cast<Wide<T>>(a) + static_cast<Wide<T>>(b));
        else
            return a + b;
    }
};
struct Prod {
    template <class T> T operator()(T a, T b) const {
        if constexpr (kInteger<T>)
            return static_cast<T>(static_cast<Wide<T>>(a) * static_cast<Wide<T>>(b));
        else
            return a * b;
    }
};
// Logical operations give 0 or 1 (false or true) of the operands' type; & and != instead of
// && and ^^ keep them branch-free.
struct Land {
    template <class T> T operator()(T a, T b) const { return static_cast<T>((a != 0) & (b != 0)); }
};
struct Lor {
    template <class T> T operator()(T a, T b) const { return static_cast<T>((a != 0) | (b != 0)); }
};
struct Lxor {
    template <class T> T operator()(T a, T b) const { return static_cast<T>((a != 0) != (b != 0)); }
};
struct Band {
    template <class T> T operator()(T a, T b) const { return static_cast<T>(a & b); }
};
struct Bor {
    template <class T> T operator()(T a, T b) const { return static_cast<T>(a | b); }
};
struct Bxor {
    template <class T> T operator()(T a, T b) const { return static_cast<T>(a ^ b); }
};
// MPI-2.2 5.9.4: on equal values the lower index wins, so the result does not depend on order.
struct Maxloc {
    template <class P> P operator()(P a, P b) const {
        return (a.value > b.value || (a.value == b.value && a.index < b.index)) ? a : b;
    }
};
struct Minloc {
    template <class P> P operator()(P a, P b) const {
        return (a.value < b.value || (a.value == b.value && a.index < b.index)) ? a : b;
    }
};

// A pair type's last item may end at its true extent, before the struct's padding (a temporary
// buffer of count items is true_extent + (count - 1) * extent bytes): read and write the two
// members, never the whole struct.
template <class F, class V>
[[gnu::always_inline]] inline void pair_loop(const LocPair<V> *__restrict in, LocPair<V> *__restrict inout, size_t n) {
    const F f;
    for (size_t i = 0; i < n; ++i) {
        LocPair<V> a, b;
        a.value = in[i].value;
        a.index = in[i].index;
        b.value = inout[i].value;
        b.index = inout[i].index;
        const LocPair<V> r = f(a, b);
        inout[i].value = r.value;
        inout[i].index = r.index;
    }
}

template <class F, class T>
[[gnu::always_inline]] inline void loop(const T *__restrict in, T *__restrict inout, size_t n) {
    if constexpr (is_pair<T>::value) {
        pair_loop<F>(in, inout, n);
    } else {
        constexpr size_t kBlock = sizeof(T) >= 8 ? 8 : 64 / sizeof(T);
        const F f;
        size_t i = 0;
        for (; i + kBlock <= n; i += kBlock)
            for (size_t j = 0; j < kBlock; ++j) inout[i + j] = f(in[i + j], inout[i + j]);
        for (; i < n; ++i) inout[i] = f(in[i], inout[i]);
    }
}

using Isa = KernelIsa;

template <class F, class T>
void kernel(const void *in, void *inout, size_t n) {
    loop<F>(static_cast<const T *>(in), static_cast<T *>(inout), n);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define PLEXUS_OP_MULTI_ISA 1
template <class F, class T>
[[gnu::target("avx2")]] void kernel_avx2(const void *in, void *inout, size_t n) {
    loop<F>(static_cast<const T *>(in), static_cast<T *>(inout), n);
}
template <class F, class T>
[[gnu::target("avx512f,avx512bw,avx512dq,avx512vl")]] void kernel_avx512(const void *in, void *inout, size_t n) {
    loop<F>(static_cast<const T *>(in), static_cast<T *>(inout), n);
}
#endif

template <class F, class T, Isa I>
constexpr Kernel kernel_for() {
#ifdef PLEXUS_OP_MULTI_ISA
    if constexpr (I == Isa::Avx2) return &kernel_avx2<F, T>;
    if constexpr (I == Isa::Avx512) return &kernel_avx512<F, T>;
#endif
    return &kernel<F, T>;
}

// Which operations a representation has (the table of MPI-2.2 5.9.2 by C type).
template <class F, class T>
constexpr bool defined_for() {
    if constexpr (std::is_same_v<F, Max> || std::is_same_v<F, Min>) return kInteger<T> || kFloating<T>;
    if constexpr (std::is_same_v<F, Sum> || std::is_same_v<F, Prod>)
        return kInteger<T> || kFloating<T> || is_complex<T>::value;
    if constexpr (std::is_same_v<F, Land> || std::is_same_v<F, Lor> || std::is_same_v<F, Lxor>)
        return kInteger<T> || std::is_same_v<T, bool>;
    if constexpr (std::is_same_v<F, Band> || std::is_same_v<F, Bor> || std::is_same_v<F, Bxor>) return kInteger<T>;
    if constexpr (std::is_same_v<F, Maxloc> || std::is_same_v<F, Minloc>) return is_pair<T>::value;
    return false;
}

template <class F, class T, Isa I>
constexpr Kernel pick() {
    if constexpr (defined_for<F, T>())
        return kernel_for<F, T, I>();
    else
        return nullptr;
}

constexpr size_t kOpCount = static_cast<size_t>(OpKind::User) + 1;
using Row = std::array<Kernel, kOpCount>;

// One row per representation, in OpKind order (Replace and User have none).
template <class T, Isa I>
constexpr Row row() {
    return {pick<Max, T, I>(),    pick<Min, T, I>(),    pick<Sum, T, I>(),  pick<Prod, T, I>(),
            pick<Land, T, I>(),   pick<Band, T, I>(),   pick<Lor, T, I>(),  pick<Bor, T, I>(),
            pick<Lxor, T, I>(),   pick<Bxor, T, I>(),   pick<Minloc, T, I>(), pick<Maxloc, T, I>(),
            nullptr,              nullptr};
}

static_assert(static_cast<int>(OpKind::Max) == 0 && static_cast<int>(OpKind::Land) == 4 &&
                  static_cast<int>(OpKind::Band) == 5 && static_cast<int>(OpKind::Minloc) == 10 &&
                  static_cast<int>(OpKind::Replace) == 12,
              "row() lists the operations in OpKind order");

using Table = std::array<Row, kRepCount>;

// In Rep order.
template <Isa I>
constexpr Table table() {
    return {
        row<int8_t, I>(),        row<uint8_t, I>(),           row<int16_t, I>(),
        row<uint16_t, I>(),      row<int32_t, I>(),           row<uint32_t, I>(),
        row<int64_t, I>(),       row<uint64_t, I>(),          row<float, I>(),
        row<double, I>(),        row<long double, I>(),       row<std::complex<float>, I>(),
        row<std::complex<double>, I>(), row<std::complex<long double>, I>(), row<bool, I>(),
        row<LocPair<float>, I>(), row<LocPair<double>, I>(), row<LocPair<long>, I>(),
        row<LocPair<int>, I>(),  row<LocPair<short>, I>(),    row<LocPair<long double>, I>(),
        Row{},  // Rep::None
    };
}

constexpr std::array<Table, kKernelIsaCount> kKernels = {
    table<Isa::Baseline>(), table<Isa::Avx2>(), table<Isa::Avx512>()};

// Whether this CPU runs a set. __builtin_cpu_supports also asks whether the OS saves the ymm / zmm
// registers (libgcc reads XGETBV), so a kernel never faults on a CPU whose OS left them off.
bool runs(Isa isa) {
    if (isa == Isa::Baseline) return true;
#ifdef PLEXUS_OP_MULTI_ISA
    __builtin_cpu_init();
    if (isa == Isa::Avx2) return __builtin_cpu_supports("avx2");
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
    return false;
#endif
}

Isa detect_isa() {
    if (runs(Isa::Avx512)) return Isa::Avx512;
    return runs(Isa::Avx2) ? Isa::Avx2 : Isa::Baseline;
}

// Decided when the library loads, so that op_kernel reads a plain pointer (no guard per call).
const Table *const g_kernels = &kKernels[static_cast<size_t>(detect_isa())];

static_assert(static_cast<size_t>(Rep::Bool) == 14 && static_cast<size_t>(Rep::FloatInt) == 15,
              "kKernels lists the representations in Rep order");

}  // namespace

Kernel op_kernel(OpKind kind, Rep rep) {
    return (*g_kernels)[static_cast<size_t>(rep)][static_cast<size_t>(kind)];
}

bool kernel_isa_runs(KernelIsa isa) { return runs(isa); }

Kernel op_kernel_for(OpKind kind, Rep rep, KernelIsa isa) {
    return kKernels[static_cast<size_t>(isa)][static_cast<size_t>(rep)][static_cast<size_t>(kind)];
}

}  // namespace plexus::mpi
