/* Shared by the collective tests (tests/mpi/README.md, "Collectives"): the data they move and
 * the sequential model they check it against.
 *
 * Data movement: a block is a stream of bytes from tu_fill (seeded by source, destination, size
 * and call), laid out in one of three layouts: bytes (MPI_BYTE), ints (MPI_INT), or a vector
 * type of two ints with a hole between them (extent 3 ints). Ints and vectors have the same type
 * signature, so one side may use either. A receive buffer starts as guard bytes; the test builds
 * the image the buffer must have (guard bytes, with every expected block placed where its
 * layout and displacement put it) and compares the whole buffer, holes and tail included.
 *
 * Reductions: typed elements (every predefined type kind the tests reduce, the MINLOC/MAXLOC
 * pairs, a 2x2 matrix of unsigned ints under a non-commutative user op, a long long under a
 * commutative user op that counts its applications), generated per (rank, index, call) with
 * values that keep every result exact, and folded in rank order as MPI defines the result.
 * Header-only (static), C99, MPI-2.2 C API only. */
#ifndef PLEXUS_TESTS_MPI_COLL_UTIL_H
#define PLEXUS_TESTS_MPI_COLL_UTIL_H

#include "test_util.h"

/* ------------------------------------------------------------------ reference bugs */

/* MPICH before 4.0.3 computes MPI_MAX/MPI_MIN of unsigned types as signed (pmodels/mpich#6083):
 * its unsigned MAX/MIN inputs keep the top bit clear. */
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40003000
#define CU_SIGNED_UNSIGNED_MINMAX 1
#else
#define CU_SIGNED_UNSIGNED_MINMAX 0
#endif
/* MPICH 4.0.2: MPI_Allgatherv on a one-process communicator ignores displs[0]. */
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40200000
#define CU_ALLGATHERV_SELF_NO_DISPL 1
#else
#define CU_ALLGATHERV_SELF_NO_DISPL 0
#endif
/* MPICH 4.0.2: MPI_Reduce with MPI_IN_PLACE at a root other than 0 crashes in its large-message
 * algorithm (pmodels/mpich#6540, fixed in 4.1.2): its in-place Reduce tests use root 0. */
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40102000
#define CU_REDUCE_IN_PLACE_ROOT0_ONLY 1
#else
#define CU_REDUCE_IN_PLACE_ROOT0_ONLY 0
#endif
/* MPICH 4.0.2: an in-place MPI_Reduce_scatter whose block of rank q > 0 is longer than the
 * blocks before it together copies overlapping memory and aborts: its in-place tests give
 * rank 0 the longest block. */
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40200000
#define CU_REDUCE_SCATTER_IN_PLACE_OVERLAP 1
#else
#define CU_REDUCE_SCATTER_IN_PLACE_OVERLAP 0
#endif
/* Open MPI 4.1.4: an inter-communicator MPI_Scatterv whose root's send type differs in size from
 * the receivers' type (same signature) fails with MPI_ERR_TRUNCATE: both sides use one layout. */
#if defined(OPEN_MPI) && OPEN_MPI && OMPI_MAJOR_VERSION < 5
#define CU_INTER_SCATTERV_SAME_TYPE 1
#else
#define CU_INTER_SCATTERV_SAME_TYPE 0
#endif
/* Open MPI 4.1.4: MPI_Alltoallw on a one-process communicator moves nothing. */
#if defined(OPEN_MPI) && OPEN_MPI && OMPI_MAJOR_VERSION < 5
#define CU_ALLTOALLW_SELF_BROKEN 1
#else
#define CU_ALLTOALLW_SELF_BROKEN 0
#endif

/* ------------------------------------------------------------------ options */

#define CU_MAX_SIZES 16
#define CU_MAX_RANKS 64

/* "--sizes 0,1,7,256" (element counts), or the default list when absent. */
static inline int cu_option_sizes(int argc, char **argv, long *out, const char *dflt)
{
    const char *list = dflt;
    for (int i = 1; i + 1 < argc; ++i)
        if (strcmp(argv[i], "--sizes") == 0)
            list = argv[i + 1];
    int n = 0;
    const char *p = list;
    while (*p && n < CU_MAX_SIZES) {
        char *end = NULL;
        long v = strtol(p, &end, 0);
        CHECK(end != p && v >= 0 && (*end == ',' || *end == '\0'),
              "--sizes needs a comma-separated list of counts >= 0, got '%s'", list);
        out[n++] = v;
        p = *end ? end + 1 : end;
    }
    return n;
}

