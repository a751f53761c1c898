// Unit tests of the predefined operations on the predefined types: every (op, type) pair MPI-2.2
// 5.9.2 allows gives, element by element, what a sequential computation of its own gives (values
// with negatives, extremes and both signs, enough of them for the vector loops and their tails);
// every other pair is refused with a message naming the op, the type and what the op takes.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "mpi/op/op.h"

using namespace plexus::mpi;

namespace {

// The predefined operations but MPI_REPLACE (tested on its own).
const std::vector<Op *> kOps = {MPI_MAX,  MPI_MIN, MPI_SUM,  MPI_PROD, MPI_LAND,   MPI_BAND,
                                MPI_LOR,  MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC};

// MPI-2.2 5.9.2, written out by name (MPI_CHAR counted with the C integers, as Open MPI and
// MPICH do; MPI_WCHAR and MPI_PACKED are in no group).
const std::set<std::string> kCInteger = {
    "MPI_CHAR",     "MPI_SIGNED_CHAR", "MPI_UNSIGNED_CHAR", "MPI_SHORT",     "MPI_UNSIGNED_SHORT",
    "MPI_INT",      "MPI_UNSIGNED",    "MPI_LONG",          "MPI_UNSIGNED_LONG", "MPI_LONG_LONG_INT",
    "MPI_UNSIGNED_LONG_LONG", "MPI_INT8_T", "MPI_INT16_T",  "MPI_INT32_T",   "MPI_INT64_T",
    "MPI_UINT8_T",  "MPI_UINT16_T",    "MPI_UINT32_T",      "MPI_UINT64_T"};
const std::set<std::string> kMulti = {"MPI_AINT", "MPI_OFFSET"};
const std::set<std::string> kFloating = {"MPI_FLOAT", "MPI_DOUBLE", "MPI_LONG_DOUBLE"};
const std::set<std::string> kComplex = {"MPI_C_FLOAT_COMPLEX", "MPI_C_DOUBLE_COMPLEX", "MPI_C_LONG_DOUBLE_COMPLEX"};
const std::set<std::string> kLogical = {"MPI_C_BOOL"};
const std::set<std::string> kByte = {"MPI_BYTE"};
const std::set<std::string> kPairs = {"MPI_FLOAT_INT", "MPI_DOUBLE_INT",  "MPI_LONG_INT",
                                      "MPI_2INT",      "MPI_SHORT_INT",   "MPI_LONG_DOUBLE_INT"};

bool in(const std::set<std::string> &s, const std::string &n) { return s.count(n) != 0; }

bool expected_allowed(const Op *op, const std::string &t) {
    switch (op->kind) {
    case OpKind::Max:
    case OpKind::Min: return in(kCInteger, t) || in(kMulti, t) || in(kFloating, t);
    case OpKind::Sum:
    case OpKind::Prod: return in(kCInteger, t) || in(kMulti, t) || in(kFloating, t) || in(kComplex, t);
    case OpKind::Land:
    case OpKind::Lor:
    // MPI_AINT and MPI_OFFSET beyond MPI-2.2, as Open MPI and MPICH take them.
    case OpKind::Lxor: return in(kCInteger, t) || in(kMulti, t) || in(kLogical, t);
    case OpKind::Band:
    case OpKind::Bor:
    case OpKind::Bxor: return in(kCInteger, t) || in(kMulti, t) || in(kByte, t);
    case OpKind::Minloc:
    case OpKind::Maxloc: return in(kPairs, t);
    default: return true;
    }
}

// ---------------------------------------------------------------- the sequential computation
// Integers: computed wide (__int128), then brought back to the type modulo 2^bits, as two's
// complement hardware does (the library must wrap, not trap or saturate).
template <class T>
T ref_int(OpKind k, T a, T b) {
    const __int128 x = a, y = b;
    switch (k) {
    case OpKind::Max: return a > b ? a : b;
    case OpKind::Min: return a < b ? a : b;
    case OpKind::Sum: return static_cast<T>(static_cast<unsigned __int128>(x + y));
    case OpKind::Prod: return static_cast<T>(static_cast<unsigned __int128>(x * y));
    case OpKind::Land: return (a && b) ? 1 : 0;
    case OpKind::Lor: return (a || b) ? 1 : 0;
    case OpKind::Lxor: return (!a != !b) ? 1 : 0;
    case OpKind::Band: return static_cast<T>(a & b);
    case OpKind::Bor: return static_cast<T>(a | b);
    case OpKind::Bxor: return static_cast<T>(a ^ b);
    default: ADD_FAILURE(); return 0;
    }
}

template <class T>
T ref_float(OpKind k, T a, T b) {
    switch (k) {
    case OpKind::Max: return a > b ? a : b;
    case OpKind::Min: return a < b ? a : b;
    case OpKind::Sum: return a + b;
    case OpKind::Prod: return a * b;
    default: ADD_FAILURE(); return 0;
    }
}

// Complex: by the textbook formula on small exact values.
template <class R>
std::complex<R> ref_complex(OpKind k, std::complex<R> a, std::complex<R> b) {
    if (k == OpKind::Sum) return {a.real() + b.real(), a.imag() + b.imag()};
    if (k == OpKind::Prod) return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
    ADD_FAILURE();
    return {};
}

template <class T>
std::vector<T> int_values() {
    using L = std::numeric_limits<T>;
    std::vector<T> v = {0, 1, 2, 3, 7, 100, L::max(), static_cast<T>(L::max() - 1), L::min(), 42, 0x55, 0x0f};
    if constexpr (L::is_signed) v.insert(v.end(), {-1, -2, -7, -100, static_cast<T>(L::min() + 1)});
    return v;
}

template <class T>
std::vector<T> float_values() {
    using L = std::numeric_limits<T>;
    return {0, 1, -1, T(1.5), T(-2.25), T(3e10), T(-7e-3), L::max(), L::lowest(), L::min(), T(0.1), T(-0.0)};
}

// Many items (the vector loops run in blocks of up to 64 items, then a tail): every value meets
// every other, in and inout from the same list at different steps.
template <class T>
void operands(const std::vector<T> &vals, std::vector<T> *a, std::vector<T> *b) {
    const size_t n = vals.size();
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) {
            a->push_back(vals[i]);
            b->push_back(vals[j]);
        }
    for (size_t i = 0; i < 131; ++i) {  // more than two blocks and a tail
        a->push_back(vals[i % n]);
        b->push_back(vals[(i * 5 + 3) % n]);
    }
}

