/* osc_rdma end to end (components/osc_rdma/README.md), under whichever protocol the case forces
 * with osc_rdma_protocol: fence epochs with put, get and accumulate (one int, a buffer larger than
 * a message, a strided vector at the target, many one-double puts), PSCW where every rank posts
 * to and starts on its two ring neighbours, with MPI_Win_test loops, and a counter every rank
 * increments under exclusive locks (rank 0 locking its own window too), read under shared locks,
 * the assert flags (NOCHECK on PSCW and lock, NOSTORE, NOPUT), accumulates of items larger than a
 * message, many one-int puts and gets in one lock epoch (neighbouring and scattered, which
 * osc_rdma's passive target without the target batches into one single copy at unlock), derived
 * datatypes in lock epochs (a vector target, backward indexed blocks, a staged accumulate). Every
 * result is checked element for element. 2-8 ranks; plain MPI-2.2. */
#include <dirent.h>
#include <unistd.h>

#include "test_util.h"

#define BIG 20000 /* ints: larger than any eager message */
#define GHOST 1000

static void fence_epochs(int rank, int size)
{
    int *mem = (int *)tu_malloc(sizeof(int) * (size_t)(size * BIG));
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
        /* every rank adds its row into rank 0's first row */
        CHECK_MPI(MPI_Accumulate(mine, count, MPI_INT, 0, 0, count, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Win_fence(0, win));
        if (rank == 0)
            for (int i = 0; i < count; ++i)
                CHECK_EQ(mem[i], i + size * i + 1000000 * (size * (size - 1) / 2)); /* its own put, then the sum */
        tu_barrier();
    }
    CHECK_MPI(MPI_Win_free(&win));
    free(mem), free(mine), free(got);
}

/* The paper's ghost-cell update with one put per double, and a strided target. */
static void ghost_cells(int rank, int size)
{
    double *halo = (double *)tu_malloc(sizeof(double) * 2 * GHOST), *edge = (double *)tu_malloc(sizeof(double) * GHOST);
    MPI_Win win;
    MPI_Datatype every_other;
    CHECK_MPI(MPI_Type_vector(GHOST / 2, 1, 2, MPI_DOUBLE, &every_other));
    CHECK_MPI(MPI_Type_commit(&every_other));
    for (int i = 0; i < GHOST; ++i) edge[i] = rank + i / 4096.0;
    CHECK_MPI(MPI_Win_create(halo, (MPI_Aint)(sizeof(double) * 2 * GHOST), sizeof(double), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int iter = 0; iter < 3; ++iter) {
        for (int i = 0; i < 2 * GHOST; ++i) halo[i] = -1.0;
        CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
        for (int i = 0; i < GHOST; ++i) CHECK_MPI(MPI_Put(&edge[i], 1, MPI_DOUBLE, right, i, 1, MPI_DOUBLE, win));
        CHECK_MPI(MPI_Put(edge, GHOST / 2, MPI_DOUBLE, right, GHOST, 1, every_other, win));
        CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
        for (int i = 0; i < GHOST; ++i) CHECK(halo[i] == left + i / 4096.0, "halo[%d] = %g", i, halo[i]);
        for (int i = 0; i < GHOST; ++i)
            CHECK(halo[GHOST + i] == (i % 2 ? -1.0 : left + (i / 2) / 4096.0), "strided halo[%d] = %g", i, halo[GHOST + i]);
        tu_barrier();
    }
    CHECK_MPI(MPI_Type_free(&every_other));
    CHECK_MPI(MPI_Win_free(&win));
    free(halo), free(edge);
}

static void pscw_ring(int rank, int size, MPI_Group world)
{
    int mem[2] = {0, 0};
    MPI_Win win;
    MPI_Group nbrs;
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int ranks[2] = {left < right ? left : right, left < right ? right : left};
    CHECK_MPI(MPI_Group_incl(world, left == right ? 1 : 2, ranks, &nbrs));
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    for (int round = 1; round <= 5; ++round) {
        int v = rank * 100 + round, flag = 0;
        CHECK_MPI(MPI_Win_post(nbrs, 0, win));
        CHECK_MPI(MPI_Win_start(nbrs, 0, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win)); /* slot 0: from the left */
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, left, 1, 1, MPI_INT, win));  /* slot 1: from the right */
        CHECK_MPI(MPI_Win_complete(win));
        const double deadline = tu_deadline();
        while (!flag) {
            CHECK_MPI(MPI_Win_test(win, &flag));
            CHECK(MPI_Wtime() < deadline, "MPI_Win_test never completed (round %d)", round);
        }
        CHECK_EQ(mem[0], left * 100 + round);
        CHECK_EQ(mem[1], right * 100 + round);
    }
    CHECK_MPI(MPI_Group_free(&nbrs));
    CHECK_MPI(MPI_Win_free(&win));
}

