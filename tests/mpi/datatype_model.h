/* Shared by the derived-datatype tests (tests/mpi/README.md, "Derived datatypes"): an
 * independent model of a type map, built next to each MPI type by the test itself, and buffers
 * laid out by it, so that every byte an MPI call moves can be checked against what MPI-2.2
 * (section 4.1) says the type describes.
 *
 * A model is the type map of one item as byte runs in type-map order (a basic element is one
 * run), plus lb/ub as MPI defines them (ub includes the alignment padding "epsilon" of a struct;
 * create_resized sets both explicitly, and such explicit bounds are sticky in every type built
 * on top). The packed stream of `count` items is run after run, item i shifted by i * extent.
 * Header-only (static inline), like test_util.h, so each test stays one .c file. */
#ifndef PLEXUS_TESTS_MPI_DATATYPE_MODEL_H
#define PLEXUS_TESTS_MPI_DATATYPE_MODEL_H

#include "test_util.h"

typedef struct {
    MPI_Aint at;    /* from the item's origin (its displacement 0) */
    MPI_Aint bytes;
} dm_run;

typedef struct {
    dm_run *run;
    size_t nrun, cap;
    MPI_Aint lb, ub;    /* MPI_Type_get_extent: lb and lb + extent */
    MPI_Aint size;      /* bytes of data (MPI_Type_size) */
    MPI_Aint elements;  /* basic elements (MPI_Get_elements of one item) */
    int align;          /* strictest alignment of the basic types inside (for epsilon) */
    int explicit_lb, explicit_ub; /* bounds set by create_resized somewhere below */
} dm_model;

static inline MPI_Aint dm_extent(const dm_model *m) { return m->ub - m->lb; }

static inline void dm_push(dm_model *m, MPI_Aint off, MPI_Aint len, MPI_Aint elements)
{
    if (len == 0)
        return;
    /* Adjacent runs merge (fewer to walk); elements are counted separately. */
    if (m->nrun > 0 && m->run[m->nrun - 1].at + m->run[m->nrun - 1].bytes == off) {
        m->run[m->nrun - 1].bytes += len;
    } else {
        if (m->nrun == m->cap) {
            m->cap = m->cap ? 2 * m->cap : 16;
            m->run = (dm_run *)realloc(m->run, m->cap * sizeof *m->run);
            CHECK(m->run != NULL, "out of memory for a model of %zu runs", m->cap);
        }
        m->run[m->nrun].at = off;
        m->run[m->nrun].bytes = len;
        ++m->nrun;
    }
    m->size += len;
    m->elements += elements;
}

static inline void dm_free(dm_model *m)
{
    free(m->run);
    memset(m, 0, sizeof *m);
}

/* A basic type of `size` bytes (alignment: its size, as on x86-64 and aarch64 Linux). */
static inline dm_model dm_basic(int size)
{
    dm_model m;
    memset(&m, 0, sizeof m);
    dm_push(&m, 0, size, 1);
    m.lb = 0;
    m.ub = size;
    m.align = size > 8 ? 8 : size;
    return m;
}

/* Bytes [0, n) as MPI_BYTE elements: what a contiguous receive of n bytes describes. */
static inline dm_model dm_bytes(MPI_Aint n)
{
    dm_model m;
    memset(&m, 0, sizeof m);
    dm_push(&m, 0, n, n);
    m.lb = 0;
    m.ub = n;
    m.align = 1;
    return m;
}

static inline dm_model dm_copy(const dm_model *old)
{
    dm_model m = *old;
    m.run = (dm_run *)tu_malloc((old->nrun ? old->nrun : 1) * sizeof *m.run);
    memcpy(m.run, old->run, old->nrun * sizeof *m.run);
    m.cap = old->nrun ? old->nrun : 1;
    return m;
}

/* Appends one copy of old at displacement disp to m, and widens m's bounds (MPI-2.2 4.1.7:
 * explicit bounds below win over the data's bounds). `first` says m has no bounds yet. */
static inline void dm_place(dm_model *m, const dm_model *old, MPI_Aint disp, int *first)
{
    for (size_t r = 0; r < old->nrun; ++r)
        dm_push(m, disp + old->run[r].at, old->run[r].bytes, 0);
    m->elements += old->elements;
    MPI_Aint lb = disp + old->lb, ub = disp + old->ub;
    if (*first) {
        m->lb = lb;
        m->ub = ub;
        m->explicit_lb = old->explicit_lb;
        m->explicit_ub = old->explicit_ub;
        *first = 0;
    } else {
        /* An explicit bound beats any computed one; between two of a kind, the extreme wins. */
        if (old->explicit_lb && !m->explicit_lb)
            m->lb = lb;
        else if (old->explicit_lb == m->explicit_lb && lb < m->lb)
            m->lb = lb;
        if (old->explicit_ub && !m->explicit_ub)
            m->ub = ub;
        else if (old->explicit_ub == m->explicit_ub && ub > m->ub)
            m->ub = ub;
        m->explicit_lb |= old->explicit_lb;
        m->explicit_ub |= old->explicit_ub;
    }
    if (old->align > m->align)
        m->align = old->align;
}