/* Is name in the "--colls a,b,c" list (every collective when the option is absent)? */
static inline int cu_selected(int argc, char **argv, const char *name)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (strcmp(argv[i], "--colls") == 0) {
            size_t len = strlen(name);
            for (const char *p = argv[i + 1]; *p;) {
                const char *comma = strchr(p, ',');
                size_t n = comma ? (size_t)(comma - p) : strlen(p);
                if (n == len && strncmp(p, name, n) == 0)
                    return 1;
                p += n + (comma != NULL);
            }
            return 0;
        }
    return 1;
}

/* ------------------------------------------------------------------ layouts of moved data */

enum { L_BYTE, L_INT, L_VEC, L_COUNT };
static const char *const cu_layout_name[L_COUNT] = {"MPI_BYTE", "MPI_INT", "vector(2,1,2,MPI_INT)"};
static MPI_Datatype cu_vec_type = MPI_DATATYPE_NULL;

static inline void cu_layouts_init(void)
{
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &cu_vec_type));
    CHECK_MPI(MPI_Type_commit(&cu_vec_type));
}
static inline void cu_layouts_free(void) { CHECK_MPI(MPI_Type_free(&cu_vec_type)); }

static inline MPI_Datatype cu_layout_type(int l)
{
    return l == L_BYTE ? MPI_BYTE : l == L_INT ? MPI_INT : cu_vec_type;
}
/* Data bytes of one element, and the memory one element spans. */
static inline size_t cu_layout_size(int l) { return l == L_BYTE ? 1 : l == L_INT ? 4 : 8; }
static inline size_t cu_layout_extent(int l) { return l == L_BYTE ? 1 : l == L_INT ? 4 : 12; }

/* Where byte j of a block's data stream lives in layout l. */
static inline size_t cu_layout_offset(int l, size_t j)
{
    if (l != L_VEC)
        return j;
    size_t in = j % 8;
    return 12 * (j / 8) + (in < 4 ? in : in + 4);
}

/* A pair of layouts (sender's, receiver's) moving a block of m "units": m bytes between byte
 * layouts, m ints otherwise (rounded up to even when a vector is involved). */
typedef struct {
    int send, recv;
} cu_pair;
static const cu_pair cu_pairs[] = {
    {L_INT, L_INT}, {L_BYTE, L_BYTE}, {L_VEC, L_INT}, {L_INT, L_VEC}, {L_VEC, L_VEC}};
#define CU_NPAIRS ((int)(sizeof cu_pairs / sizeof cu_pairs[0]))

static inline size_t cu_pair_bytes(cu_pair p, long m)
{
    if (p.send == L_BYTE)
        return (size_t)m;
    if (p.send == L_VEC || p.recv == L_VEC)
        return 8 * (size_t)((m + 1) / 2);
    return 4 * (size_t)m;
}
static inline int cu_count(int l, size_t bytes) { return (int)(bytes / cu_layout_size(l)); }
static inline size_t cu_span(int l, size_t bytes) { return cu_count(l, bytes) * cu_layout_extent(l); }

/* Writes the block of `bytes` data bytes seeded by seed into buf in layout l (holes untouched). */
static inline void cu_place(int l, void *buf, size_t bytes, uint64_t seed)
{
    unsigned char *p = (unsigned char *)buf;
    if (l != L_VEC) {
        tu_fill(p, bytes, seed);
        return;
    }
    unsigned char *tmp = (unsigned char *)tu_malloc(bytes);
    tu_fill(tmp, bytes, seed);
    for (size_t j = 0; j < bytes; j += 4)
        memcpy(p + cu_layout_offset(l, j), tmp + j, 4);
    free(tmp);
}

/* A buffer of n bytes followed by TU_GUARD_SIZE guard bytes, all set to the guard byte. */
static inline unsigned char *cu_guarded(size_t n)
{
    unsigned char *p = (unsigned char *)tu_malloc(n + TU_GUARD_SIZE);
    memset(p, TU_GUARD_BYTE, n + TU_GUARD_SIZE);
    return p;
}

/* Compares got with the expected image want (both n bytes plus the guard); a difference fails
 * naming the offset, both bytes and how many differ. */
