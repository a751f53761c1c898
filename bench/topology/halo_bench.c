/* A 2-D halo exchange on an MPI_Cart_create grid (bench/topology/README.md): the ranks form a
 * periodic grid of MPI_Dims_create(size, 2) with reorder 0 or 1 (--reorder), each holds an
 * E x E tile of doubles with a one-cell halo, and one step sends the four edges to the four
 * Cart_shift neighbours (rows contiguous, columns as an MPI_Type_vector) with Irecv/Isend and one
 * Waitall. For tile edges E = 16, 128 and 1024 doubles (faces of 128 B, 1 KiB, 8 KiB): a warm-up
 * and a trial that sets N (about 0.15 s of steps, 0.05 s with --quick), then R runs of N steps
 * between barriers (R = 7, 3 with --quick); a run's time is the slowest rank's (MPI_Reduce MAX),
 * the median run is reported. The halos are checked once per size before timing (each cell says
 * which rank and which cell it came from). Output, rank 0:
 *   GRID dims0 dims1 reorder moved   (moved: ranks whose grid rank differs from their rank)
 *   RESULT edge us_per_step
 * MPI-2.2 calls only, so it builds with Open MPI's and MPICH's mpicc as well.
 *
 * usage: halo_bench [--reorder 0|1] [--quick] [--runs R]
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_numbers.h"

static int world_rank;

static void die(const char *what)
{
    fprintf(stderr, "halo_bench: rank %d: %s\n", world_rank, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

#define MPI_OK(call)                                                                              \
    do {                                                                                          \
        if ((call) != MPI_SUCCESS)                                                                \
            die(#call " failed");                                                                 \
    } while (0)

struct halo {
    MPI_Comm grid;
    int edge, rank, up, down, left, right; /* up/down: dimension 0, left/right: dimension 1 */
    double *tile;                          /* (edge + 2)^2, row-major, halo included */
    MPI_Datatype column;
};

static double *at(struct halo *h, int row, int col) { return &h->tile[(size_t)row * (size_t)(h->edge + 2) + (size_t)col]; }

/* One step: the four faces out, the four halos in. */
static void exchange(struct halo *h)
{
    MPI_Request req[8];
    const int e = h->edge;
    MPI_OK(MPI_Irecv(at(h, 0, 1), e, MPI_DOUBLE, h->up, 0, h->grid, &req[0]));
    MPI_OK(MPI_Irecv(at(h, e + 1, 1), e, MPI_DOUBLE, h->down, 1, h->grid, &req[1]));
    MPI_OK(MPI_Irecv(at(h, 1, 0), 1, h->column, h->left, 2, h->grid, &req[2]));
    MPI_OK(MPI_Irecv(at(h, 1, e + 1), 1, h->column, h->right, 3, h->grid, &req[3]));
    MPI_OK(MPI_Isend(at(h, e, 1), e, MPI_DOUBLE, h->down, 0, h->grid, &req[4]));
    MPI_OK(MPI_Isend(at(h, 1, 1), e, MPI_DOUBLE, h->up, 1, h->grid, &req[5]));
    MPI_OK(MPI_Isend(at(h, 1, e), 1, h->column, h->right, 2, h->grid, &req[6]));
    MPI_OK(MPI_Isend(at(h, 1, 1), 1, h->column, h->left, 3, h->grid, &req[7]));
    MPI_OK(MPI_Waitall(8, req, MPI_STATUSES_IGNORE));
}

/* Cell (row, col) of rank r's interior holds r * 1e7 + row * 1e4 + col. */
static double value(int r, int row, int col) { return r * 1e7 + row * 1e4 + col; }

