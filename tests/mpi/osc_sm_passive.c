/* Passive target while the target computes (components/osc_sm/README.md): rank 0 exposes a
 * window and then computes without calling MPI, watching only its own memory, while every other
 * rank locks it (exclusive and shared in turn), puts its stamp, accumulates into a counter and
 * unlocks. Rank 0 must see every stamp and the whole count before it calls MPI again: the
 * epochs completed with no help from the target. Bounded: rank 0 gives up after 30 s, which is
 * what an implementation needing the target in MPI would do here. Then a get under a shared lock
 * from each rank reads the final values. 2-8 ranks; MPI-2.2 (the unified memory model of a
 * shared-memory window is assumed when rank 0 reads its own memory, as osc_sm provides). */
#include "test_util.h"

#define ROUNDS 100

int main(int argc, char **argv)
{
    int rank, size;
    int *mem = NULL;
    MPI_Win win;
    tu_init(&argc, &argv);
    tu_require_ranks(2, 8);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* [0] the counter, [1 + r] rank r's latest stamp */
    CHECK_MPI(MPI_Alloc_mem((MPI_Aint)(sizeof(int) * (size_t)(size + 1)), MPI_INFO_NULL, &mem));
    for (int i = 0; i <= size; ++i) mem[i] = 0;
    CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)(sizeof(int) * (size_t)(size + 1)), sizeof(int), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    tu_barrier();
    if (rank == 0) {
        /* computing: no MPI call until every origin's last epoch is visible */
        volatile int *watch = mem;
        const time_t give_up = time(NULL) + 30;
        volatile double work = 0.0; /* the computation: kept, though nothing reads it */
        long spins = 0;
        for (;;) {
            int done = watch[0] == (size - 1) * ROUNDS;
            for (int r = 1; r < size && done; ++r) done = watch[1 + r] == ROUNDS;
            if (done) break;
            for (int k = 0; k < 1000; ++k) work = work + k * 0.5;
            CHECK(++spins % 1024 != 0 || time(NULL) < give_up,
                  "after 30 s of computing outside MPI the counter is %d of %d: passive target needs the target",
                  watch[0], (size - 1) * ROUNDS);
        }
    } else {
        const int one = 1;
        for (int i = 1; i <= ROUNDS; ++i) {
            const int type = i % 2 ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED;
            CHECK_MPI(MPI_Win_lock(type, 0, 0, win));
            CHECK_MPI(MPI_Put(&i, 1, MPI_INT, 0, 1 + rank, 1, MPI_INT, win));
            CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win));
            CHECK_MPI(MPI_Win_unlock(0, win));
        }
    }
    tu_barrier();
    int got[9] = {0};
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_MPI(MPI_Get(got, size + 1, MPI_INT, 0, 0, size + 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(0, win));
    CHECK_EQ(got[0], (size - 1) * ROUNDS);
    for (int r = 1; r < size; ++r) CHECK_EQ(got[1 + r], ROUNDS);
    CHECK_EQ(got[1], 0);
    tu_barrier();
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Free_mem(mem));
    return tu_finish("%d origins x %d lock/put/accumulate/unlock epochs completed while rank 0 computed outside MPI",
                     size - 1, ROUNDS);
}