static inline void cu_compare_at(const char *file, int line, const unsigned char *got,
                                 const unsigned char *want, size_t n, const char *what)
{
    size_t total = n + TU_GUARD_SIZE;
    if (memcmp(got, want, total) == 0)
        return;
    size_t first = 0, differing = 0;
    while (got[first] == want[first])
        ++first;
    for (size_t i = first; i < total; ++i)
        differing += got[i] != want[i];
    tu_fail(file, line, what,
            "receive buffer differs from byte %zu on (%s): got 0x%02x, expected 0x%02x (%zu "
            "bytes differ)",
            first, first >= n ? "in the guard after the buffer" : "inside the buffer", got[first],
            want[first], differing);
}
#define CU_COMPARE(got, want, n, what) cu_compare_at(__FILE__, __LINE__, (got), (want), (n), (what))

/* The seed of the block src sends to dst in call number `call` (dst -1: the same for all). */
static inline uint64_t cu_seed(int src, int dst, size_t bytes, long call)
{
    return tu_seed(src, dst, bytes, call);
}

/* ------------------------------------------------------------------ typed elements */

enum {
    K_SCHAR, K_UCHAR, K_SHORT, K_INT, K_UNSIGNED, K_LONG, K_ULONG, K_LLONG, K_FLOAT, K_DOUBLE,
    K_CFLOAT, K_DOUBLE_INT, K_2INT, K_MAT, K_COUNTING, K_COUNT
};
enum {
    O_SUM, O_PROD, O_MAX, O_MIN, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR, O_MINLOC,
    O_MAXLOC, O_MATMUL, O_COUNTING, O_COUNT
};
static const char *const cu_kind_name[K_COUNT] = {
    "MPI_SIGNED_CHAR", "MPI_UNSIGNED_CHAR", "MPI_SHORT", "MPI_INT", "MPI_UNSIGNED", "MPI_LONG",
    "MPI_UNSIGNED_LONG", "MPI_LONG_LONG", "MPI_FLOAT", "MPI_DOUBLE", "MPI_C_FLOAT_COMPLEX",
    "MPI_DOUBLE_INT", "MPI_2INT", "contiguous(4,MPI_UNSIGNED) matrix", "MPI_LONG_LONG"};
static const char *const cu_op_name[O_COUNT] = {
    "MPI_SUM", "MPI_PROD", "MPI_MAX", "MPI_MIN", "MPI_LAND", "MPI_LOR", "MPI_LXOR", "MPI_BAND",
    "MPI_BOR", "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "user 2x2 matrix product (non-commutative)",
    "user a+b+1 (commutative)"};

typedef struct {
    double d;
    int i;
} cu_double_int;

/* One element, whatever its kind: integers in i (unsigned ones too, normalized to their range),
 * reals and the real part in d, the imaginary part in im, the pair index in loc. */
typedef struct {
    long long i;
    double d, im;
    int loc;
    uint32_t m[4];
} cu_val;

static MPI_Datatype cu_mat_type = MPI_DATATYPE_NULL;
static MPI_Op cu_matmul_op = MPI_OP_NULL, cu_counting_op = MPI_OP_NULL;

static inline size_t cu_kind_size(int k)
{
    switch (k) {
    case K_SCHAR: case K_UCHAR: return 1;
    case K_SHORT: return sizeof(short);
    case K_INT: case K_UNSIGNED: case K_FLOAT: return 4;
    case K_LONG: return sizeof(long);
    case K_ULONG: return sizeof(unsigned long);
    case K_LLONG: case K_COUNTING: case K_DOUBLE: case K_CFLOAT: case K_2INT: return 8;
    case K_DOUBLE_INT: return sizeof(cu_double_int);
    default: return 16; /* K_MAT */
    }
}

static inline MPI_Datatype cu_kind_type(int k)
{
    static MPI_Datatype t[K_COUNT];
    t[K_SCHAR] = MPI_SIGNED_CHAR; t[K_UCHAR] = MPI_UNSIGNED_CHAR; t[K_SHORT] = MPI_SHORT;
    t[K_INT] = MPI_INT; t[K_UNSIGNED] = MPI_UNSIGNED; t[K_LONG] = MPI_LONG;
    t[K_ULONG] = MPI_UNSIGNED_LONG; t[K_LLONG] = MPI_LONG_LONG; t[K_FLOAT] = MPI_FLOAT;
    t[K_DOUBLE] = MPI_DOUBLE; t[K_CFLOAT] = MPI_C_FLOAT_COMPLEX; t[K_DOUBLE_INT] = MPI_DOUBLE_INT;
    t[K_2INT] = MPI_2INT; t[K_MAT] = cu_mat_type; t[K_COUNTING] = MPI_LONG_LONG;
    return t[k];
}

