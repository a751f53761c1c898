/* MPI_Type_create_darray (MPI-2.2 4.1.4), 1-4 ranks. Creating a darray needs no communication,
 * so every process checks every rank's type of each distribution (grids of 1-6 processes):
 * against the test's own sequential model (an element belongs to the process whose grid
 * coordinates own its index in every dimension: block i / b, cyclic (i / c) % p, none 0;
 * elements in memory order), against an indexed-block type of the model's elements, byte by
 * byte; that the processes' parts cover the array exactly once; bounds (lb 0, extent the whole
 * array); a hand-written case; the envelope and contents. Then with the job's ranks: every rank
 * sends its part of a global array to rank 0, which receives each into that rank's darray
 * type and so rebuilds the array. Every misuse's class and the argument its message names. */
#include "datatype_layout.h"

typedef struct {
    int nd;
    int gsizes[3], distribs[3], dargs[3], psizes[3];
    int order;
} dist;

static int block_of(int gsize, int darg, int psize)
{
    return darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + psize - 1) / psize : darg;
}

/* Which grid coordinate owns index g of dimension d. */
static int owner(const dist *s, int d, int g)
{
    switch (s->distribs[d]) {
    case MPI_DISTRIBUTE_BLOCK:
        return g / block_of(s->gsizes[d], s->dargs[d], s->psizes[d]);
    case MPI_DISTRIBUTE_CYCLIC: {
        int c = s->dargs[d] == MPI_DISTRIBUTE_DFLT_DARG ? 1 : s->dargs[d];
        return (g / c) % s->psizes[d];
    }
    default:
        return 0;
    }
}

/* The model: rank's elements (linear indices, memory order). The grid is row-major. */
static int model_darray(const dist *s, int rank, int *out, int *total)
{
    int coords[3];
    for (int d = s->nd - 1, r = rank; d >= 0; --d) {
        coords[d] = r % s->psizes[d];
        r /= s->psizes[d];
    }
    *total = 1;
    for (int d = 0; d < s->nd; ++d)
        *total *= s->gsizes[d];
    int n = 0;
    for (int lin = 0; lin < *total; ++lin) {
        int rest = lin, mine = 1;
        for (int k = s->nd - 1; k >= 0; --k) {
            int d = s->order == MPI_ORDER_C ? k : s->nd - 1 - k;
            mine = mine && owner(s, d, rest % s->gsizes[d]) == coords[d];
            rest /= s->gsizes[d];
        }
        if (mine)
            out[n++] = lin;
    }
    return n;
}

static int grid_size(const dist *s)
{
    int p = 1;
    for (int d = 0; d < s->nd; ++d)
        p *= s->psizes[d];
    return p;
}

