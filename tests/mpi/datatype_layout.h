/* Shared by the subarray, darray, external32, MPI-1 and type-attribute tests: CHECK_ERR (a
 * failing call's class and that its message names the argument) and layout comparisons of a
 * type against a reference type and against a list of element indices (the tests' own
 * sequential model of which elements a layout selects, in type-map order). */
#ifndef PLEXUS_TESTS_MPI_DATATYPE_LAYOUT_H
#define PLEXUS_TESTS_MPI_DATATYPE_LAYOUT_H

#include "test_util.h"

static int dl_checks;

/* The call failed with class `want` and (under Plexus: other implementations word their
 * messages their own way) its error string contains `needle`. */
#ifdef PLEXUS_MPI
#define DL_NAMES_ARGUMENT 1
#else
#define DL_NAMES_ARGUMENT 0
#endif
#define CHECK_ERR(call, want, needle)                                                             \
    do {                                                                                          \
        int dl_rc_ = (call);                                                                      \
        CHECK_CLASS(dl_rc_, want);                                                                \
        char dl_text_[MPI_MAX_ERROR_STRING];                                                      \
        int dl_len_ = 0;                                                                          \
        MPI_Error_string(dl_rc_, dl_text_, &dl_len_);                                             \
        CHECK(!DL_NAMES_ARGUMENT || strstr(dl_text_, (needle)) != NULL,                           \
              "%s: the message \"%s\" does not name %s", #call, dl_text_, (needle));              \
        ++dl_checks;                                                                              \
    } while (0)

static inline MPI_Aint dl_extent(MPI_Datatype t)
{
    MPI_Aint lb, extent;
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    return extent;
}

/* count items of t and of ref, packed from the same bytes (span bytes per item, a pattern),
 * give the same packed bytes; sizes, bounds and true bounds agree. */
static inline void dl_same_layout(MPI_Datatype t, MPI_Datatype ref, int count, const char *what)
{
    MPI_Aint lb, ext, rlb, rext, tlb, text, rtlb, rtext;
    int size, rsize;
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
    CHECK_MPI(MPI_Type_get_extent(ref, &rlb, &rext));
    CHECK_MPI(MPI_Type_get_true_extent(t, &tlb, &text));
    CHECK_MPI(MPI_Type_get_true_extent(ref, &rtlb, &rtext));
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK_MPI(MPI_Type_size(ref, &rsize));
    CHECK(lb == rlb && ext == rext, "%s: lb/extent %td/%td, the reference's %td/%td", what, lb, ext,
          rlb, rext);
    CHECK(size == rsize && (size == 0 || (tlb == rtlb && text == rtext)),
          "%s: size %d true lb/extent %td/%td, the reference's %d %td/%td", what, size, tlb, text,
          rsize, rtlb, rtext);
    ++dl_checks;
    if (size == 0) /* nothing to pack; true bounds of empty types differ between implementations */
        return;
    /* The data lies in [true_lb, true_lb + true_extent] of each item, items ext apart. */
    MPI_Aint step = ext < 0 ? -ext : ext;
    MPI_Aint below = (tlb < 0 ? -tlb : 0) + (ext < 0 ? (MPI_Aint)(count - 1) * step : 0);
    size_t span = (size_t)(below + (tlb > 0 ? tlb : 0) + text + (MPI_Aint)(count - 1) * step) + 64;
    unsigned char *src = tu_malloc(span);
    tu_fill(src, span, 0x5eed + (uint64_t)count);
    int bytes = size * count;
    unsigned char *a = tu_malloc((size_t)bytes + 1), *b = tu_malloc((size_t)bytes + 1);
    int pa = 0, pb = 0;
    CHECK_MPI(MPI_Pack(src + below, count, t, a, bytes, &pa, MPI_COMM_SELF));
    CHECK_MPI(MPI_Pack(src + below, count, ref, b, bytes, &pb, MPI_COMM_SELF));
    CHECK(pa == bytes && pb == bytes, "%s: packed %d and %d bytes, expected %d", what, pa, pb, bytes);
    CHECK(memcmp(a, b, (size_t)bytes) == 0, "%s: packed bytes differ from the reference's", what);
    free(src);
    free(a);
    free(b);
}

/* One item of t over an int array of `total` elements (value = index) packs exactly the
 * elements model[0..n) in that order, and unpacking into a zeroed array writes those and no
 * other. */
static inline void dl_selects(MPI_Datatype t, int total, const int *model, int n, const char *what)
{
    int *src = tu_malloc((size_t)total * sizeof(int)), *dst = tu_malloc((size_t)total * sizeof(int));
    int *packed = tu_malloc((size_t)(n + 1) * sizeof(int));
    for (int i = 0; i < total; ++i)
        src[i] = i;
    int size = 0, pos = 0;
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK(size == n * (int)sizeof(int), "%s: size %d, the model has %d ints", what, size, n);
    CHECK_MPI(MPI_Pack(src, 1, t, packed, size, &pos, MPI_COMM_SELF));
    for (int i = 0; i < n; ++i)
        CHECK(packed[i] == model[i], "%s: packed element %d is array[%d], the model says array[%d]",
              what, i, packed[i], model[i]);
    memset(dst, 0xff, (size_t)total * sizeof(int));
    pos = 0;
    CHECK_MPI(MPI_Unpack(packed, size, &pos, dst, 1, t, MPI_COMM_SELF));
    for (int i = 0, k = 0; i < total; ++i) {
        int selected = k < n && model[k] == i;
        CHECK(dst[i] == (selected ? i : -1), "%s: array[%d] is %d after unpack, expected %d", what,
              i, dst[i], selected ? i : -1);
        k += selected;
    }
    free(src);
    free(dst);
    free(packed);
    ++dl_checks;
}

/* The envelope says `combiner` with ni integers, no addresses, one type (oldtype); the
 * integers are `ints`. */
static inline void dl_contents(MPI_Datatype t, int combiner, const int *ints, int ni,
                               MPI_Datatype oldtype, const char *what)
{
    int gi, ga, gt, gc;
    CHECK_MPI(MPI_Type_get_envelope(t, &gi, &ga, &gt, &gc));
    CHECK(gc == combiner && gi == ni && ga == 0 && gt == 1,
          "%s: envelope combiner %d ni %d na %d nt %d, expected %d %d 0 1", what, gc, gi, ga, gt,
          combiner, ni);
    int got[64];
    MPI_Aint none[1];
    MPI_Datatype types[1];
    CHECK(ni <= 64, "%s: too many integers for the test", what);
    CHECK_MPI(MPI_Type_get_contents(t, ni, 0, 1, got, none, types));
    for (int i = 0; i < ni; ++i)
        CHECK(got[i] == ints[i], "%s: contents integer %d is %d, expected %d", what, i, got[i],
              ints[i]);
    CHECK(types[0] == oldtype, "%s: contents type is not oldtype", what);
    int ci, ca, ct, cc;
    CHECK_MPI(MPI_Type_get_envelope(types[0], &ci, &ca, &ct, &cc));
    if (cc != MPI_COMBINER_NAMED)
        CHECK_MPI(MPI_Type_free(&types[0]));
    ++dl_checks;
}

/* A fixed-seed generator, the same in every run. */
static uint64_t dl_rng = 0x9e3779b97f4a7c15ULL;
static inline int dl_rand(int n)
{
    dl_rng ^= dl_rng >> 12;
    dl_rng ^= dl_rng << 25;
    dl_rng ^= dl_rng >> 27;
    return (int)((dl_rng * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

#endif