static inline MPI_Op cu_op(int o)
{
    static MPI_Op t[O_COUNT];
    t[O_SUM] = MPI_SUM; t[O_PROD] = MPI_PROD; t[O_MAX] = MPI_MAX; t[O_MIN] = MPI_MIN;
    t[O_LAND] = MPI_LAND; t[O_LOR] = MPI_LOR; t[O_LXOR] = MPI_LXOR; t[O_BAND] = MPI_BAND;
    t[O_BOR] = MPI_BOR; t[O_BXOR] = MPI_BXOR; t[O_MINLOC] = MPI_MINLOC; t[O_MAXLOC] = MPI_MAXLOC;
    t[O_MATMUL] = cu_matmul_op; t[O_COUNTING] = cu_counting_op;
    return t[o];
}

static inline TU_HOT cu_val cu_get(int k, const void *buf, size_t idx)
{
    cu_val v;
    memset(&v, 0, sizeof v);
    const unsigned char *p = (const unsigned char *)buf + idx * cu_kind_size(k);
    switch (k) {
    case K_SCHAR: { signed char x; memcpy(&x, p, 1); v.i = x; break; }
    case K_UCHAR: { unsigned char x; memcpy(&x, p, 1); v.i = x; break; }
    case K_SHORT: { short x; memcpy(&x, p, sizeof x); v.i = x; break; }
    case K_INT: { int x; memcpy(&x, p, 4); v.i = x; break; }
    case K_UNSIGNED: { unsigned x; memcpy(&x, p, 4); v.i = x; break; }
    case K_LONG: { long x; memcpy(&x, p, sizeof x); v.i = x; break; }
    case K_ULONG: { unsigned long x; memcpy(&x, p, sizeof x); v.i = (long long)x; break; }
    case K_LLONG: case K_COUNTING: { long long x; memcpy(&x, p, 8); v.i = x; break; }
    case K_FLOAT: { float x; memcpy(&x, p, 4); v.d = x; break; }
    case K_DOUBLE: { memcpy(&v.d, p, 8); break; }
    case K_CFLOAT: { float x[2]; memcpy(x, p, 8); v.d = x[0]; v.im = x[1]; break; }
    case K_DOUBLE_INT: { cu_double_int x; memcpy(&x.d, p, 8); memcpy(&x.i, p + offsetof(cu_double_int, i), 4); v.d = x.d; v.loc = x.i; break; }
    case K_2INT: { int x[2]; memcpy(x, p, 8); v.d = x[0]; v.loc = x[1]; break; }
    case K_MAT: memcpy(v.m, p, 16); break;
    }
    return v;
}

static inline TU_HOT void cu_put(int k, void *buf, size_t idx, cu_val v)
{
    unsigned char *p = (unsigned char *)buf + idx * cu_kind_size(k);
    switch (k) {
    case K_SCHAR: { signed char x = (signed char)v.i; memcpy(p, &x, 1); break; }
    case K_UCHAR: { unsigned char x = (unsigned char)v.i; memcpy(p, &x, 1); break; }
    case K_SHORT: { short x = (short)v.i; memcpy(p, &x, sizeof x); break; }
    case K_INT: { int x = (int)v.i; memcpy(p, &x, 4); break; }
    case K_UNSIGNED: { unsigned x = (unsigned)(unsigned long long)v.i; memcpy(p, &x, 4); break; }
    case K_LONG: { long x = (long)v.i; memcpy(p, &x, sizeof x); break; }
    case K_ULONG: { unsigned long x = (unsigned long)v.i; memcpy(p, &x, sizeof x); break; }
    case K_LLONG: case K_COUNTING: { long long x = v.i; memcpy(p, &x, 8); break; }
    case K_FLOAT: { float x = (float)v.d; memcpy(p, &x, 4); break; }
    case K_DOUBLE: memcpy(p, &v.d, 8); break;
    case K_CFLOAT: { float x[2] = {(float)v.d, (float)v.im}; memcpy(p, x, 8); break; }
    case K_DOUBLE_INT: { memcpy(p, &v.d, 8); memcpy(p + offsetof(cu_double_int, i), &v.loc, 4); break; }
    case K_2INT: { int x[2] = {(int)v.d, v.loc}; memcpy(p, x, 8); break; }
    case K_MAT: memcpy(p, v.m, 16); break;
    }
}