static void lock_counter(int size)
{
    int counter = 0, one = 1, seen = -1;
    MPI_Win win;
    const int iters = 50;
    CHECK_MPI(MPI_Win_create(&counter, sizeof counter, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    for (int i = 0; i < iters; ++i) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    tu_barrier();
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_MPI(MPI_Get(&seen, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(0, win));
    CHECK_EQ(seen, size * iters);
    tu_barrier();
    CHECK_MPI(MPI_Win_free(&win));
}

/* The assert flags where they save work: PSCW with MPI_MODE_NOCHECK (a barrier between post and
 * start is the promise that the post came first), lock with MPI_MODE_NOCHECK (each rank locks only
 * its right neighbour, so no two locks conflict), fences with MPI_MODE_NOSTORE and NOPUT. */
static void assert_flags(int rank, int size, MPI_Group world)
{
    int mem[3] = {0, 0, 0};
    MPI_Win win;
    MPI_Group nbrs;
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int ranks[2] = {left < right ? left : right, left < right ? right : left};
    CHECK_MPI(MPI_Group_incl(world, left == right ? 1 : 2, ranks, &nbrs));
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    for (int round = 1; round <= 5; ++round) {
        int v = rank * 100 + round;
        CHECK_MPI(MPI_Win_post(nbrs, MPI_MODE_NOCHECK, win));
        tu_barrier();
        CHECK_MPI(MPI_Win_start(nbrs, MPI_MODE_NOCHECK, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, left, 1, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
        CHECK_MPI(MPI_Win_wait(win));
        CHECK_EQ(mem[0], left * 100 + round);
        CHECK_EQ(mem[1], right * 100 + round);
    }
    tu_barrier();
    for (int round = 1; round <= 5; ++round) {
        int v = rank * 1000 + round;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, MPI_MODE_NOCHECK, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 2, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_unlock(right, win));
    }
    tu_barrier();
    CHECK_EQ(mem[2], left * 1000 + 5);
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOSTORE, win));
    int v = rank;
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED | MPI_MODE_NOPUT, win));
    CHECK_EQ(mem[0], left);
    CHECK_MPI(MPI_Group_free(&nbrs));
    CHECK_MPI(MPI_Win_free(&win));
}

/* Accumulate items larger than any message (one item: 12000 ints, 48000 bytes), from every rank
 * into rank 0, twice: each item arrives in fragments and is applied whole. */
static void big_items(int rank, int size)
{
    enum { N = 12000 };
    int *mem = (int *)tu_malloc(sizeof(int) * N), *mine = (int *)tu_malloc(sizeof(int) * N);
    MPI_Datatype item;
    MPI_Win win;
    CHECK_MPI(MPI_Type_contiguous(N, MPI_INT, &item));
    CHECK_MPI(MPI_Type_commit(&item));
    for (int i = 0; i < N; ++i) mem[i] = 0, mine[i] = rank + i;
    CHECK_MPI(MPI_Win_create(mem, sizeof(int) * N, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Accumulate(mine, 1, item, 0, 0, 1, item, MPI_SUM, win));
    CHECK_MPI(MPI_Accumulate(mine, 1, item, 0, 0, 1, item, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    if (rank == 0)
        for (int i = 0; i < N; ++i) CHECK_EQ(mem[i], 2 * (size * i + size * (size - 1) / 2));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Type_free(&item));
    free(mem), free(mine);
}

/* Under an exclusive lock on the right neighbour: GHOST one-int puts into its first half (every
 * second one first, then the others: runs that neighbour each other and runs that do not), then
 * under a shared lock GHOST one-int gets of its second half, which it filled itself. */
static void lock_many(int rank, int size)
{
    const int right = (rank + 1) % size;
    int *mem = (int *)tu_malloc(sizeof(int) * 2 * GHOST);
    int *src = (int *)tu_malloc(sizeof(int) * GHOST), *got = (int *)tu_malloc(sizeof(int) * GHOST);
    for (int i = 0; i < GHOST; ++i) {
        mem[i] = -1;
        mem[GHOST + i] = rank * 100000 + i;
        src[i] = rank * 1000 + i;
        got[i] = -1;
    }
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)(sizeof(int) * 2 * GHOST), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &win));
    tu_barrier();
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    for (int i = 0; i < GHOST; i += 2) CHECK_MPI(MPI_Put(src + i, 1, MPI_INT, right, i, 1, MPI_INT, win));
    for (int i = 1; i < GHOST; i += 2) CHECK_MPI(MPI_Put(src + i, 1, MPI_INT, right, i, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(right, win));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    for (int i = 0; i < GHOST; ++i) CHECK_MPI(MPI_Get(got + i, 1, MPI_INT, right, GHOST + i, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(right, win));
    for (int i = 0; i < GHOST; ++i) CHECK_EQ(got[i], right * 100000 + i);
    tu_barrier();
    const int left = (rank + size - 1) % size;
    for (int i = 0; i < GHOST; ++i) CHECK_EQ(mem[i], left * 1000 + i);
    tu_barrier();
    CHECK_MPI(MPI_Win_free(&win));
    free(mem);
    free(src);
    free(got);
}

/* Lone transfers of lock epochs around the size where osc_rdma's target-free path switches from
 * /proc/PID/mem (one run of up to 4 KiB) to the host's single copy: at each size a put to the
 * right neighbour at an odd displacement, a get of it back, an accumulate (SUM, then REPLACE) of
 * ints beside it, each in a lock epoch of its own; every byte of every window checked, those
 * around the accesses unchanged; all in a second window after the first was freed. */
/* Descriptors of this process open on some process's /proc/PID/mem (osc_rdma's short transfers). */
static int proc_mem_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    CHECK(d != NULL, "opendir(/proc/self/fd) failed");
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char path[300], link[256];
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        const ssize_t k = readlink(path, link, sizeof link - 1);
        if (k < 10) continue;
        link[k] = '\0';
        if (strncmp(link, "/proc/", 6) == 0 && strcmp(link + k - 4, "/mem") == 0) ++n;
    }
    closedir(d);
    return n;
}