/* The general constructor: block i is blocklen[i] copies of types[i] at byte displacement
 * disp[i] (consecutive copies one extent apart). Every other constructor is a special case;
 * `pad` applies a struct's alignment epsilon to the upper bound. */
static inline dm_model dm_struct_like(int count, const int *blocklen, const MPI_Aint *disp,
                                      const dm_model *const *types, int pad)
{
    dm_model m;
    int first = 1;
    memset(&m, 0, sizeof m);
    for (int i = 0; i < count; ++i)
        for (int j = 0; j < blocklen[i]; ++j)
            dm_place(&m, types[i], disp[i] + (MPI_Aint)j * dm_extent(types[i]), &first);
    if (pad && !m.explicit_ub && m.align > 1) {
        MPI_Aint ext = m.ub - m.lb, rem = ext % m.align;
        if (rem)
            m.ub += m.align - rem;
    }
    return m;
}

static inline dm_model dm_hindexed(int count, const int *blocklen, const MPI_Aint *disp,
                                   const dm_model *old)
{
    const dm_model **types = (const dm_model **)tu_malloc((size_t)(count ? count : 1) * sizeof *types);
    for (int i = 0; i < count; ++i)
        types[i] = old;
    dm_model m = dm_struct_like(count, blocklen, disp, types, 0);
    free(types);
    return m;
}

static inline dm_model dm_indexed(int count, const int *blocklen, const int *disp,
                                  const dm_model *old)
{
    MPI_Aint *d = (MPI_Aint *)tu_malloc((size_t)(count ? count : 1) * sizeof *d);
    for (int i = 0; i < count; ++i)
        d[i] = (MPI_Aint)disp[i] * dm_extent(old);
    dm_model m = dm_hindexed(count, blocklen, d, old);
    free(d);
    return m;
}

static inline dm_model dm_hvector(int count, int blocklen, MPI_Aint stride, const dm_model *old)
{
    int *bl = (int *)tu_malloc((size_t)(count ? count : 1) * sizeof *bl);
    MPI_Aint *d = (MPI_Aint *)tu_malloc((size_t)(count ? count : 1) * sizeof *d);
    for (int i = 0; i < count; ++i) {
        bl[i] = blocklen;
        d[i] = (MPI_Aint)i * stride;
    }
    dm_model m = dm_hindexed(count, bl, d, old);
    free(bl);
    free(d);
    return m;
}

static inline dm_model dm_vector(int count, int blocklen, int stride, const dm_model *old)
{
    return dm_hvector(count, blocklen, (MPI_Aint)stride * dm_extent(old), old);
}

static inline dm_model dm_contiguous(int count, const dm_model *old)
{
    return dm_vector(1, count, count, old);
}

static inline dm_model dm_indexed_block(int count, int blocklen, const int *disp,
                                        const dm_model *old)
{
    int *bl = (int *)tu_malloc((size_t)(count ? count : 1) * sizeof *bl);
    for (int i = 0; i < count; ++i)
        bl[i] = blocklen;
    dm_model m = dm_indexed(count, bl, disp, old);
    free(bl);
    return m;
}

static inline dm_model dm_resized(const dm_model *old, MPI_Aint lb, MPI_Aint extent)
{
    dm_model m = dm_copy(old);
    m.lb = lb;
    m.ub = lb + extent;
    m.explicit_lb = m.explicit_ub = 1;
    return m;
}

/* ------------------------------------------------------------------ buffers laid out by a model */

/* Memory for `count` items of a model: from the lowest byte any item touches to the highest,
 * with TU_GUARD_SIZE guard bytes on either side. base is where item 0's origin lies (it may be
 * outside [mem, mem + total) for types whose data lies away from displacement 0). */
typedef struct {
    unsigned char *mem;
    unsigned char *base;
    MPI_Aint lo, hi; /* data span relative to base */
    size_t total;    /* bytes at mem, guards included */
} dm_buf;

static inline void dm_span(const dm_model *m, int count, MPI_Aint *lo, MPI_Aint *hi)
{
    *lo = 0;
    *hi = 0;
    int any = 0;
    for (int i = 0; i < count; ++i)
        for (size_t r = 0; r < m->nrun; ++r) {
            MPI_Aint a = (MPI_Aint)i * dm_extent(m) + m->run[r].at, b = a + m->run[r].bytes;
            if (!any || a < *lo)
                *lo = a;
            if (!any || b > *hi)
                *hi = b;
            any = 1;
        }
}

/* A buffer for count items, every byte set to TU_GUARD_BYTE (holes and guards included). */
static inline dm_buf dm_buf_alloc(const dm_model *m, int count)
{
    dm_buf b;
    dm_span(m, count, &b.lo, &b.hi);
    b.total = (size_t)(b.hi - b.lo) + 2 * TU_GUARD_SIZE;
    b.mem = (unsigned char *)tu_malloc(b.total);
    memset(b.mem, TU_GUARD_BYTE, b.total);
    b.base = b.mem + TU_GUARD_SIZE - b.lo;
    return b;
}