// Runs op on the pair lists and compares each item with ref(kind, in, inout).
template <class T, class Ref, class Eq>
void check_op(Op *op, Datatype *type, const std::vector<T> &vals, Ref ref, Eq eq) {
    std::vector<T> a, b;
    operands(vals, &a, &b);
    std::vector<T> out = b;
    ASSERT_EQ(op_apply(*op, a.data(), out.data(), static_cast<int>(a.size()), type), MPI_SUCCESS);
    int bad = 0;
    for (size_t i = 0; i < a.size(); ++i)
        if (!eq(out[i], ref(op->kind, a[i], b[i])) && ++bad < 4)
            ADD_FAILURE() << op->name << " on " << type->name << " item " << i;
    EXPECT_EQ(bad, 0) << op->name << " on " << type->name;
    // a is unchanged
    std::vector<T> a2, b2;
    operands(vals, &a2, &b2);
    for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(eq(a[i], a2[i])) << op->name << " wrote to in";
}

template <class T>
bool same(const T &x, const T &y) { return x == y; }

class OpTable : public ::testing::Test {
protected:
    // The (op, type) pairs computed, to check that every allowed pair was.
    static std::set<std::pair<std::string, std::string>> &computed() {
        static std::set<std::pair<std::string, std::string>> s;
        return s;
    }
    template <class T>
    void integers(Datatype *type) {
        for (Op *op : kOps) {
            if (!op_allowed(*op, *type, nullptr)) continue;
            check_op<T>(op, type, int_values<T>(), ref_int<T>, same<T>);
            computed().insert({op->name, type->name});
        }
    }
    template <class T>
    void floats(Datatype *type) {
        for (Op *op : kOps) {
            if (!op_allowed(*op, *type, nullptr)) continue;
            check_op<T>(op, type, float_values<T>(), ref_float<T>, [](T x, T y) {
                return x == y && std::signbit(x) == std::signbit(y);
            });
            computed().insert({op->name, type->name});
        }
    }
    template <class R>
    void complexes(Datatype *type) {
        using C = std::complex<R>;
        const std::vector<C> vals = {{1, 2}, {-3, 0.5}, {0, 0}, {1000, -1000}, {-0.25, -8}, {7, 0}, {0, -1}};
        for (Op *op : kOps) {
            if (!op_allowed(*op, *type, nullptr)) continue;
            check_op<C>(op, type, vals, ref_complex<R>, same<C>);
            computed().insert({op->name, type->name});
        }
    }
};

}  // namespace