/* Round trip through memory: wraps unsigned values as the type does. */
static inline TU_HOT cu_val cu_norm(int k, cu_val v)
{
    unsigned char tmp[32];
    cu_put(k, tmp, 0, v);
    return cu_get(k, tmp, 0);
}

static inline int cu_equal(int k, cu_val a, cu_val b)
{
    switch (k) {
    case K_FLOAT: case K_DOUBLE: return a.d == b.d;
    case K_CFLOAT: return a.d == b.d && a.im == b.im;
    case K_DOUBLE_INT: case K_2INT: return a.d == b.d && a.loc == b.loc;
    case K_MAT: return memcmp(a.m, b.m, sizeof a.m) == 0;
    default: return a.i == b.i;
    }
}

static inline void cu_format(int k, cu_val v, char *out, size_t n)
{
    switch (k) {
    case K_FLOAT: case K_DOUBLE: snprintf(out, n, "%g", v.d); break;
    case K_CFLOAT: snprintf(out, n, "(%g, %g)", v.d, v.im); break;
    case K_DOUBLE_INT: case K_2INT: snprintf(out, n, "(value %g, index %d)", v.d, v.loc); break;
    case K_MAT: snprintf(out, n, "[%u %u; %u %u]", v.m[0], v.m[1], v.m[2], v.m[3]); break;
    default: snprintf(out, n, "%lld", v.i); break;
    }
}

static inline int cu_is_real(int k) { return k == K_FLOAT || k == K_DOUBLE; }

/* Element idx of rank r's contribution in call `call`: values chosen so that folding up to 64
 * of them is exact in the type (small integers and quarters for sums, +-1/2/0.5 for products),
 * with many ties for MIN/MAX/MINLOC/MAXLOC, and logical/bitwise inputs mixed so that every
 * outcome occurs. */
static inline TU_HOT cu_val cu_gen(int k, int o, int r, size_t idx, long call)
{
    cu_val v;
    memset(&v, 0, sizeof v);
    uint64_t h = tu_mix64(tu_mix64((uint64_t)call * 0x9e37u + (uint64_t)k * 131u + (uint64_t)o) ^
                          ((uint64_t)(uint32_t)r << 40) ^ (uint64_t)idx);
    static const int prod_i[6] = {-2, -1, 1, 2, 1, -1};
    static const double prod_d[6] = {-2, -1, -0.5, 0.5, 1, 2};
    switch (o) {
    case O_SUM:
        if (k == K_UNSIGNED || k == K_UCHAR)
            v.i = (long long)(h >> 8);
        else if (k == K_SCHAR)
            v.i = (long long)(h % 3) - 1;
        else
            v.i = (long long)(h % 31) - 15;
        v.d = (double)((long long)(h % 81) - 40) / 4.0;
        if (k == K_CFLOAT) {
            v.d = (double)((long long)(h % 9) - 4);
            v.im = (double)((long long)(h >> 8 & 7) - 4);
        }
        break;
    case O_PROD:
        v.i = prod_i[h % 6];
        v.d = prod_d[h % 6];
        if (k == K_CFLOAT) {
            v.d = (double)((long long)(h % 3) - 1);
            v.im = (double)((long long)(h >> 8 & 1) ? 1 : 0);
            if (v.d == 0 && v.im == 0)
                v.d = 1;
        }
        break;
    case O_MAX:
    case O_MIN:
        v.i = k == K_UNSIGNED || k == K_UCHAR ? (long long)(h >> 8) : (long long)(h % 41) - 20;
        if (CU_SIGNED_UNSIGNED_MINMAX && (k == K_UNSIGNED || k == K_UCHAR))
            v.i &= k == K_UCHAR ? 0x7f : 0x7fffffff;
        v.d = (double)((long long)(h % 41) - 20) / 8.0;
        break;
    case O_LAND:
    case O_LOR:
    case O_LXOR: {
        /* element idx % 3 decides how likely a zero is: rare (so LAND is often true), common
         * (LOR often false), or even (LXOR either way) */
        int zero = idx % 3 == 0 ? h % 64 == 0 : idx % 3 == 1 ? h % 16 != 0 : (int)(h & 1);
        v.i = zero ? 0 : (long long)(h >> 8 & 3) + 1;
        break;
    }
    case O_BAND:
        v.i = (long long)(h | h >> 7 | h >> 19);
        break;
    case O_BOR:
        v.i = (long long)(h & h >> 9 & h >> 23 & 0xffffffffu); /* fits any unsigned long */
        break;
    case O_BXOR:
        v.i = (long long)(h >> 3);
        break;
    case O_MINLOC:
    case O_MAXLOC:
        v.d = (double)(h % 4); /* ties */
        v.loc = (int)((h >> 8) % 1000);
        break;
    case O_MATMUL:
        for (int j = 0; j < 4; ++j)
            v.m[j] = (uint32_t)tu_mix64(h + (uint64_t)j);
        break;
    case O_COUNTING:
        v.i = (long long)(h % 2001) - 1000;
        break;
    }
    return cu_norm(k, v);
}

