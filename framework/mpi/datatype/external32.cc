// Conversions between the native packed form and external32 (external32.h). Each predefined type
// is one or two fields (a pair type: value and int; a complex type: two reals), each field an
// integer, an IEEE real of the same size, or a long double; integers that shrink (long, wchar_t)
// are range-checked.
#include "mpi/datatype/external32.h"

#include <cfloat>
#include <cstdint>
#include <cstring>

#include "mpi/datatype/derived_type.h"

namespace plexus::mpi {
namespace {

enum class Field : uint8_t { Raw, Signed, Unsigned, Real, LongDouble };

struct Part {
    Field kind;
    uint8_t native;    // bytes in the native packed form
    uint8_t external;  // bytes in external32
};

struct Layout32 {
    Part parts[2];
    int n;
};

template <class T>
constexpr Part integer(uint8_t external) {
    return {T(-1) < T(0) ? Field::Signed : Field::Unsigned, uint8_t(sizeof(T)), external};
}

// What each predefined type is in external32 (MPI-2.2 table 13.2).
Layout32 layout_of(const Datatype &t) {
    const Part ld{Field::LongDouble, uint8_t(sizeof(long double)), 16};
    const Part i32 = integer<int>(4);
    if (&t == MPI_FLOAT_INT) return {{{Field::Real, 4, 4}, i32}, 2};
    if (&t == MPI_DOUBLE_INT) return {{{Field::Real, 8, 8}, i32}, 2};
    if (&t == MPI_LONG_INT) return {{integer<long>(4), i32}, 2};
    if (&t == MPI_2INT) return {{i32, i32}, 2};
    if (&t == MPI_SHORT_INT) return {{integer<short>(2), i32}, 2};
    if (&t == MPI_LONG_DOUBLE_INT) return {{ld, i32}, 2};
    if (&t == MPI_C_FLOAT_COMPLEX) return {{{Field::Real, 4, 4}, {Field::Real, 4, 4}}, 2};
    if (&t == MPI_C_DOUBLE_COMPLEX) return {{{Field::Real, 8, 8}, {Field::Real, 8, 8}}, 2};
    if (&t == MPI_C_LONG_DOUBLE_COMPLEX) return {{ld, ld}, 2};
    if (&t == MPI_FLOAT || &t == MPI_DOUBLE) return {{{Field::Real, uint8_t(t.size), uint8_t(t.size)}}, 1};
    if (&t == MPI_LONG_DOUBLE) return {{ld}, 1};
    if (&t == MPI_LONG) return {{integer<long>(4)}, 1};
    if (&t == MPI_UNSIGNED_LONG) return {{integer<unsigned long>(4)}, 1};
    if (&t == MPI_WCHAR) return {{integer<wchar_t>(2)}, 1};
    if (&t == MPI_SHORT || &t == MPI_INT || &t == MPI_LONG_LONG_INT || &t == MPI_INT8_T || &t == MPI_INT16_T ||
        &t == MPI_INT32_T || &t == MPI_INT64_T || &t == MPI_AINT || &t == MPI_OFFSET)
        return {{{Field::Signed, uint8_t(t.size), uint8_t(t.size)}}, 1};
    if (t.size == 1) return {{{Field::Raw, 1, 1}}, 1};  // chars, bytes, MPI_PACKED, MPI_C_BOOL
    return {{{Field::Unsigned, uint8_t(t.size), uint8_t(t.size)}}, 1};
}

// An integer of n little-endian bytes (this library runs on little-endian machines: x86-64, aarch64).
uint64_t load_le(const char *p, int n) {
    uint64_t v = 0;
    std::memcpy(&v, p, size_t(n));
    return v;
}

void store_be(char *p, uint64_t v, int n) {
    for (int i = n - 1; i >= 0; --i, v >>= 8) p[i] = char(v & 0xff);
}

uint64_t load_be(const char *p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = v << 8 | uint8_t(p[i]);
    return v;
}

bool fits(uint64_t v, int native, int external, bool is_signed) {
    if (external >= native) return true;
    const int bits = 8 * external;
    if (!is_signed) return v >> bits == 0;
    const int64_t s = int64_t(v << (64 - 8 * native)) >> (64 - 8 * native);  // sign-extended
    return s >= -(int64_t(1) << (bits - 1)) && s < (int64_t(1) << (bits - 1));
}

// x87 80-bit extended (sign, 15-bit exponent, explicit integer bit, 63-bit fraction) <->
// IEEE binary128 (same sign and exponent, 112-bit fraction): the fraction moves up 49 bits.
void x87_to_binary128(const char *in, char *out16) {
    const uint64_t mantissa = load_le(in, 8);
    const uint64_t sign_exp = load_le(in + 8, 2);
    const uint64_t fraction = mantissa & 0x7fffffffffffffffULL;
    store_be(out16, sign_exp << 48 | fraction >> 15, 8);
    store_be(out16 + 8, fraction << 49, 8);
}

void binary128_to_x87(const char *in16, char *out) {
    const uint64_t hi = load_be(in16, 8), lo = load_be(in16 + 8, 8);
    const uint64_t sign_exp = hi >> 48;
    const uint64_t fraction = (hi & 0xffffffffffffULL) << 15 | lo >> 49;  // the top 63 of 112 bits
    const uint64_t integer_bit = (sign_exp & 0x7fff) != 0 ? 1ULL << 63 : 0;  // 0 for zero and subnormals
    std::memset(out, 0, sizeof(long double));
    const uint64_t mantissa = integer_bit | fraction;
    std::memcpy(out, &mantissa, 8);
    std::memcpy(out + 8, &sign_exp, 2);
}

void reverse_copy(const char *in, char *out, int n) {
    for (int i = 0; i < n; ++i) out[i] = in[n - 1 - i];
}

bool part_out(const Part &p, const char *in, char *out) {
    switch (p.kind) {
        case Field::Raw:
            *out = *in;
            return true;
        case Field::Real:
            reverse_copy(in, out, p.native);
            return true;
        case Field::LongDouble:
            if (LDBL_MANT_DIG == 64) x87_to_binary128(in, out);
            else reverse_copy(in, out, 16);  // already binary128
            return true;
        case Field::Signed:
        case Field::Unsigned: {
            const uint64_t v = load_le(in, p.native);
            if (!fits(v, p.native, p.external, p.kind == Field::Signed)) return false;
            store_be(out, v, p.external);
            return true;
        }
    }
    return false;
}

void part_in(const Part &p, const char *in, char *out) {
    switch (p.kind) {
        case Field::Raw:
            *out = *in;
            return;
        case Field::Real:
            reverse_copy(in, out, p.native);
            return;
        case Field::LongDouble:
            if (LDBL_MANT_DIG == 64) binary128_to_x87(in, out);
            else reverse_copy(in, out, 16);
            return;
        case Field::Signed:
        case Field::Unsigned: {
            uint64_t v = load_be(in, p.external);
            if (p.kind == Field::Signed && p.external < 8 && (v >> (8 * p.external - 1)) & 1)
                v |= ~uint64_t(0) << (8 * p.external);  // sign-extend to the native size
            std::memcpy(out, &v, p.native);
            return;
        }
    }
}

void append(std::vector<BasicRun> &out, const Datatype *type, size_t n) {
    if (n == 0) return;
    if (!out.empty() && out.back().type == type) out.back().n += n;
    else out.push_back({type, n});
}

void append_runs(std::vector<BasicRun> &out, const Datatype &t, size_t repeat) {
    if (repeat == 0 || t.size == 0) return;
    if (!t.derived) return append(out, &t, repeat);
    if (const Datatype *b = t.derived->basic) return append(out, b, repeat * (t.size / b->size));
    const std::vector<ChildRun> children = child_runs(t);
    for (size_t r = 0; r < repeat; ++r)
        for (const ChildRun &c : children) append_runs(out, *c.type, c.repeat);
}

}  // namespace

std::vector<BasicRun> basic_runs(const Datatype &t) {
    std::vector<BasicRun> runs;
    append_runs(runs, t, 1);
    return runs;
}

size_t external32_element_size(const Datatype &basic) {
    const Layout32 l = layout_of(basic);
    size_t bytes = 0;
    for (int i = 0; i < l.n; ++i) bytes += l.parts[i].external;
    return bytes;
}

size_t external32_bytes(const std::vector<BasicRun> &runs, size_t items) {
    size_t per_item = 0;
    for (const BasicRun &r : runs) per_item += r.n * external32_element_size(*r.type);
    return per_item * items;
}

bool external32_long_double_supported() {
    return (LDBL_MANT_DIG == 64 && sizeof(long double) >= 10) || (LDBL_MANT_DIG == 113 && sizeof(long double) == 16);
}

bool to_external32(const std::vector<BasicRun> &runs, size_t items, const char *native, char *external,
                   const Datatype **bad_type) {
    for (size_t item = 0; item < items; ++item) {
        for (const BasicRun &r : runs) {
            const Layout32 l = layout_of(*r.type);
            for (size_t k = 0; k < r.n; ++k) {
                for (int i = 0; i < l.n; ++i) {
                    if (!part_out(l.parts[i], native, external)) {
                        *bad_type = r.type;
                        return false;
                    }
                    native += l.parts[i].native;
                    external += l.parts[i].external;
                }
            }
        }
    }
    return true;
}

void from_external32(const std::vector<BasicRun> &runs, size_t items, const char *external, char *native) {
    for (size_t item = 0; item < items; ++item) {
        for (const BasicRun &r : runs) {
            const Layout32 l = layout_of(*r.type);
            for (size_t k = 0; k < r.n; ++k) {
                for (int i = 0; i < l.n; ++i) {
                    part_in(l.parts[i], external, native);
                    native += l.parts[i].native;
                    external += l.parts[i].external;
                }
            }
        }
    }
}

}  // namespace plexus::mpi