TEST_F(OpTable, PredefinedOpsAreWhatMpiHSays) {
    const std::map<Op *, std::string> names = {
        {MPI_MAX, "MPI_MAX"},   {MPI_MIN, "MPI_MIN"},     {MPI_SUM, "MPI_SUM"},       {MPI_PROD, "MPI_PROD"},
        {MPI_LAND, "MPI_LAND"}, {MPI_BAND, "MPI_BAND"},   {MPI_LOR, "MPI_LOR"},       {MPI_BOR, "MPI_BOR"},
        {MPI_LXOR, "MPI_LXOR"}, {MPI_BXOR, "MPI_BXOR"},   {MPI_MINLOC, "MPI_MINLOC"}, {MPI_MAXLOC, "MPI_MAXLOC"},
        {MPI_REPLACE, "MPI_REPLACE"}};
    std::set<OpKind> kinds;
    for (const auto &[op, name] : names) {
        EXPECT_TRUE(op_valid(op)) << name;
        EXPECT_TRUE(op->predefined) << name;
        EXPECT_TRUE(op->commutative) << name;
        EXPECT_EQ(op->user_fn, nullptr) << name;
        EXPECT_EQ(std::string(op->name), name);
        kinds.insert(op->kind);
    }
    EXPECT_EQ(kinds.size(), names.size());  // each its own kind
    EXPECT_EQ(MPI_MAX->kind, OpKind::Max);
    EXPECT_EQ(MPI_BXOR->kind, OpKind::Bxor);
    EXPECT_EQ(MPI_REPLACE->kind, OpKind::Replace);
    EXPECT_FALSE(op_valid(MPI_OP_NULL));
}

TEST_F(OpTable, AllowedPairsAreExactlyTheStandardTable) {
    size_t count = 0;
    const PredefinedType *types = predefined_types(&count);
    ASSERT_GT(count, 30u);
    int allowed = 0;
    for (size_t i = 0; i < count; ++i)
        for (Op *op : kOps) {
            std::string why;
            const bool want = expected_allowed(op, types[i].name);
            EXPECT_EQ(op_allowed(*op, *types[i].type, &why), want) << op->name << " on " << types[i].name;
            allowed += want;
        }
    EXPECT_EQ(allowed, 19 * 10 + 2 * 10 + 3 * 4 + 3 * 2 + 1 * 3 + 1 * 3 + 6 * 2);
}

