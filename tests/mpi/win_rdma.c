/* One-sided end to end through the MPI layer and the osc_rdma component (tests/mpi/osc.mk):
 * fence epochs with puts, gets and accumulates between every pair, a PSCW ring, a counter under
 * exclusive locks from every rank, MPI_PROC_NULL targets inside epochs, and a module's error
 * (a put beyond the target's window, a put outside any epoch) reaching the window's handler with
 * its class and message. 2-8 ranks. */
#include "test_util.h"

#define SLOTS 64

static int expected_put(int from, int slot) { return 1000 * from + slot; }

static void fence_epochs(MPI_Win win, int *mem)
{
    int n = tu_size, me = tu_rank, origin[SLOTS], got[SLOTS];
    for (int i = 0; i < SLOTS; ++i) origin[i] = expected_put(me, i);
    /* Each rank writes its slot block into every other rank's window: block `me` of 8 ints. */
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    for (int t = 0; t < n; ++t)
        CHECK_MPI(MPI_Put(origin + 8 * me, 8, MPI_INT, t, 8 * me, 8, MPI_INT, win));
    CHECK_MPI(MPI_Put(origin, 8, MPI_INT, MPI_PROC_NULL, 0, 8, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int from = 0; from < n; ++from)
        for (int i = 0; i < 8; ++i)
            CHECK(mem[8 * from + i] == expected_put(from, 8 * from + i), "slot %d: %d, expected %d from rank %d",
                  8 * from + i, mem[8 * from + i], expected_put(from, 8 * from + i), from);
    /* Gets of the whole window of the next rank, then accumulates of 1 into slot 63 everywhere. */
    int next = (me + 1) % n, one = 1;
    CHECK_MPI(MPI_Get(got, 8 * n, MPI_INT, next, 0, 8 * n, MPI_INT, win));
    for (int t = 0; t < n; ++t) CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, t, SLOTS - 1, 1, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    for (int i = 0; i < 8 * n; ++i) CHECK(got[i] == expected_put(i / 8, i), "got[%d] = %d", i, got[i]);
    CHECK(mem[SLOTS - 1] == n, "accumulated %d, expected %d", mem[SLOTS - 1], n);
}

static void pscw_ring(MPI_Win win, int *mem)
{
    int n = tu_size, me = tu_rank, next = (me + 1) % n, prev = (me + n - 1) % n, value = 7000 + me;
    MPI_Group world, to, from;
    MPI_Win_get_group(win, &world);
    MPI_Group_incl(world, 1, &next, &to);
    MPI_Group_incl(world, 1, &prev, &from);
    CHECK_MPI(MPI_Win_post(from, 0, win));
    CHECK_MPI(MPI_Win_start(to, 0, win));
    CHECK_MPI(MPI_Put(&value, 1, MPI_INT, next, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    int flag = 0;
    double deadline = tu_deadline();
    while (!flag) {
        CHECK_MPI(MPI_Win_test(win, &flag));
        CHECK(MPI_Wtime() < deadline, "MPI_Win_test never became true");
    }
    CHECK(mem[0] == 7000 + prev, "PSCW: %d, expected %d", mem[0], 7000 + prev);
    MPI_Group_free(&to);
    MPI_Group_free(&from);
    MPI_Group_free(&world);
}

static void locked_counter(MPI_Win win, int *mem)
{
    const int rounds = 20;
    mem[1] = 0;
    tu_barrier();
    for (int r = 0; r < rounds; ++r) {
        int one = 1;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    tu_barrier();
    if (tu_rank == 0) {
        int v = -1;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK_MPI(MPI_Get(&v, 1, MPI_INT, 0, 1, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
        CHECK(v == rounds * tu_size, "counter %d, expected %d", v, rounds * tu_size);
    }
}

static void module_error(MPI_Win win)
{
    int v[4] = {0};
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    int rc = MPI_Put(v, 4, MPI_INT, 0, SLOTS - 2, 4, MPI_INT, win);
    int cls = tu_error_class(rc);
    CHECK(cls == MPI_ERR_DISP, "a put beyond the window: class %d, expected MPI_ERR_DISP", cls);
    CHECK_MPI(MPI_Win_unlock(0, win));
    /* Outside any epoch: the module's MPI_ERR_RMA_SYNC, with its message. */
    char text[MPI_MAX_ERROR_STRING];
    rc = MPI_Put(v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    cls = tu_error_class(rc);
    CHECK(cls == MPI_ERR_RMA_SYNC, "a put outside an epoch: class %d (%s), expected MPI_ERR_RMA_SYNC", cls,
          tu_error_text(rc, text));
    CHECK(strstr(tu_error_text(rc, text), "MPI_Put: ") == text, "message '%s' does not start with the call", text);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 8);
    int *mem = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Alloc_mem(SLOTS * sizeof(int), MPI_INFO_NULL, &mem));
    memset(mem, 0, SLOTS * sizeof(int));
    CHECK_MPI(MPI_Win_create(mem, SLOTS * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    fence_epochs(win, mem);
    tu_barrier();
    pscw_ring(win, mem);
    tu_barrier();
    locked_counter(win, mem);
    tu_barrier();
    module_error(win);
    tu_barrier();
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Free_mem(mem));
    return tu_finish("fence put/get/accumulate between all pairs, a PSCW ring with Win_test, an exclusive-lock "
                     "counter, MPI_ERR_DISP from the module, through osc_rdma");
}