/* a op b, a being the lower rank's (MPI's order for non-commutative operations). */
static inline TU_HOT cu_val cu_combine(int k, int o, cu_val a, cu_val b)
{
    cu_val c = a;
    int real = cu_is_real(k);
    switch (o) {
    case O_SUM:
        c.i = a.i + b.i; c.d = a.d + b.d; c.im = a.im + b.im;
        break;
    case O_PROD:
        c.i = a.i * b.i;
        if (k == K_CFLOAT) {
            c.d = a.d * b.d - a.im * b.im;
            c.im = a.d * b.im + a.im * b.d;
        } else {
            c.d = a.d * b.d;
        }
        break;
    case O_MAX:
        c.i = a.i > b.i ? a.i : b.i; c.d = real ? (a.d > b.d ? a.d : b.d) : 0;
        break;
    case O_MIN:
        c.i = a.i < b.i ? a.i : b.i; c.d = real ? (a.d < b.d ? a.d : b.d) : 0;
        break;
    case O_LAND: c.i = a.i && b.i; break;
    case O_LOR: c.i = a.i || b.i; break;
    case O_LXOR: c.i = !a.i != !b.i; break;
    case O_BAND: c.i = a.i & b.i; break;
    case O_BOR: c.i = a.i | b.i; break;
    case O_BXOR: c.i = a.i ^ b.i; break;
    case O_MINLOC:
    case O_MAXLOC: {
        int a_wins = o == O_MINLOC ? a.d < b.d : a.d > b.d;
        int b_wins = o == O_MINLOC ? b.d < a.d : b.d > a.d;
        c = a_wins ? a : b_wins ? b : a;
        if (!a_wins && !b_wins)
            c.loc = a.loc < b.loc ? a.loc : b.loc;
        break;
    }
    case O_MATMUL:
        c.m[0] = a.m[0] * b.m[0] + a.m[1] * b.m[2];
        c.m[1] = a.m[0] * b.m[1] + a.m[1] * b.m[3];
        c.m[2] = a.m[2] * b.m[0] + a.m[3] * b.m[2];
        c.m[3] = a.m[2] * b.m[1] + a.m[3] * b.m[3];
        break;
    case O_COUNTING:
        c.i = a.i + b.i + 1;
        break;
    }
    return cu_norm(k, c);
}

/* inoutvec = invec op inoutvec, invec coming from the lower ranks (MPI-2.2 5.9.5). */
static void cu_matmul_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    uint32_t *a = (uint32_t *)in, *b = (uint32_t *)inout;
    for (int e = 0; e < *len; ++e, a += 4, b += 4) {
        uint32_t c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                         a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, c, sizeof c);
    }
}
static void cu_counting_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    long long *a = (long long *)in, *b = (long long *)inout;
    for (int e = 0; e < *len; ++e)
        b[e] = a[e] + b[e] + 1;
}

static inline void cu_ops_init(void)
{
    CHECK_MPI(MPI_Type_contiguous(4, MPI_UNSIGNED, &cu_mat_type));
    CHECK_MPI(MPI_Type_commit(&cu_mat_type));
    CHECK_MPI(MPI_Op_create(cu_matmul_fn, 0, &cu_matmul_op));
    CHECK_MPI(MPI_Op_create(cu_counting_fn, 1, &cu_counting_op));
}
static inline void cu_ops_free(void)
{
    CHECK_MPI(MPI_Op_free(&cu_matmul_op));
    CHECK_MPI(MPI_Op_free(&cu_counting_op));
    CHECK_MPI(MPI_Type_free(&cu_mat_type));
    CHECK(cu_matmul_op == MPI_OP_NULL, "MPI_Op_free did not set the handle to MPI_OP_NULL");
}