TEST_F(OpTable, RefusedPairsSayWhatTheOpTakes) {
    size_t count = 0;
    const PredefinedType *types = predefined_types(&count);
    int refused = 0;
    for (size_t i = 0; i < count; ++i)
        for (Op *op : kOps) {
            if (expected_allowed(op, types[i].name)) continue;
            std::string why;
            ASSERT_FALSE(op_allowed(*op, *types[i].type, &why)) << op->name << " " << types[i].name;
            ++refused;
            EXPECT_EQ(why.rfind(std::string(op->name) + " is not defined for " + types[i].name + ": it takes ", 0), 0u)
                << why;
            EXPECT_FALSE(op_allowed(*op, *types[i].type, nullptr));  // no message asked for
        }
    EXPECT_GT(refused, 190);
    std::string why;
    EXPECT_FALSE(op_allowed(*MPI_LXOR, *MPI_DOUBLE, &why));
    EXPECT_NE(why.find("MPI_AINT and MPI_OFFSET"), std::string::npos) << why;
    EXPECT_FALSE(op_allowed(*MPI_BAND, *MPI_DOUBLE, &why));
    EXPECT_NE(why.find("MPI_BYTE"), std::string::npos) << why;
    EXPECT_NE(why.find("C integers"), std::string::npos) << why;
    EXPECT_FALSE(op_allowed(*MPI_MAXLOC, *MPI_INT, &why));
    EXPECT_NE(why.find("MPI_2INT"), std::string::npos) << why;
    EXPECT_FALSE(op_allowed(*MPI_SUM, *MPI_WCHAR, &why));
    EXPECT_FALSE(op_allowed(*MPI_LAND, *MPI_DOUBLE, &why));
    EXPECT_NE(why.find("MPI_C_BOOL"), std::string::npos) << why;
}

TEST_F(OpTable, ReplaceTakesEveryTypeAndCopies) {
    size_t count = 0;
    const PredefinedType *types = predefined_types(&count);
    for (size_t i = 0; i < count; ++i) EXPECT_TRUE(op_allowed(*MPI_REPLACE, *types[i].type, nullptr)) << types[i].name;
    const std::vector<long> a = {5, -6, LONG_MIN, 8};
    std::vector<long> b = {0, 0, 0, 0};
    EXPECT_EQ(op_apply(*MPI_REPLACE, a.data(), b.data(), 4, MPI_LONG), MPI_SUCCESS);
    EXPECT_EQ(a, b);
    const std::vector<wchar_t> w = {L'a', L'z'};
    std::vector<wchar_t> w2 = {0, 0};
    EXPECT_EQ(op_apply(*MPI_REPLACE, w.data(), w2.data(), 2, MPI_WCHAR), MPI_SUCCESS);
    EXPECT_EQ(w, w2);
}

TEST_F(OpTable, IntegerTypes) {
    integers<char>(MPI_CHAR);
    integers<signed char>(MPI_SIGNED_CHAR);
    integers<unsigned char>(MPI_UNSIGNED_CHAR);
    integers<short>(MPI_SHORT);
    integers<unsigned short>(MPI_UNSIGNED_SHORT);
    integers<int>(MPI_INT);
    integers<unsigned>(MPI_UNSIGNED);
    integers<long>(MPI_LONG);
    integers<unsigned long>(MPI_UNSIGNED_LONG);
    integers<long long>(MPI_LONG_LONG_INT);
    integers<unsigned long long>(MPI_UNSIGNED_LONG_LONG);
    integers<int8_t>(MPI_INT8_T);
    integers<int16_t>(MPI_INT16_T);
    integers<int32_t>(MPI_INT32_T);
    integers<int64_t>(MPI_INT64_T);
    integers<uint8_t>(MPI_UINT8_T);
    integers<uint16_t>(MPI_UINT16_T);
    integers<uint32_t>(MPI_UINT32_T);
    integers<uint64_t>(MPI_UINT64_T);
    integers<MPI_Aint>(MPI_AINT);
    integers<MPI_Offset>(MPI_OFFSET);
    integers<unsigned char>(MPI_BYTE);
}

TEST_F(OpTable, FloatingAndComplexTypes) {
    floats<float>(MPI_FLOAT);
    floats<double>(MPI_DOUBLE);
    floats<long double>(MPI_LONG_DOUBLE);
    complexes<float>(MPI_C_FLOAT_COMPLEX);
    complexes<double>(MPI_C_DOUBLE_COMPLEX);
    complexes<long double>(MPI_C_LONG_DOUBLE_COMPLEX);
}