static unsigned char pattern(int rank, int size_case, int i) { return (unsigned char)(rank * 29 + size_case * 7 + i * 13 + 1); }

static void lock_sizes(int rank, int size)
{
    enum { W = 3 * 8192, AT = 5, ACC = 16384 };
    static const int sizes[] = {1, 8, 4095, 4096, 4097, 8192};
    static const int counts[] = {1, 1024, 1025, 2047};
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    unsigned char *mem = (unsigned char *)tu_malloc(W), *src = (unsigned char *)tu_malloc(8192),
                  *got = (unsigned char *)tu_malloc(8192);
    int *ints = (int *)tu_malloc(sizeof(int) * 2047);
    MPI_Win win, first;
    /* Two windows share osc_rdma's /proc/PID/mem descriptors (at most one per peer process, 0
     * where the window took no such path), and freeing the first leaves them open for the second;
     * none is left once both are freed (checked at the end). */
    const int fds_before = proc_mem_fds();
    CHECK_MPI(MPI_Win_create(mem, W, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &first));
    CHECK_MPI(MPI_Win_create(mem, W, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    const int fds_both = proc_mem_fds() - fds_before;
    CHECK(fds_both >= 0 && fds_both <= size - 1, "two windows hold %d /proc/PID/mem descriptors, more than one per peer (%d)",
          fds_both, size - 1);
    CHECK_MPI(MPI_Win_free(&first));
    CHECK(proc_mem_fds() - fds_before == fds_both, "freeing one window of two closed /proc/PID/mem descriptors the other uses");
    for (int c = 0; c < (int)(sizeof sizes / sizeof sizes[0]); ++c) {
        const int n = sizes[c];
        for (int i = 0; i < W; ++i) mem[i] = (unsigned char)(0xa5 ^ i);
        for (int i = 0; i < n; ++i) src[i] = pattern(rank, c, i), got[i] = 0;
        tu_barrier();
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
        CHECK_MPI(MPI_Put(src, n, MPI_BYTE, right, AT, n, MPI_BYTE, win));
        CHECK_MPI(MPI_Win_unlock(right, win));
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
        CHECK_MPI(MPI_Get(got, n, MPI_BYTE, right, AT, n, MPI_BYTE, win));
        CHECK_MPI(MPI_Win_unlock(right, win));
        CHECK(memcmp(got, src, (size_t)n) == 0, "lock epochs, %d bytes: the get did not read back the put", n);
        tu_barrier();
        for (int i = 0; i < W; ++i) {
            const unsigned char want = (i >= AT && i < AT + n) ? pattern(left, c, i - AT) : (unsigned char)(0xa5 ^ i);
            CHECK(mem[i] == want, "lock epochs, %d bytes: byte %d is %d, expected %d", n, i, mem[i], want);
        }
    }
    for (int c = 0; c < (int)(sizeof counts / sizeof counts[0]); ++c) {
        const int n = counts[c];
        int *acc = (int *)(mem + ACC - 4 * 1024);  /* int-aligned, 4 KiB below the end of the window's use */
        tu_barrier();
        for (int i = 0; i < W; ++i) mem[i] = (unsigned char)(0x5a ^ i);
        for (int i = 0; i < n; ++i) acc[i] = i - 7, ints[i] = rank * 100 + i;
        tu_barrier();
        const MPI_Aint disp = (MPI_Aint)((unsigned char *)acc - mem);
        for (int k = 0; k < 2; ++k) {  /* exclusive, then shared */
            CHECK_MPI(MPI_Win_lock(k ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, right, 0, win));
            CHECK_MPI(MPI_Accumulate(ints, n, MPI_INT, right, disp, n, MPI_INT, MPI_SUM, win));
            CHECK_MPI(MPI_Win_unlock(right, win));
        }
        tu_barrier();
        for (int i = 0; i < n; ++i) CHECK_EQ(acc[i], i - 7 + 2 * (left * 100 + i));
        tu_barrier();
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
        CHECK_MPI(MPI_Accumulate(ints, n, MPI_INT, right, disp, n, MPI_INT, MPI_REPLACE, win));
        CHECK_MPI(MPI_Win_unlock(right, win));
        tu_barrier();
        for (int i = 0; i < n; ++i) CHECK_EQ(acc[i], left * 100 + i);
        const unsigned char *lo = (const unsigned char *)acc, *hi = (const unsigned char *)(acc + n);
        for (int i = 0; i < W; ++i)
            if (mem + i < lo || mem + i >= hi)
                CHECK(mem[i] == (unsigned char)(0x5a ^ i), "lock accumulates of %d ints: byte %d outside them changed", n, i);
    }
    tu_barrier();
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(proc_mem_fds() == fds_before, "/proc/PID/mem descriptors left open after MPI_Win_free");
    free(mem);
    free(src);
    free(got);
    free(ints);
}

/* Derived datatypes in lock epochs on the right neighbour: a contiguous put into every second int
 * (a vector target), an indexed get whose blocks run backwards into a strided origin, and an
 * accumulate of a contiguous origin into the vector target; holes at both ends untouched. */
static void lock_derived(int rank, int size)
{
    enum { N = 64 };
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int mem[2 * N], src[N], ones[N], got[12];
    for (int i = 0; i < 2 * N; ++i) mem[i] = -1;
    for (int i = 0; i < N; ++i) src[i] = rank * 1000 + i, ones[i] = 1;
    for (int i = 0; i < 12; ++i) got[i] = -7;
    MPI_Datatype stride2, picks, ostride;
    const int lens[3] = {1, 2, 1}, displs[3] = {6, 0, 3};
    CHECK_MPI(MPI_Type_vector(N, 1, 2, MPI_INT, &stride2));
    CHECK_MPI(MPI_Type_indexed(3, lens, displs, MPI_INT, &picks));
    CHECK_MPI(MPI_Type_vector(4, 1, 3, MPI_INT, &ostride));
    CHECK_MPI(MPI_Type_commit(&stride2));
    CHECK_MPI(MPI_Type_commit(&picks));
    CHECK_MPI(MPI_Type_commit(&ostride));
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    tu_barrier();
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    CHECK_MPI(MPI_Put(src, N, MPI_INT, right, 0, 1, stride2, win));
    CHECK_MPI(MPI_Win_unlock(right, win));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    CHECK_MPI(MPI_Get(got, 1, ostride, right, 0, 1, picks, win));
    CHECK_MPI(MPI_Win_unlock(right, win));
    const int want_got[12] = {rank * 1000 + 3, -7, -7, rank * 1000, -7, -7, -1, -7, -7, -1, -7, -7};
    for (int i = 0; i < 12; ++i) CHECK_EQ(got[i], want_got[i]);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    CHECK_MPI(MPI_Accumulate(ones, N, MPI_INT, right, 0, 1, stride2, MPI_SUM, win));
    CHECK_MPI(MPI_Win_unlock(right, win));
    tu_barrier();
    for (int i = 0; i < N; ++i) {
        CHECK_EQ(mem[2 * i], left * 1000 + i + 1);
        CHECK_EQ(mem[2 * i + 1], -1);
    }
    tu_barrier();
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Type_free(&stride2);
    MPI_Type_free(&picks);
    MPI_Type_free(&ostride);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Group world;
    tu_init(&argc, &argv);
    tu_require_ranks(2, 8);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    fence_epochs(rank, size);
    ghost_cells(rank, size);
    pscw_ring(rank, size, world);
    lock_counter(size);
    lock_many(rank, size);
    lock_sizes(rank, size);
    lock_derived(rank, size);
    assert_flags(rank, size, world);
    big_items(rank, size);
    MPI_Group_free(&world);
    return tu_finish("fence, ghost cells, PSCW, lock counter, many operations and derived types in lock epochs, assert flags and items larger than a message on %d ranks",
                     size);
}