static MPI_Datatype darray(const dist *s, int rank, MPI_Datatype old)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_create_darray(grid_size(s), rank, s->nd, s->gsizes, s->distribs, s->dargs,
                                     s->psizes, s->order, old, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

/* Every rank of the distribution: model, reference type, cover; contents of rank 0's. */
static void check_distribution(const dist *s, int which)
{
    int model[2048], total = 0, size = grid_size(s);
    int *owners = tu_malloc(4096 * sizeof(int));
    for (int i = 0; i < 4096; ++i)
        owners[i] = 0;
    for (int r = 0; r < size; ++r) {
        char what[96];
        snprintf(what, sizeof what, "distribution %d, rank %d of %d", which, r, size);
        int n = model_darray(s, r, model, &total);
        for (int i = 0; i < n; ++i)
            ++owners[model[i]];
        MPI_Datatype t = darray(s, r, MPI_INT);
        dl_selects(t, total, model, n, what);
        MPI_Datatype ib, ref;
        CHECK_MPI(MPI_Type_create_indexed_block(n, 1, model, MPI_INT, &ib));
        CHECK_MPI(MPI_Type_create_resized(ib, 0, (MPI_Aint)total * sizeof(int), &ref));
        CHECK_MPI(MPI_Type_commit(&ref));
        dl_same_layout(t, ref, 2, what);
        MPI_Type_free(&ib);
        MPI_Type_free(&ref);
        MPI_Type_free(&t);
        t = darray(s, r, MPI_SHORT_INT); /* an oldtype with a hole */
        CHECK_MPI(MPI_Type_create_indexed_block(n, 1, model, MPI_SHORT_INT, &ib));
        MPI_Aint lb, ext;
        CHECK_MPI(MPI_Type_get_extent(MPI_SHORT_INT, &lb, &ext));
        CHECK_MPI(MPI_Type_create_resized(ib, 0, (MPI_Aint)total * ext, &ref));
        CHECK_MPI(MPI_Type_commit(&ref));
        dl_same_layout(t, ref, 2, what);
        MPI_Type_free(&ib);
        MPI_Type_free(&ref);
        MPI_Type_free(&t);
    }
    for (int i = 0; i < total; ++i)
        CHECK(owners[i] == 1, "distribution %d: element %d belongs to %d processes", which, i, owners[i]);
    MPI_Datatype t = darray(s, size - 1, MPI_INT);
    int ints[4 + 4 * 3], k = 0;
    ints[k++] = size;
    ints[k++] = size - 1;
    ints[k++] = s->nd;
    for (int d = 0; d < s->nd; ++d)
        ints[k++] = s->gsizes[d];
    for (int d = 0; d < s->nd; ++d)
        ints[k++] = s->distribs[d];
    for (int d = 0; d < s->nd; ++d)
        ints[k++] = s->dargs[d];
    for (int d = 0; d < s->nd; ++d)
        ints[k++] = s->psizes[d];
    ints[k++] = s->order;
    dl_contents(t, MPI_COMBINER_DARRAY, ints, k, MPI_INT, "darray contents");
    MPI_Type_free(&t);
    free(owners);
}

#define B MPI_DISTRIBUTE_BLOCK
#define CY MPI_DISTRIBUTE_CYCLIC
#define NO MPI_DISTRIBUTE_NONE
#define DF MPI_DISTRIBUTE_DFLT_DARG

static void distributions(void)
{
    const dist cases[] = {
        {1, {10}, {B}, {DF}, {3}, MPI_ORDER_C},
        {1, {10}, {B}, {DF}, {4}, MPI_ORDER_C},      /* the last process gets 1 */
        {1, {5}, {B}, {2}, {4}, MPI_ORDER_C},        /* the last process gets none */
        {1, {10}, {CY}, {DF}, {4}, MPI_ORDER_C},
        {1, {11}, {CY}, {3}, {2}, MPI_ORDER_FORTRAN}, /* a short last block */
        {2, {7, 9}, {B, CY}, {DF, 2}, {2, 3}, MPI_ORDER_C},
        {2, {7, 9}, {B, CY}, {DF, 2}, {2, 3}, MPI_ORDER_FORTRAN},
        {2, {8, 6}, {CY, CY}, {3, 1}, {2, 2}, MPI_ORDER_C},
        {2, {6, 5}, {NO, B}, {DF, 3}, {1, 2}, MPI_ORDER_FORTRAN},
        {3, {4, 5, 6}, {CY, NO, B}, {2, DF, 4}, {2, 1, 2}, MPI_ORDER_C},
        {3, {4, 5, 6}, {CY, NO, B}, {2, DF, 4}, {2, 1, 2}, MPI_ORDER_FORTRAN},
        {3, {3, 4, 5}, {B, B, B}, {DF, DF, DF}, {1, 2, 3}, MPI_ORDER_C},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        check_distribution(&cases[i], (int)i);
}

/* 4 x 6, C order, (block, cyclic 2) on a 2 x 2 grid: rank 3 = (1, 1) has rows 2..3 and the
 * column block 1 (columns 2, 3): elements 14, 15, 20, 21. */
static void hand_written(void)
{
    dist s = {2, {4, 6}, {B, CY}, {DF, 2}, {2, 2}, MPI_ORDER_C};
    MPI_Datatype t = darray(&s, 3, MPI_INT), h, ref;
    int bl[] = {2, 2};
    MPI_Aint disp[] = {14 * sizeof(int), 20 * sizeof(int)};
    CHECK_MPI(MPI_Type_create_hindexed(2, bl, disp, MPI_INT, &h));
    CHECK_MPI(MPI_Type_create_resized(h, 0, 24 * sizeof(int), &ref));
    CHECK_MPI(MPI_Type_commit(&ref));
    dl_same_layout(t, ref, 1, "hand-written 4x6 (block, cyclic 2) rank 3");
    int model[] = {14, 15, 20, 21};
    dl_selects(t, 24, model, 4, "hand-written 4x6 rank 3");
    MPI_Type_free(&h);
    MPI_Type_free(&ref);
    MPI_Type_free(&t);
}

/* The job's ranks: a 2-D 9 x 7 array of ints, (cyclic 2, block) over the ranks as p x 1. */
static void gather_by_darray(void)
{
    enum { R = 9, C = 7, N = R * C };
    dist s = {2, {R, C}, {CY, B}, {2, DF}, {tu_size, 1}, MPI_ORDER_C};
    int g[N], h[N];
    for (int i = 0; i < N; ++i) {
        g[i] = 100 + i;
        h[i] = -1;
    }
    MPI_Datatype mine = darray(&s, tu_rank, MPI_INT);
    MPI_Request req;
    CHECK_MPI(MPI_Isend(g, 1, mine, 0, 5, MPI_COMM_WORLD, &req));
    if (tu_rank == 0) {
        for (int r = 0; r < tu_size; ++r) {
            MPI_Datatype theirs = darray(&s, r, MPI_INT);
            CHECK_MPI(MPI_Recv(h, 1, theirs, r, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MPI_Type_free(&theirs);
        }
        for (int i = 0; i < N; ++i)
            CHECK(h[i] == 100 + i, "rebuilt element %d is %d, expected %d", i, h[i], 100 + i);
    }
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_Type_free(&mine);
    ++dl_checks;
}

static void misuse(void)
{
    int g[] = {10, 8}, d[] = {B, B}, a[] = {DF, DF}, p[] = {2, 2};
    MPI_Datatype t;
    CHECK_ERR(MPI_Type_create_darray(3, 0, 2, g, d, a, p, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_psizes");
    int small[] = {4, DF}; /* 2 processes of 4 cover 8 of 10 */
    CHECK_ERR(MPI_Type_create_darray(4, 0, 2, g, d, small, p, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_dargs[0]");
    int none[] = {NO, B};
    CHECK_ERR(MPI_Type_create_darray(4, 0, 2, g, none, a, p, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_psizes[0]");
    int bad_d[] = {B, 77};
    CHECK_ERR(MPI_Type_create_darray(4, 0, 2, g, bad_d, a, p, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_distribs[1]");
    int zero_darg[] = {DF, 0};
    CHECK_ERR(MPI_Type_create_darray(4, 0, 2, g, d, zero_darg, p, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_dargs[1]");
    CHECK_ERR(MPI_Type_create_darray(4, 4, 2, g, d, a, p, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG, "rank");
    CHECK_ERR(MPI_Type_create_darray(0, 0, 2, g, d, a, p, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG, "size");
    int zero_g[] = {10, 0};
    CHECK_ERR(MPI_Type_create_darray(4, 0, 2, zero_g, d, a, p, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_gsizes[1]");
    CHECK_ERR(MPI_Type_create_darray(4, 0, 2, g, d, a, p, 0, MPI_INT, &t), MPI_ERR_ARG, "order");
    CHECK_ERR(MPI_Type_create_darray(4, 0, 0, g, d, a, p, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG, "ndims");
    CHECK_ERR(MPI_Type_create_darray(4, 0, 2, g, d, a, NULL, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_psizes");
    CHECK_ERR(MPI_Type_create_darray(4, 0, 2, g, d, a, p, MPI_ORDER_C, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE,
              "oldtype");
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(1, 4);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    hand_written();
    distributions();
    gather_by_darray();
    misuse();
    return tu_finish("%d darray checks: 12 distributions (block, cyclic, none; default and "
                     "explicit dargs; C and Fortran order; 1-3 dimensions) for every process "
                     "against a sequential model and indexed-block types byte by byte, exact "
                     "cover, contents; an array rebuilt on rank 0 from every rank's darray; 12 "
                     "misuses",
                     dl_checks);
}