static inline void dm_buf_free(dm_buf *b)
{
    free(b->mem);
    b->mem = b->base = NULL;
}

/* The whole span (holes too) set to a pattern: what a sender sends from. */
static inline void dm_buf_fill(dm_buf *b, uint64_t seed)
{
    tu_fill(b->mem + TU_GUARD_SIZE, (size_t)(b->hi - b->lo), seed);
}

/* Calls f(offset from base, length, item, run) for every run of count items, in type-map
 * order; the packed stream is these runs one after the other. */
#define DM_FOR_EACH_RUN(m, count, item, r, off, len)                                              \
    for (int item = 0; item < (count); ++item)                                                    \
        for (size_t r = 0; r < (m)->nrun; ++r)                                                    \
            for (MPI_Aint off = (MPI_Aint)item * dm_extent(m) + (m)->run[r].at,                  \
                          len = (m)->run[r].bytes, dm_once_ = 1;                                 \
                 dm_once_; dm_once_ = 0)

/* The packed stream of count items laid out in b (n bytes, at most cap). */
static inline size_t dm_gather(const dm_model *m, int count, const dm_buf *b, unsigned char *out,
                               size_t cap)
{
    size_t n = 0;
    DM_FOR_EACH_RUN(m, count, item, r, off, len)
    {
        size_t take = (size_t)len < cap - n ? (size_t)len : cap - n;
        memcpy(out + n, b->base + off, take);
        n += take;
        if (n == cap)
            return n;
    }
    return n;
}

/* Writes the first n bytes of a packed stream into the type map of count items in b. */
static inline void dm_scatter(const dm_model *m, int count, dm_buf *b, const unsigned char *in,
                              size_t n)
{
    size_t done = 0;
    DM_FOR_EACH_RUN(m, count, item, r, off, len)
    {
        if (done == n)
            return;
        size_t take = (size_t)len < n - done ? (size_t)len : n - done;
        memcpy(b->base + off, in + done, take);
        done += take;
    }
}

/* Says where offset `off` (from base) lies: in which item and run of the type map, in a hole,
 * or in a guard. */
static inline void dm_describe(const dm_model *m, int count, const dm_buf *b, MPI_Aint off,
                               char *out, size_t cap)
{
    if (off < b->lo || off >= b->hi) {
        snprintf(out, cap, "a guard byte %s the buffer", off < b->lo ? "before" : "after");
        return;
    }
    size_t pos = 0;
    DM_FOR_EACH_RUN(m, count, item, r, roff, len)
    {
        if (off >= roff && off < roff + len) {
            snprintf(out, cap, "byte %ld of run %zu of item %d (packed byte %zu)",
                     (long)(off - roff), r, item, pos + (size_t)(off - roff));
            return;
        }
        pos += (size_t)len;
    }
    snprintf(out, cap, "a hole of the type map");
}

/* The received buffer equals the expected one byte for byte; a difference names where it is
 * (item and run of the type map, a hole, or a guard). */
static inline void dm_compare_at(const char *file, int line, const dm_model *m, int count,
                                 const dm_buf *got, const dm_buf *want, const char *what)
{
    if (memcmp(got->mem, want->mem, got->total) == 0)
        return;
    size_t i = 0, differ = 0;
    while (got->mem[i] == want->mem[i])
        ++i;
    for (size_t j = i; j < got->total; ++j)
        differ += got->mem[j] != want->mem[j];
    MPI_Aint off = (MPI_Aint)i - TU_GUARD_SIZE + got->lo;
    char where[160];
    dm_describe(m, count, got, off, where, sizeof where);
    tu_fail(file, line, what,
            "offset %ld (%s): got 0x%02x, expected 0x%02x (%zu bytes differ in the %zu-byte "
            "buffer)",
            (long)off, where, got->mem[i], want->mem[i], differ, got->total);
}

#define DM_COMPARE(m, count, got, want, what)                                                     \
    dm_compare_at(__FILE__, __LINE__, (m), (count), (got), (want), (what))

/* A committed MPI type's size, extent and true extent agree with its model. */
static inline void dm_check_bounds_at(const char *file, int line, MPI_Datatype t,
                                      const dm_model *m, const char *what)
{
    int size = -1;
    MPI_Aint lb = -1, ext = -1, tlb = -1, text = -1, lo, hi;
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
    CHECK_MPI(MPI_Type_get_true_extent(t, &tlb, &text));
    dm_span(m, 1, &lo, &hi);
    if (size != m->size || lb != m->lb || ext != dm_extent(m) || tlb != lo || text != hi - lo)
        tu_fail(file, line, what,
                "size %d, lb %ld, extent %ld, true lb %ld, true extent %ld; expected %ld, %ld, "
                "%ld, %ld, %ld",
                size, (long)lb, (long)ext, (long)tlb, (long)text, (long)m->size, (long)m->lb,
                (long)dm_extent(m), (long)lo, (long)(hi - lo));
}

#define DM_CHECK_BOUNDS(t, m, what) dm_check_bounds_at(__FILE__, __LINE__, (t), (m), (what))

#endif
