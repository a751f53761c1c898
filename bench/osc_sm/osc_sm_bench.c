/* One-sided latencies between two processes of one node over MPI_Alloc_mem windows, the case
 * osc_sm serves (components/osc_sm/README.md): 8-byte put, get and accumulate with fence, with
 * lock/unlock (exclusive) and with PSCW, a 64 KiB put with fence, and the paper's per-double
 * ghost-cell update (1000 puts of one double to the neighbour, then a fence). Each row is the
 * best of several batches, in microseconds per epoch (per iteration). Plain MPI-2.2: it builds
 * with Plexus's, Open MPI's and MPICH's mpicc alike. Rank 0 prints "name value" lines; the
 * last epoch's bytes are checked so that a fast wrong answer cannot pass for a result.
 *
 * With --allocate (MPI-3 implementations only) the window comes from MPI_Win_allocate instead:
 * the flavor Open MPI's osc sm serves (it declines MPI_Win_create windows).
 *
 * usage: osc_sm_bench [--seconds S] [--batches N] [--allocate] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG (64 * 1024)
#define GHOST 1000

static int rank, size, peer;
static MPI_Win win;
static double *mem; /* the window: BIG bytes + GHOST doubles */
static double src[BIG / sizeof(double)];
static double ghost_src[GHOST]; /* k at k: what the last ghost epoch must leave */

typedef void (*epoch_fn)(int i);

static void put_fence(int i) {
    src[0] = i;
    if (rank == 0) MPI_Put(src, 1, MPI_DOUBLE, peer, 0, 1, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
}
static void get_fence(int i) {
    (void)i;
    if (rank == 0) MPI_Get(src, 1, MPI_DOUBLE, peer, 0, 1, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
}
static void acc_fence(int i) {
    (void)i;
    src[0] = 1.0;
    if (rank == 0) MPI_Accumulate(src, 1, MPI_DOUBLE, peer, 0, 1, MPI_DOUBLE, MPI_SUM, win);
    MPI_Win_fence(0, win);
}
static void put_lock(int i) {
    src[0] = i;
    if (rank != 0) return;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, peer, 0, win);
    MPI_Put(src, 1, MPI_DOUBLE, peer, 0, 1, MPI_DOUBLE, win);
    MPI_Win_unlock(peer, win);
}
static void get_lock(int i) {
    (void)i;
    if (rank != 0) return;
    MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win);
    MPI_Get(src, 1, MPI_DOUBLE, peer, 0, 1, MPI_DOUBLE, win);
    MPI_Win_unlock(peer, win);
}
static void acc_lock(int i) {
    (void)i;
    src[0] = 1.0;
    if (rank != 0) return;
    MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win);
    MPI_Accumulate(src, 1, MPI_DOUBLE, peer, 0, 1, MPI_DOUBLE, MPI_SUM, win);
    MPI_Win_unlock(peer, win);
}
static MPI_Group peer_group;
static void put_pscw(int i) {
    src[0] = i;
    if (rank == 0) {
        MPI_Win_start(peer_group, 0, win);
        MPI_Put(src, 1, MPI_DOUBLE, peer, 0, 1, MPI_DOUBLE, win);
        MPI_Win_complete(win);
    } else {
        MPI_Win_post(peer_group, 0, win);
        MPI_Win_wait(win);
    }
}
static void put64k_fence(int i) {
    src[0] = i;
    if (rank == 0) MPI_Put(src, BIG, MPI_BYTE, peer, 0, BIG, MPI_BYTE, win);
    MPI_Win_fence(0, win);
}
static void ghost_double(int i) {
    (void)i;
    for (int k = 0; k < GHOST; ++k)
        MPI_Put(&ghost_src[k], 1, MPI_DOUBLE, peer, BIG + k * (int)sizeof(double), 1, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
}

struct bench {
    const char *name;
    epoch_fn fn;
    int passive; /* rank 1 only waits at the closing barrier */
    int fenced;  /* its epochs end (and open the next) by fence: one fence opens them first */
};

static const struct bench benches[] = {
    {"put_8B_fence", put_fence, 0, 1},       {"get_8B_fence", get_fence, 0, 1},
    {"acc_8B_fence", acc_fence, 0, 1},       {"put_8B_lock", put_lock, 1, 0},
    {"get_8B_lock", get_lock, 1, 0},         {"acc_8B_lock", acc_lock, 1, 0},
    {"put_8B_pscw", put_pscw, 0, 0},         {"put_64KiB_fence", put64k_fence, 0, 1},
    {"ghost_1000_doubles_fence", ghost_double, 0, 1},
};

/* Iterations of fn that take about `seconds` (decided by rank 0, shared). */
static int calibrate(const struct bench *b, double seconds) {
    int n = 1;
    for (;;) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        if (!b->passive || rank == 0)
            for (int i = 0; i < n; ++i) b->fn(i);
        double dt = MPI_Wtime() - t0;
        MPI_Bcast(&dt, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (dt > seconds / 10 || n >= (1 << 22)) return (int)(n * (seconds / (dt > 0 ? dt : 1e-9))) + 1;
        n *= 4;
    }
}

int main(int argc, char **argv) {
    double seconds = 0.2;
    int batches = 5, allocate = 0;
    MPI_Init(&argc, &argv);
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--allocate")) allocate = 1;
        if (i + 1 == argc) continue;
        if (!strcmp(argv[i], "--seconds")) seconds = atof(argv[i + 1]);
        if (!strcmp(argv[i], "--batches")) batches = atoi(argv[i + 1]);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "osc_sm_bench runs with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    peer = 1 - rank;
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &peer, &peer_group);
    const MPI_Aint bytes = BIG + GHOST * sizeof(double);
    for (size_t k = 0; k < sizeof src / sizeof src[0]; ++k) src[k] = (double)k;
    for (int k = 0; k < GHOST; ++k) ghost_src[k] = (double)k;
    if (allocate) {
#if MPI_VERSION >= 3
        MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
        memset(mem, 0, (size_t)bytes);
        MPI_Barrier(MPI_COMM_WORLD);
#else
        if (rank == 0) fprintf(stderr, "--allocate needs MPI-3 (MPI_Win_allocate)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
#endif
    } else {
        MPI_Alloc_mem(bytes, MPI_INFO_NULL, &mem);
        memset(mem, 0, (size_t)bytes);
        MPI_Win_create(mem, bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    }
    for (size_t b = 0; b < sizeof benches / sizeof benches[0]; ++b) {
        const struct bench *bb = &benches[b];
        if (bb->fenced) MPI_Win_fence(0, win);
        const int n = calibrate(bb, seconds);
        double best = 1e30;
        for (int k = 0; k < batches; ++k) {
            MPI_Barrier(MPI_COMM_WORLD);
            const double t0 = MPI_Wtime();
            if (!bb->passive || rank == 0)
                for (int i = 0; i < n; ++i) bb->fn(i);
            const double dt = (MPI_Wtime() - t0) / n;
            if (dt < best) best = dt;
        }
        if (bb->fenced) MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) printf("%s %.3f\n", bb->name, best * 1e6);
        fflush(stdout);
    }
    /* the last ghost-cell epoch's doubles must be there (its closing fence has passed) */
    for (int k = 0; k < GHOST; ++k)
        if (mem[BIG / sizeof(double) + (size_t)k] != (double)k) {
            fprintf(stderr, "rank %d: ghost cell %d holds %g, expected %d\n", rank, k, mem[BIG / sizeof(double) + (size_t)k], k);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    MPI_Win_free(&win);
    if (!allocate) MPI_Free_mem(mem);
    MPI_Group_free(&peer_group);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
