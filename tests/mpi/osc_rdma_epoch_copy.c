/* osc_rdma's gets and large puts of fence and PSCW epochs by one single copy (components/osc_rdma/
 * rdma_epoch_copy.cc): in a window over heap memory whose members share the node, the contiguous
 * gets of an epoch to one target are read together at the epoch's end when they add up to
 * osc_rdma_get_batch_min bytes (puts of 4 KiB or more written together from
 * osc_rdma_put_batch_min), as messages below. Checked byte for byte, in fence epochs (two
 * processes: one message each way; more: the count exchange and the closing barrier) and PSCW
 * rings:
 *   - many gets to consecutive places (merged runs), scattered ones, more than one batch holds
 *     (1500), a lone short get (a message) and lone 4-256 KiB gets;
 *   - 32 puts of 4 KiB, consecutive and scattered, a lone one (a message), two;
 *   - derived datatypes at either end (not batched: the message path), holes left untouched;
 *   - a put then a get of the same place in one epoch (the get sees the put), a get then a put
 *     (the get sees the value before, the put lands), a short put and a large one to the same
 *     place in either order and a large put then a get (the later one wins, or is seen), the
 *     put by another origin in the epoch before (the get sees it);
 *   - zero-byte gets and a get from the process itself.
 * 2-8 ranks; plain MPI-2.2, also passes under Open MPI and MPICH. */
#include "test_util.h"

#define SLOTS 65536 /* ints of every rank's window */
#define PAGE 1024   /* ints of one large put: 4 KiB */

static int value_of(int rank, int i) { return rank * 1000003 + i * 7 + 1; }

static void fill(int *mem, int rank)
{
    for (int i = 0; i < SLOTS; ++i) mem[i] = value_of(rank, i);
}

/* Gets from `from` into got: n ints from disp with stride `stride` between them (1: consecutive,
 * so the batch merges them into one run), one MPI_Get each. */
static void get_each(int *got, int n, int stride, int from, int disp, MPI_Win win)
{
    for (int i = 0; i < n; ++i) CHECK_MPI(MPI_Get(&got[i * stride], 1, MPI_INT, from, disp + i * stride, 1, MPI_INT, win));
}

static void check_each(const int *got, int n, int stride, int from, int disp, const char *what)
{
    for (int i = 0; i < n; ++i)
        CHECK(got[i * stride] == value_of(from, disp + i * stride), "%s: got[%d] = %d, want %d (from rank %d)", what,
              i * stride, got[i * stride], value_of(from, disp + i * stride), from);
}

/* The gets of one epoch, any synchronisation: after `close` they are all checked. */
static void many_gets(int *got, int from, MPI_Win win, void (*open)(MPI_Win, int), void (*close)(MPI_Win, int),
                      int arg, const char *sync)
{
    char what[96];
    static const int counts[] = {1, 2, 32, 128, 1500};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        for (int stride = 1; stride <= 2; ++stride) {
            const int n = counts[c];
            if (n * stride > SLOTS) continue;
            for (int i = 0; i < SLOTS; ++i) got[i] = -7;
            open(win, arg);
            get_each(got, n, stride, from, 0, win);
            close(win, arg);
            snprintf(what, sizeof what, "%s: %d one-int gets, stride %d", sync, n, stride);
            check_each(got, n, stride, from, 0, what);
            if (stride == 2) /* the holes between the gets stay as they were */
                for (int i = 1; i < n * stride; i += 2) CHECK(got[i] == -7, "%s: hole got[%d] = %d", what, i, got[i]);
        }
    }
    /* one get of 4, 16, 64 and 256 KiB: each alone above the batch's minimum */
    for (int ints = 1024; ints <= SLOTS; ints *= 4) {
        for (int i = 0; i < SLOTS; ++i) got[i] = -7;
        open(win, arg);
        CHECK_MPI(MPI_Get(got, ints, MPI_INT, from, 0, ints, MPI_INT, win));
        close(win, arg);
        snprintf(what, sizeof what, "%s: one get of %d ints", sync, ints);
        check_each(got, ints, 1, from, 0, what);
    }
}

static void fence_open(MPI_Win win, int arg) { (void)arg; (void)win; }
/* A whole fence epoch, opened and closed (local stores may happen between two such). */
static void fence_bracket_open(MPI_Win win, int arg) { (void)arg; CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win)); }
static void fence_bracket_close(MPI_Win win, int arg) { (void)arg; CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win)); }
static void fence_close(MPI_Win win, int arg) { (void)arg; CHECK_MPI(MPI_Win_fence(0, win)); }