/* The (type, operation) pairs the reduction tests run: every operation on the kinds MPI
 * allows it for, not every combination. */
typedef struct {
    int kind, op;
} cu_red;
static const cu_red cu_reds[] = {
    {K_INT, O_SUM}, {K_DOUBLE, O_SUM}, {K_MAT, O_MATMUL}, {K_2INT, O_MINLOC},
    {K_COUNTING, O_COUNTING}, {K_INT, O_PROD}, {K_INT, O_MAX}, {K_INT, O_MIN}, {K_INT, O_LAND},
    {K_INT, O_LOR}, {K_INT, O_LXOR}, {K_INT, O_BAND}, {K_INT, O_BOR}, {K_INT, O_BXOR},
    {K_UNSIGNED, O_SUM}, {K_UNSIGNED, O_MAX}, {K_UNSIGNED, O_BAND}, {K_UNSIGNED, O_BOR},
    {K_UNSIGNED, O_BXOR}, {K_SCHAR, O_SUM}, {K_SCHAR, O_MIN}, {K_UCHAR, O_MAX},
    {K_UCHAR, O_BXOR}, {K_SHORT, O_SUM}, {K_SHORT, O_PROD}, {K_SHORT, O_MIN}, {K_LONG, O_SUM},
    {K_LONG, O_MAX}, {K_ULONG, O_BOR}, {K_LLONG, O_SUM}, {K_LLONG, O_PROD}, {K_LLONG, O_MAX},
    {K_LLONG, O_MIN}, {K_LLONG, O_BAND}, {K_FLOAT, O_SUM}, {K_FLOAT, O_PROD}, {K_FLOAT, O_MAX},
    {K_FLOAT, O_MIN}, {K_DOUBLE, O_PROD}, {K_DOUBLE, O_MAX}, {K_DOUBLE, O_MIN},
    {K_CFLOAT, O_SUM}, {K_CFLOAT, O_PROD}, {K_DOUBLE_INT, O_MINLOC}, {K_DOUBLE_INT, O_MAXLOC},
    {K_2INT, O_MAXLOC}};
#define CU_NREDS ((int)(sizeof cu_reds / sizeof cu_reds[0]))
/* The first CU_NREDS_LARGE pairs also run at the large sizes: a predefined integer and real
 * sum, the non-commutative user op, a pair type and the commutative user op. */
#define CU_NREDS_LARGE 5

/* rank r's contribution, count elements starting at global index first */
static inline void cu_gen_buf(cu_red rc, void *buf, int r, size_t first, size_t count, long call)
{
    for (size_t i = 0; i < count; ++i)
        cu_put(rc.kind, buf, i, cu_gen(rc.kind, rc.op, r, first + i, call));
}

/* Fold of the contributions of ranks[0..n) (in that order) for global element idx. */
static inline TU_HOT cu_val cu_fold(cu_red rc, const int *ranks, int n, size_t idx, long call)
{
    cu_val acc = cu_gen(rc.kind, rc.op, ranks[0], idx, call);
    for (int j = 1; j < n; ++j)
        acc = cu_combine(rc.kind, rc.op, acc, cu_gen(rc.kind, rc.op, ranks[j], idx, call));
    return acc;
}

/* Checks count elements of buf against the fold of ranks[0..n) for global indices first.. */
static inline void cu_check_fold_at(const char *file, int line, cu_red rc, const void *buf,
                                    const int *ranks, int n, size_t first, size_t count,
                                    long call, const char *what)
{
    for (size_t i = 0; i < count; ++i) {
        cu_val got = cu_get(rc.kind, buf, i), want = cu_fold(rc, ranks, n, first + i, call);
        if (!cu_equal(rc.kind, got, want)) {
            char g[128], w[128];
            cu_format(rc.kind, got, g, sizeof g);
            cu_format(rc.kind, want, w, sizeof w);
            tu_fail(file, line, what, "%s on %s: element %zu of %zu is %s, expected %s",
                    cu_op_name[rc.op], cu_kind_name[rc.kind], i, count, g, w);
        }
    }
}
#define CU_CHECK_FOLD(rc, buf, ranks, n, first, count, call, what)                                \
    cu_check_fold_at(__FILE__, __LINE__, (rc), (buf), (ranks), (n), (first), (count), (call),     \
                     (what))

#endif
