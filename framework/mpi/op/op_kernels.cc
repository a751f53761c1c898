// The kernels. Each is a loop over fixed-size blocks plus a scalar tail: the block loop has a
// trip count known at compile time, which g++ vectorises at -O2 (its "very cheap" cost model
// refuses loops of unknown length), and __restrict tells it the operands do not overlap.
#include "mpi/op/op_kernels.h"

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
void pair_loop(const LocPair<V> *__restrict in, LocPair<V> *__restrict inout, size_t n) {
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
void loop(const T *__restrict in, T *__restrict inout, size_t n) {
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

template <class F, class T>
void kernel(const void *in, void *inout, size_t n) {
    loop<F>(static_cast<const T *>(in), static_cast<T *>(inout), n);
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

template <class F, class T>
constexpr Kernel pick() {
    if constexpr (defined_for<F, T>())
        return &kernel<F, T>;
    else
        return nullptr;
}

constexpr size_t kOpCount = static_cast<size_t>(OpKind::User) + 1;
using Row = std::array<Kernel, kOpCount>;

// One row per representation, in OpKind order (Replace and User have none).
template <class T>
constexpr Row row() {
    return {pick<Max, T>(),  pick<Min, T>(),  pick<Sum, T>(),    pick<Prod, T>(),   pick<Land, T>(),
            pick<Band, T>(), pick<Lor, T>(),  pick<Bor, T>(),    pick<Lxor, T>(),   pick<Bxor, T>(),
            pick<Minloc, T>(), pick<Maxloc, T>(), nullptr, nullptr};
}

static_assert(static_cast<int>(OpKind::Max) == 0 && static_cast<int>(OpKind::Land) == 4 &&
                  static_cast<int>(OpKind::Band) == 5 && static_cast<int>(OpKind::Minloc) == 10 &&
                  static_cast<int>(OpKind::Replace) == 12,
              "row() lists the operations in OpKind order");

// In Rep order.
constexpr std::array<Row, kRepCount> kKernels = {
    row<int8_t>(),        row<uint8_t>(),           row<int16_t>(),
    row<uint16_t>(),      row<int32_t>(),           row<uint32_t>(),
    row<int64_t>(),       row<uint64_t>(),          row<float>(),
    row<double>(),        row<long double>(),       row<std::complex<float>>(),
    row<std::complex<double>>(), row<std::complex<long double>>(), row<bool>(),
    row<LocPair<float>>(), row<LocPair<double>>(), row<LocPair<long>>(),
    row<LocPair<int>>(),  row<LocPair<short>>(),    row<LocPair<long double>>(),
    Row{},  // Rep::None
};

static_assert(static_cast<size_t>(Rep::Bool) == 14 && static_cast<size_t>(Rep::FloatInt) == 15,
              "kKernels lists the representations in Rep order");

}  // namespace

Kernel op_kernel(OpKind kind, Rep rep) {
    return kKernels[static_cast<size_t>(rep)][static_cast<size_t>(kind)];
}

}  // namespace plexus::mpi
