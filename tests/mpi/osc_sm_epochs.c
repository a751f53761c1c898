/* osc_sm end to end (components/osc_sm/README.md): windows over MPI_Alloc_mem memory shared by
 * every rank of the node, through fence epochs (put, get and accumulate to every rank, one int
 * and a large block), PSCW where each rank posts to and starts on its ring neighbours with
 * MPI_Win_test loops, a counter every rank increments under exclusive locks (rank 0 locking its
 * own window too) read under shared locks, derived datatypes at both ends, and a window where
 * the odd ranks expose nothing (base NULL, size 0). Every result is checked element for element.
 * --static puts the windows on static/heap memory instead: peers cannot map that, so the case
 * checks that osc_sm declines and osc_rdma serves the same program. 1-8 ranks; plain MPI-2.2. */
#include "test_util.h"

#define BIG 20000 /* ints */

static int use_static = 0;

/* Window memory: MPI_Alloc_mem's, or (--static) the heap's, which peers cannot map. */
static void *window_memory(size_t bytes)
{
    void *p = NULL;
    if (use_static) return tu_malloc(bytes ? bytes : 1);
    CHECK_MPI(MPI_Alloc_mem((MPI_Aint)bytes, MPI_INFO_NULL, &p));
    return p;
}

static void free_window_memory(void *p)
{
    if (use_static) free(p);
    else CHECK_MPI(MPI_Free_mem(p));
}