/* PSCW on the ring: every rank gets from its right neighbour, exposes to its left one. */
static MPI_Group g_right, g_left;
static void pscw_open(MPI_Win win, int arg)
{
    (void)arg;
    CHECK_MPI(MPI_Win_post(g_left, 0, win));
    CHECK_MPI(MPI_Win_start(g_right, 0, win));
}
static void pscw_close(MPI_Win win, int arg)
{
    (void)arg;
    CHECK_MPI(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_wait(win));
}

/* Derived datatypes at the target (a vector) and at the origin (an indexed layout): the message
 * path, holes untouched at both ends, alongside batched plain gets of the same epoch. */
static void derived(int rank, int size, int *mem, int *got, MPI_Win win)
{
    const int from = (rank + 1) % size;
    MPI_Datatype every_third, picked;
    int lens[3] = {2, 1, 3}, disps[3] = {10, 1, 5}; /* 6 ints, backwards in part */
    CHECK_MPI(MPI_Type_vector(50, 1, 3, MPI_INT, &every_third));
    CHECK_MPI(MPI_Type_commit(&every_third));
    CHECK_MPI(MPI_Type_indexed(3, lens, disps, MPI_INT, &picked));
    CHECK_MPI(MPI_Type_commit(&picked));
    for (int i = 0; i < SLOTS; ++i) got[i] = -7;
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Get(got, 50, MPI_INT, from, 100, 1, every_third, win));        /* target derived */
    CHECK_MPI(MPI_Get(got + 200, 1, picked, from, 300, 6, MPI_INT, win));       /* origin derived */
    get_each(got + 400, 200, 1, from, 400, win);                                 /* batched */
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < 50; ++i)
        CHECK(got[i] == value_of(from, 100 + 3 * i), "vector target: got[%d] = %d, want %d", i, got[i],
              value_of(from, 100 + 3 * i));
    for (int i = 50; i < 200; ++i) CHECK(got[i] == -7, "vector target: got[%d] = %d beyond the data", i, got[i]);
    int k = 0;
    for (int b = 0; b < 3; ++b)
        for (int j = 0; j < lens[b]; ++j, ++k)
            CHECK(got[200 + disps[b] + j] == value_of(from, 300 + k), "indexed origin: got[%d] = %d, want %d",
                  200 + disps[b] + j, got[200 + disps[b] + j], value_of(from, 300 + k));
    for (int i = 200; i < 216; ++i)
        if (i == 201 || (i >= 205 && i < 208) || (i >= 210 && i < 212)) continue;
        else CHECK(got[i] == -7, "indexed origin: hole got[%d] = %d", i, got[i]);
    check_each(got + 400, 200, 1, from, 400, "plain gets beside derived ones");
    (void)mem;
    CHECK_MPI(MPI_Type_free(&every_third));
    CHECK_MPI(MPI_Type_free(&picked));
}

/* A put and a get of the same place in one epoch, in either order, and a put of the epoch before
 * by another origin; the window is refilled between the steps. */
