/* Passive target while the target computes: rank 0 exposes a window and then computes without
 * calling MPI, watching only its own memory, while every other rank runs ROUNDS lock epochs on
 * it, exclusive and shared in turn: an exclusive epoch puts the round number as its stamp, a
 * shared one gets the stamp back (the previous epoch's, exact); every epoch accumulates 1 into a
 * counter that all origins share (exact at the end: accumulates are atomic) and gets rank 0's
 * "computing" marker, which rank 0 sets before its last MPI call and clears only after leaving
 * its loop. Each origin then writes its done flag in a last epoch of its own.
 *
 * What is asserted: every marker an origin read, after its unlock returned, says rank 0 was
 * computing; rank 0 leaves its loop only when it sees every done flag (so every checked epoch had
 * completed, unlock returned, while it computed); the counter, the stamps and the gets are exact.
 * No timing is asserted: however the scheduler interleaves the ranks, an implementation whose
 * passive target needs the target in MPI can complete nothing while rank 0 computes, and the
 * loop gives up after --give-up seconds (default 30) with what it saw.
 *
 * --memory alloc (default: MPI_Alloc_mem, osc_sm's windows), malloc or static (MPI_Win_create on
 * heap or static memory: osc_rdma with osc_rdma_async_progress). 2-8 ranks. Rank 0 reads its own
 * memory while others write it: the unified memory of one node, as both components provide. */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define ROUNDS 100
#define COMPUTING 1
#define DONE_COMPUTING 2

/* slots: [0] counter, [1 + r] rank r's stamp, [marker], [done0 + r] rank r's done flag */
static int arena[32];

static int *window_memory(const char *kind, size_t bytes)
{
    int *mem = NULL;
    if (strcmp(kind, "alloc") == 0)
        CHECK_MPI(MPI_Alloc_mem((MPI_Aint)bytes, MPI_INFO_NULL, &mem));
    else if (strcmp(kind, "malloc") == 0)
        mem = tu_malloc(bytes);
    else if (strcmp(kind, "static") == 0)
        mem = arena;
    else
        CHECK(0, "--memory %s: use alloc, malloc or static", kind);
    memset(mem, 0, bytes);
    return mem;
}

/* Rank 0: compute until every done flag is set, without any MPI call; false when it gave up. */
static int compute_until_done(volatile int *watch, int size, int done0, int give_up_s)
{
    const time_t give_up = time(NULL) + give_up_s;
    volatile double work = 0.0; /* the computation */
    for (long spins = 1;; ++spins) {
        int done = 1;
        for (int r = 1; r < size && done; ++r) done = watch[done0 + r] == 1;
        if (done) return 1;
        for (int k = 0; k < 1000; ++k) work = work + k * 0.5;
        if (spins % 1024 == 0 && time(NULL) >= give_up) return 0;
    }
}

/* An origin's epochs on rank 0; returns how many marker reads said "computing". */
static int run_epochs(MPI_Win win, int rank, int marker)
{
    const int one = 1;
    int computing = 0;
    for (int i = 1; i <= ROUNDS; ++i) {
        const int exclusive = i % 2;
        int seen = -1, stamp = -1;
        CHECK_MPI(MPI_Win_lock(exclusive ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, 0, 0, win));
        if (exclusive)
            CHECK_MPI(MPI_Put(&i, 1, MPI_INT, 0, 1 + rank, 1, MPI_INT, win));
        else
            CHECK_MPI(MPI_Get(&stamp, 1, MPI_INT, 0, 1 + rank, 1, MPI_INT, win));
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Get(&seen, 1, MPI_INT, 0, marker, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
        if (!exclusive) CHECK(stamp == i - 1, "round %d: the stamp read back is %d, not %d", i, stamp, i - 1);
        CHECK(seen == COMPUTING, "round %d: rank 0's marker reads %d: rank 0 was not computing", i, seen);
        computing += seen == COMPUTING;
    }
    return computing;
}

int main(int argc, char **argv)
{
    int rank, size;
    const char *memory = "alloc";
    int give_up_s = 30;
    tu_init(&argc, &argv);
    tu_require_ranks(2, 8);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int a = 1; a + 1 < argc; a += 2) {
        if (strcmp(argv[a], "--memory") == 0) memory = argv[a + 1];
        else if (strcmp(argv[a], "--give-up") == 0) give_up_s = atoi(argv[a + 1]);
        else CHECK(0, "unknown argument %s (--memory alloc|malloc|static, --give-up SECONDS)", argv[a]);
    }
    const int marker = size + 1, done0 = size + 2, slots = 2 * size + 2;
    const size_t bytes = sizeof(int) * (size_t)slots;
    int *mem = window_memory(memory, bytes);
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    if (rank == 0) ((volatile int *)mem)[marker] = COMPUTING;
    tu_barrier(); /* rank 0's last MPI call before it computes */
    if (rank == 0) {
        volatile int *watch = mem;
        CHECK(compute_until_done(watch, size, done0, give_up_s),
              "after %d s of computing outside MPI the counter is %d of %d: passive target needs the target",
              give_up_s, watch[0], (size - 1) * ROUNDS);
        watch[marker] = DONE_COMPUTING;
    } else {
        const int one = 1;
        CHECK_EQ(run_epochs(win, rank, marker), ROUNDS);
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK_MPI(MPI_Put(&one, 1, MPI_INT, 0, done0 + rank, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    tu_barrier();
    int got[32] = {0};
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_MPI(MPI_Get(got, slots, MPI_INT, 0, 0, slots, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(0, win));
    CHECK_EQ(got[0], (size - 1) * ROUNDS);
    CHECK_EQ(got[1], 0);
    for (int r = 1; r < size; ++r) CHECK_EQ(got[1 + r], ROUNDS - 1);
    CHECK_EQ(got[marker], DONE_COMPUTING);
    for (int r = 1; r < size; ++r) CHECK_EQ(got[done0 + r], 1);
    tu_barrier();
    CHECK_MPI(MPI_Win_free(&win));
    if (strcmp(memory, "alloc") == 0) CHECK_MPI(MPI_Free_mem(mem));
    if (strcmp(memory, "malloc") == 0) free(mem);
    return tu_finish("%d origins x %d lock/put-or-get/accumulate/get/unlock epochs completed while rank 0 computed "
                     "outside MPI (%s memory)",
                     size - 1, ROUNDS, memory);
}