TEST_F(OpTable, Bool) {
    const std::vector<bool> vals = {true, false, false, true, true};
    for (Op *op : {MPI_LAND, MPI_LOR, MPI_LXOR}) {
        std::vector<unsigned char> a, b;  // C's _Bool: one byte, 0 or 1
        for (int i = 0; i < 200; ++i) {
            a.push_back(vals[i % 5]);
            b.push_back(vals[(i / 5) % 5]);
        }
        std::vector<unsigned char> out = b;
        ASSERT_EQ(op_apply(*op, a.data(), out.data(), 200, MPI_C_BOOL), MPI_SUCCESS);
        for (int i = 0; i < 200; ++i)
            EXPECT_EQ(out[i], ref_int<int>(op->kind, a[i], b[i])) << op->name << " item " << i;
        computed().insert({op->name, "MPI_C_BOOL"});
    }
}

namespace {

template <class V>
struct Pair {
    V value;
    int index;
};

// MPI-2.2 5.9.4: the larger (smaller) value; on equal values the smaller index.
template <class V>
Pair<V> ref_loc(OpKind k, Pair<V> a, Pair<V> b) {
    const bool a_wins = k == OpKind::Maxloc ? a.value > b.value : a.value < b.value;
    if (a.value == b.value) return {a.value, a.index < b.index ? a.index : b.index};
    return a_wins ? a : b;
}

template <class V>
void check_pairs(Datatype *type, std::set<std::pair<std::string, std::string>> *done) {
    ASSERT_EQ(static_cast<size_t>(type->extent), sizeof(Pair<V>)) << type->name;
    std::vector<Pair<V>> vals;
    const V lows[] = {std::numeric_limits<V>::lowest(), static_cast<V>(-3), 0, 3, 3, std::numeric_limits<V>::max()};
    int idx = 0;
    for (V v : lows) vals.push_back({v, (idx++ * 7) % 5});  // equal values with different indices
    for (Op *op : {MPI_MINLOC, MPI_MAXLOC}) {
        std::vector<Pair<V>> a, b;
        operands(vals, &a, &b);
        std::vector<Pair<V>> out = b;
        ASSERT_EQ(op_apply(*op, a.data(), out.data(), static_cast<int>(a.size()), type), MPI_SUCCESS);
        for (size_t i = 0; i < a.size(); ++i) {
            const Pair<V> want = ref_loc(op->kind, a[i], b[i]);
            EXPECT_TRUE(out[i].value == want.value && out[i].index == want.index) << op->name << " " << type->name << " " << i;
        }
        // Ties: the lower index whichever operand holds it.
        Pair<V> x = {5, 9}, y = {5, 2};
        Pair<V> r1 = y, r2 = x;
        op_apply(*op, &x, &r1, 1, type);
        op_apply(*op, &y, &r2, 1, type);
        EXPECT_EQ(r1.index, 2);
        EXPECT_EQ(r2.index, 2);
        done->insert({op->name, type->name});
    }
}

}  // namespace

TEST_F(OpTable, MinlocMaxlocPairs) {
    check_pairs<float>(MPI_FLOAT_INT, &computed());
    check_pairs<double>(MPI_DOUBLE_INT, &computed());
    check_pairs<long>(MPI_LONG_INT, &computed());
    check_pairs<int>(MPI_2INT, &computed());
    check_pairs<short>(MPI_SHORT_INT, &computed());
    check_pairs<long double>(MPI_LONG_DOUBLE_INT, &computed());
}

// Last in the file (gtest runs tests in order): every allowed pair was computed above.
TEST_F(OpTable, EveryAllowedPairWasComputed) {
    size_t count = 0;
    const PredefinedType *types = predefined_types(&count);
    for (size_t i = 0; i < count; ++i)
        for (Op *op : kOps)
            if (expected_allowed(op, types[i].name)) {
                EXPECT_TRUE(computed().count({op->name, types[i].name})) << op->name << " on " << types[i].name;
            }
}