static void ordering(int rank, int size, int *mem, int *got, MPI_Win win)
{
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int mine[64], before[256];
    for (int i = 0; i < 64; ++i) mine[i] = -(rank * 100 + i + 1);

    /* put, then get of the same 64 ints: the get sees the put */
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(mine, 64, MPI_INT, right, 1000, 64, MPI_INT, win));
    get_each(got, 64, 1, right, 1000, win);
    get_each(got + 100, 64, 1, right, 2000, win); /* and gets elsewhere after the put */
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < 64; ++i) CHECK(got[i] == mine[i], "put then get: got[%d] = %d, want the put's %d", i, got[i], mine[i]);
    check_each(got + 100, 64, 1, right, 2000, "put then gets elsewhere");
    for (int i = 0; i < 64; ++i) CHECK(mem[1000 + i] == -(left * 100 + i + 1), "the left's put: mem[%d] = %d", 1000 + i, mem[1000 + i]);

    /* get, then put of the same ints: the get sees the value before, the put lands */
    CHECK_MPI(MPI_Win_fence(0, win));
    get_each(before, 256, 1, right, 3000, win); /* 1 KiB: by single copy, before the put */
    CHECK_MPI(MPI_Put(mine, 64, MPI_INT, right, 3000, 64, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    check_each(before, 256, 1, right, 3000, "get then put");
    for (int i = 0; i < 64; ++i)
        CHECK(mem[3000 + i] == -(left * 100 + i + 1), "get then put: mem[%d] = %d, want the put's", 3000 + i, mem[3000 + i]);

    /* the left neighbour's right neighbour (this process) is read in the epoch after the put by
     * its left neighbour: every get must see the puts of the epoch before */
    const int two_right = (rank + 2) % size;
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(mine, 64, MPI_INT, right, 500, 64, MPI_INT, win));
    CHECK_MPI(MPI_Put(mine, 64, MPI_INT, right, 5000, 64, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    get_each(got, 64, 1, two_right, 500, win);
    get_each(got + 100, 64, 1, right, 500, win); /* what this process put there */
    /* one get worth a single copy alone, over what this process put: at two processes it asks
     * the peer whether it applied our records first */
    CHECK_MPI(MPI_Get(got + 1000, 1024, MPI_INT, right, 5000, 1024, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < 1024; ++i) {
        const int want = i < 64 ? mine[i] : value_of(right, 5000 + i);
        CHECK(got[1000 + i] == want, "a large get over our put of the epoch before: got[%d] = %d, want %d", i,
              got[1000 + i], want);
    }
    const int putter = (two_right + size - 1) % size;
    for (int i = 0; i < 64; ++i)
        CHECK(got[i] == -(putter * 100 + i + 1), "a put of the epoch before by rank %d: got[%d] = %d", putter, i, got[i]);
    for (int i = 0; i < 64; ++i)
        CHECK(got[100 + i] == mine[i], "this process's put of the epoch before: got[%d] = %d", 100 + i, got[100 + i]);

    /* zero-byte gets and a get from this process among batched ones */
    for (int i = 0; i < 216; ++i) got[i] = -7;
    CHECK_MPI(MPI_Win_fence(0, win));
    fill(mem, rank); /* nobody accesses this window in this epoch but this process */
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Get(got, 0, MPI_INT, right, 0, 0, MPI_INT, win));
    CHECK_MPI(MPI_Get(got, 16, MPI_INT, rank, 16, 16, MPI_INT, win));
    get_each(got + 16, 200, 1, right, 16, win);
    CHECK_MPI(MPI_Win_fence(0, win));
    check_each(got, 16, 1, rank, 16, "a get from this process");
    check_each(got + 16, 200, 1, right, 16, "gets beside a get from this process");
}

/* Large puts: 32 of 4 KiB to consecutive and to scattered places, a lone one and two, under the
 * synchronisation given; then the order against short puts and gets to the same place. */
static void large_puts(int rank, int size, int *mem, MPI_Win win, void (*open)(MPI_Win, int),
                       void (*close)(MPI_Win, int), const char *sync)
{
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *src = (int *)tu_malloc(sizeof(int) * 32 * PAGE);
    char what[96];
    static const int counts[] = {1, 2, 32};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
        for (int stride = 1; stride <= 2; ++stride) {
            const int n = counts[c], round = (int)c * 2 + stride;
            for (int i = 0; i < 32 * PAGE; ++i) src[i] = rank * 1000 + round * 100000 + i;
            fill(mem, rank);
            tu_barrier();
            open(win, 0);
            for (int k = 0; k < n; ++k)
                CHECK_MPI(MPI_Put(src + k * PAGE, PAGE, MPI_INT, right, k * stride * PAGE, PAGE, MPI_INT, win));
            close(win, 0);
            snprintf(what, sizeof what, "%s: %d puts of 4 KiB, stride %d", sync, n, stride);
            for (int k = 0; k < 64; ++k)
                for (int i = 0; i < PAGE; ++i) {
                    const int at = k * PAGE + i;
                    const int want = (k % stride == 0 && k / stride < n) ? left * 1000 + round * 100000 + (k / stride) * PAGE + i
                                                                         : value_of(rank, at);
                    if (mem[at] != want) CHECK(0, "%s: mem[%d] = %d, want %d", what, at, mem[at], want);
                }
        }

    /* a short put, then a large one to the same place (the large one wins: it is not batched
     * behind a message); a large one, then a short one (the short one wins: the batch goes
     * first); a large put, then a get of it (the get sees it); a get, then a large put */
    int small[4], seen[PAGE];
    for (int i = 0; i < 4; ++i) small[i] = -(rank + 1) * 10 - i;
    for (int i = 0; i < PAGE; ++i) src[i] = rank * 1000 + 7 * 100000 + i, seen[i] = -7;
    fill(mem, rank);
    tu_barrier();
    open(win, 0);
    CHECK_MPI(MPI_Put(small, 4, MPI_INT, right, 0, 4, MPI_INT, win));
    CHECK_MPI(MPI_Put(src, PAGE, MPI_INT, right, 0, PAGE, MPI_INT, win));
    close(win, 0);
    open(win, 0);
    CHECK_MPI(MPI_Put(src, PAGE, MPI_INT, right, 2 * PAGE, PAGE, MPI_INT, win));
    CHECK_MPI(MPI_Put(src, PAGE, MPI_INT, right, 3 * PAGE, PAGE, MPI_INT, win));
    CHECK_MPI(MPI_Put(small, 4, MPI_INT, right, 2 * PAGE, 4, MPI_INT, win));
    close(win, 0);
    for (int i = 0; i < PAGE; ++i) {
        const int from_left = left * 1000 + 7 * 100000 + i, small_left = -(left + 1) * 10 - i;
        CHECK(mem[i] == from_left, "%s: short then large put: mem[%d] = %d, want %d", sync, i, mem[i], from_left);
        const int want = i < 4 ? small_left : from_left;
        CHECK(mem[2 * PAGE + i] == want, "%s: large then short put: mem[%d] = %d, want %d", sync, 2 * PAGE + i,
              mem[2 * PAGE + i], want);
    }
    fill(mem, rank);
    tu_barrier();
    open(win, 0);
    CHECK_MPI(MPI_Put(src, PAGE, MPI_INT, right, 5 * PAGE, PAGE, MPI_INT, win));
    CHECK_MPI(MPI_Put(src, PAGE, MPI_INT, right, 6 * PAGE, PAGE, MPI_INT, win));
    CHECK_MPI(MPI_Get(seen, PAGE, MPI_INT, right, 5 * PAGE, PAGE, MPI_INT, win));
    close(win, 0);
    for (int i = 0; i < PAGE; ++i)
        CHECK(seen[i] == src[i], "%s: large put then get: seen[%d] = %d, want the put's %d", sync, i, seen[i], src[i]);
    fill(mem, rank);
    tu_barrier();
    open(win, 0);
    CHECK_MPI(MPI_Get(seen, PAGE, MPI_INT, right, 9 * PAGE, PAGE, MPI_INT, win));
    CHECK_MPI(MPI_Put(src, PAGE, MPI_INT, right, 9 * PAGE, PAGE, MPI_INT, win));
    CHECK_MPI(MPI_Put(src, PAGE, MPI_INT, right, 10 * PAGE, PAGE, MPI_INT, win));
    close(win, 0);
    check_each(seen, PAGE, 1, right, 9 * PAGE, "get then large put");
    for (int i = 0; i < PAGE; ++i)
        CHECK(mem[9 * PAGE + i] == left * 1000 + 7 * 100000 + i, "%s: get then large put: mem[%d] = %d", sync,
              9 * PAGE + i, mem[9 * PAGE + i]);
    fill(mem, rank);
    tu_barrier();
    free(src);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Group world;
    tu_init(&argc, &argv);
    tu_require_ranks(2, 8);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *mem = (int *)tu_malloc(sizeof(int) * SLOTS), *got = (int *)tu_malloc(sizeof(int) * SLOTS);
    fill(mem, rank);
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)(sizeof(int) * SLOTS), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Group_incl(world, 1, &right, &g_right);
    MPI_Group_incl(world, 1, &left, &g_left);

    CHECK_MPI(MPI_Win_fence(0, win));
    many_gets(got, right, win, fence_open, fence_close, 0, "fence");
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    many_gets(got, right, win, pscw_open, pscw_close, 0, "PSCW");
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    derived(rank, size, mem, got, win);
    ordering(rank, size, mem, got, win);
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    large_puts(rank, size, mem, win, fence_bracket_open, fence_bracket_close, "fence");
    large_puts(rank, size, mem, win, pscw_open, pscw_close, "PSCW");

    MPI_Group_free(&g_right);
    MPI_Group_free(&g_left);
    MPI_Group_free(&world);
    CHECK_MPI(MPI_Win_free(&win));
    free(mem), free(got);
    return tu_finish("gets and large puts of fence and PSCW epochs (many, scattered, lone, derived, in either order with puts) on %d ranks", size);
}