static void fence_epochs(int rank, int size)
{
    int *mem = (int *)window_memory(sizeof(int) * (size_t)(size * BIG));
    int *mine = (int *)tu_malloc(sizeof(int) * BIG), *got = (int *)tu_malloc(sizeof(int) * BIG);
    MPI_Win win;
    for (int i = 0; i < size * BIG; ++i) mem[i] = -1;
    for (int i = 0; i < BIG; ++i) mine[i] = rank * 1000000 + i;
    CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)(sizeof(int) * (size_t)(size * BIG)), sizeof(int), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    for (int count = 1; count <= BIG; count *= 141) {
        CHECK_MPI(MPI_Win_fence(0, win));
        for (int t = 0; t < size; ++t) CHECK_MPI(MPI_Put(mine, count, MPI_INT, t, rank * BIG, count, MPI_INT, win));
        CHECK_MPI(MPI_Win_fence(0, win));
        for (int r = 0; r < size; ++r)
            for (int i = 0; i < count; ++i) CHECK_EQ(mem[r * BIG + i], r * 1000000 + i);
        const int from = (rank + 1) % size;
        memset(got, 0, sizeof(int) * (size_t)count);
        CHECK_MPI(MPI_Get(got, count, MPI_INT, from, from * BIG, count, MPI_INT, win));
        CHECK_MPI(MPI_Win_fence(0, win));
        for (int i = 0; i < count; ++i) CHECK_EQ(got[i], from * 1000000 + i);
        CHECK_MPI(MPI_Accumulate(mine, count, MPI_INT, 0, 0, count, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
        if (rank == 0)
            for (int i = 0; i < count; ++i) CHECK_EQ(mem[i], i + size * i + 1000000 * (size * (size - 1) / 2));
        tu_barrier();
    }
    CHECK_MPI(MPI_Win_free(&win));
    free_window_memory(mem);
    free(mine), free(got);
}

/* Each rank exposes to its left and right neighbours and accesses them: the left one writes my
 * slot 0, the right one my slot 1. A rank with one neighbour (2 ranks) or none (1) still works. */
static void pscw_ring(int rank, int size, MPI_Group world)
{
    int *mem = (int *)window_memory(2 * sizeof(int));
    MPI_Win win;
    MPI_Group nbrs;
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int ranks[2] = {left < right ? left : right, left < right ? right : left};
    const int n = size == 1 ? 1 : (size == 2 ? 1 : 2);
    CHECK_MPI(MPI_Group_incl(world, n, ranks, &nbrs));
    CHECK_MPI(MPI_Win_create(mem, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    for (int epoch = 1; epoch <= 20; ++epoch) {
        mem[0] = mem[1] = -1;
        CHECK_MPI(MPI_Win_post(nbrs, 0, win));
        CHECK_MPI(MPI_Win_start(nbrs, 0, win));
        const int v = rank * 1000 + epoch;
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, left, 1, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
        int flag = 0;
        const double end = tu_deadline();
        while (!flag) {
            CHECK_MPI(MPI_Win_test(win, &flag));
            CHECK(MPI_Wtime() < end, "MPI_Win_test never said done in epoch %d", epoch);
        }
        CHECK_EQ(mem[0], left * 1000 + epoch);
        CHECK_EQ(mem[1], right * 1000 + epoch);
    }
    CHECK_MPI(MPI_Group_free(&nbrs));
    CHECK_MPI(MPI_Win_free(&win));
    free_window_memory(mem);
}

/* A counter every rank increments under exclusive locks ends exact, and a pair of ints each
 * exclusive epoch writes with two separate puts is never seen torn under a shared lock. */
static void lock_counter(int rank, int size)
{
    int *mem = (int *)window_memory(3 * sizeof(int));
    int one = 1, seen = -1;
    MPI_Win win;
    const int iters = 200;
    mem[0] = mem[1] = mem[2] = 0;
    CHECK_MPI(MPI_Win_create(mem, 3 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    for (int i = 0; i < iters; ++i) {
        const int v = rank * 100000 + i;
        int pair[2] = {-1, -2};
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, 1, 1, MPI_INT, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, 2, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK_MPI(MPI_Get(&pair[0], 1, MPI_INT, 0, 1, 1, MPI_INT, win));
        CHECK_MPI(MPI_Get(&pair[1], 1, MPI_INT, 0, 2, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
        CHECK(pair[0] == pair[1], "iteration %d: a torn pair %d, %d under a shared lock", i, pair[0], pair[1]);
    }
    tu_barrier();
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_MPI(MPI_Get(&seen, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(0, win));
    CHECK_EQ(seen, size * iters);
    tu_barrier();
    CHECK_MPI(MPI_Win_free(&win));
    free_window_memory(mem);
}

/* A contiguous origin into a strided target by put, a strided origin from an indexed target by
 * get, an accumulate into a target with holes; the holes must stay untouched. */
static void derived_types(int rank, int size)
{
    enum { N = 64 };
    double *mem = (double *)window_memory(sizeof(double) * 2 * N);
    double src[N], got[2 * N];
    MPI_Datatype stride2, picks, stride2_origin;
    int lens[4] = {1, 2, 3, 4}, displs[4] = {0, 3, 9, 20};
    MPI_Win win;
    CHECK_MPI(MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &stride2));
    CHECK_MPI(MPI_Type_commit(&stride2));
    CHECK_MPI(MPI_Type_indexed(4, lens, displs, MPI_DOUBLE, &picks));
    CHECK_MPI(MPI_Type_commit(&picks));
    CHECK_MPI(MPI_Type_vector(10, 1, 2, MPI_DOUBLE, &stride2_origin));
    CHECK_MPI(MPI_Type_commit(&stride2_origin));
    for (int i = 0; i < 2 * N; ++i) mem[i] = -1.0;
    for (int i = 0; i < N; ++i) src[i] = rank * 100.0 + i;
    CHECK_MPI(MPI_Win_create(mem, sizeof(double) * 2 * N, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(src, N, MPI_DOUBLE, right, 0, 1, stride2, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < 2 * N; ++i) {
        const double want = i % 2 ? -1.0 : left * 100.0 + i / 2;
        CHECK(mem[i] == want, "mem[%d] = %g after the strided put, expected %g", i, mem[i], want);
    }
    for (int i = 0; i < 2 * N; ++i) got[i] = -2.0;
    CHECK_MPI(MPI_Get(got, 1, stride2_origin, right, 0, 1, picks, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    /* picks reads elements 0 | 3 4 | 9 10 11 | 20..23 of right's window, which holds rank's data
     * at even indices and -1 at odd ones */
    const int at[10] = {0, 3, 4, 9, 10, 11, 20, 21, 22, 23};
    for (int k = 0; k < 10; ++k) {
        const double want = at[k] % 2 ? -1.0 : rank * 100.0 + at[k] / 2;
        CHECK(got[2 * k] == want, "got[%d] = %g, expected %g (element %d of rank %d's window)", 2 * k, got[2 * k], want,
              at[k], right);
        CHECK(got[2 * k + 1] == -2.0, "got[%d] = %g: the get wrote into a hole of the origin type", 2 * k + 1,
              got[2 * k + 1]);
    }
    CHECK_MPI(MPI_Accumulate(src, N, MPI_DOUBLE, right, 0, 1, stride2, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    for (int i = 0; i < 2 * N; ++i) {
        const double want = i % 2 ? -1.0 : 2 * (left * 100.0 + i / 2);
        CHECK(mem[i] == want, "mem[%d] = %g after the strided accumulate, expected %g", i, mem[i], want);
    }
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Type_free(&stride2), MPI_Type_free(&picks), MPI_Type_free(&stride2_origin);
    free_window_memory(mem);
}

/* Odd ranks expose nothing (base NULL, size 0); the even ones get everybody's rank. */
static void zero_size(int rank, int size)
{
    const int exposes = rank % 2 == 0;
    int *mem = exposes ? (int *)window_memory(sizeof(int) * (size_t)size) : NULL;
    MPI_Win win;
    if (exposes) for (int i = 0; i < size; ++i) mem[i] = -1;
    CHECK_MPI(MPI_Win_create(mem, exposes ? (MPI_Aint)(sizeof(int) * (size_t)size) : 0, sizeof(int), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int t = 0; t < size; t += 2) CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, t, rank, 1, MPI_INT, win));
    for (int t = 1; t < size; t += 2) CHECK_MPI(MPI_Put(&rank, 0, MPI_INT, t, 0, 0, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    if (exposes)
        for (int i = 0; i < size; ++i) CHECK_EQ(mem[i], i);
    CHECK_MPI(MPI_Win_free(&win));
    if (exposes) free_window_memory(mem);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Group world;
    tu_init(&argc, &argv);
    tu_require_ranks(1, 8);
    for (int i = 1; i < argc; ++i) use_static |= strcmp(argv[i], "--static") == 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    fence_epochs(rank, size);
    pscw_ring(rank, size, world);
    lock_counter(rank, size);
    derived_types(rank, size);
    zero_size(rank, size);
    MPI_Group_free(&world);
    return tu_finish("fence, PSCW ring, lock counter, derived types and a zero-size window on %d ranks (%s memory)",
                     size, use_static ? "static" : "MPI_Alloc_mem");
}