static void check(struct halo *h)
{
    const int e = h->edge;
    int i, row, col;
    for (row = 1; row <= e; ++row)
        for (col = 1; col <= e; ++col)
            *at(h, row, col) = value(h->rank, row, col);
    exchange(h);
    for (i = 1; i <= e; ++i) {
        if (*at(h, 0, i) != value(h->up, e, i) || *at(h, e + 1, i) != value(h->down, 1, i) ||
            *at(h, i, 0) != value(h->left, i, e) || *at(h, i, e + 1) != value(h->right, i, 1))
            die("a halo cell holds the wrong value");
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Steps per run: as many as take about `seconds` at the speed of a trial of 10 (the slowest
 * rank's; every rank takes the same number), at least 10. Oversubscribed ranks of some
 * implementations take milliseconds per step, others microseconds: a fixed count would make
 * the slow runs take minutes or the fast ones too short to time. */
static int calibrate(struct halo *h, double seconds)
{
    double start, mine, slowest;
    int s;
    for (s = 0; s < 10; ++s) /* warm-up */
        exchange(h);
    MPI_OK(MPI_Barrier(h->grid));
    start = MPI_Wtime();
    for (s = 0; s < 10; ++s)
        exchange(h);
    mine = (MPI_Wtime() - start) / 10;
    MPI_OK(MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, h->grid));
    s = slowest > 0 ? (int)(seconds / slowest) : 100000;
    return s < 10 ? 10 : s > 100000 ? 100000 : s;
}

/* The median over runs of the slowest rank's time per step. */
static double measure(struct halo *h, int runs, int steps)
{
    double *t = (double *)malloc(sizeof(double) * (size_t)runs), med;
    int r, s;
    if (!t)
        die("out of memory");
    for (r = 0; r < runs; ++r) {
        double start, mine, slowest;
        MPI_OK(MPI_Barrier(h->grid));
        start = MPI_Wtime();
        for (s = 0; s < steps; ++s)
            exchange(h);
        mine = MPI_Wtime() - start;
        MPI_OK(MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, h->grid));
        t[r] = slowest / steps;
    }
    qsort(t, (size_t)runs, sizeof(double), cmp_double);
    med = t[runs / 2];
    free(t);
    return med;
}

int main(int argc, char **argv)
{
    static const int edges[] = {16, 128, 1024};
    int reorder = 0, quick = 0, runs = 7, i, size, dims[2] = {0, 0}, periods[2] = {1, 1}, moved = 0, differ;
    struct halo h;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 1; i < argc; ++i) {
        size_t n;
        if (!strcmp(argv[i], "--reorder") && i + 1 < argc && cli_parse_count(argv[i + 1], 1, &n) == 0)
            reorder = (int)n, ++i;
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc && cli_parse_count(argv[i + 1], 1000, &n) == 0 && n > 0)
            runs = (int)n, ++i;
        else
            die("usage: halo_bench [--reorder 0|1] [--quick] [--runs R]");
    }
    if (quick)
        runs = 3;
    MPI_OK(MPI_Dims_create(size, 2, dims));
    MPI_OK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, reorder, &h.grid));
    MPI_OK(MPI_Comm_rank(h.grid, &h.rank));
    MPI_OK(MPI_Cart_shift(h.grid, 0, 1, &h.up, &h.down));
    MPI_OK(MPI_Cart_shift(h.grid, 1, 1, &h.left, &h.right));
    differ = h.rank != world_rank;
    MPI_OK(MPI_Reduce(&differ, &moved, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    if (world_rank == 0)
        printf("GRID %d %d %d %d\n", dims[0], dims[1], reorder, moved);
    for (i = 0; i < (int)(sizeof edges / sizeof edges[0]); ++i) {
        const int e = edges[i];
        double us;
        h.edge = e;
        h.tile = (double *)calloc((size_t)(e + 2) * (size_t)(e + 2), sizeof(double));
        if (!h.tile)
            die("out of memory");
        MPI_OK(MPI_Type_vector(e, 1, e + 2, MPI_DOUBLE, &h.column));
        MPI_OK(MPI_Type_commit(&h.column));
        check(&h);
        us = measure(&h, runs, calibrate(&h, quick ? 0.05 : 0.15)) * 1e6;
        if (h.rank == 0)
            printf("RESULT %d %.2f\n", e, us);
        fflush(stdout);
        MPI_OK(MPI_Type_free(&h.column));
        free(h.tile);
    }
    MPI_OK(MPI_Comm_free(&h.grid));
    MPI_Finalize();
    return 0;
}
