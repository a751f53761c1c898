/* One-sided end to end through the MPI layer and the osc_rdma component (tests/mpi/osc.mk):
 * fence epochs with puts, gets and accumulates between every pair, derived datatypes at both ends
 * (vector, indexed, struct with a hole), a PSCW ring, a counter under
 * exclusive locks from every rank, MPI_PROC_NULL targets inside epochs, and a module's error
 * (a put beyond the target's window, a put outside any epoch) reaching the window's handler with
 * its class and message. 2-7 ranks. */
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

/* Derived datatypes at both ends in one fence epoch of a second window: a contiguous origin into
 * a strided target (put), a strided origin from an indexed target (get), an accumulate into a
 * target struct of two ints with a hole. */
static void derived_types(void)
{
    int n = tu_size, me = tu_rank, next = (me + 1) % n, prev = (me + n - 1) % n;
    int mem[32] = {0}, origin[4], got[6] = {0}, add[2] = {1000, 2000};
    for (int k = 0; k < 4; ++k) origin[k] = 10 * me + k;
    for (int i = 16; i < 32; ++i) mem[i] = 100 * me + i;
    MPI_Datatype strided, every_third, indexed, holey;
    MPI_Type_vector(4, 1, 2, MPI_INT, &strided);       /* slots 0, 2, 4, 6 from the displacement */
    MPI_Type_vector(2, 1, 3, MPI_INT, &every_third);   /* origin slots 0 and 3 */
    int bl[2] = {1, 1}, disp[2] = {5, 1};
    MPI_Type_indexed(2, bl, disp, MPI_INT, &indexed);   /* target slots +5 then +1 */
    MPI_Aint adisp[2] = {0, 3 * sizeof(int)};
    MPI_Datatype ints[2] = {MPI_INT, MPI_INT};
    MPI_Type_create_struct(2, bl, adisp, ints, &holey); /* target slots +0 and +3 */
    MPI_Datatype all[4] = {strided, every_third, indexed, holey};
    for (int i = 0; i < 4; ++i) MPI_Type_commit(&all[i]);
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(origin, 4, MPI_INT, next, 1, 1, all[0], win));
    CHECK_MPI(MPI_Get(got, 1, all[1], next, 16, 1, all[2], win));
    CHECK_MPI(MPI_Accumulate(add, 2, MPI_INT, next, 10, 1, all[3], MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    const int want_low[16] = {0, 10 * prev, 0, 10 * prev + 1, 0, 10 * prev + 2, 0, 10 * prev + 3,
                              0, 0, 1000, 0, 0, 2000, 0, 0};
    for (int i = 0; i < 16; ++i) CHECK(mem[i] == want_low[i], "slot %d: %d, expected %d", i, mem[i], want_low[i]);
    CHECK(got[0] == 100 * next + 21 && got[3] == 100 * next + 17 && got[1] == 0 && got[2] == 0,
          "get through an indexed target: %d %d %d %d", got[0], got[1], got[2], got[3]);
    CHECK_MPI(MPI_Win_free(&win));
    for (int i = 0; i < 4; ++i) MPI_Type_free(&all[i]);
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
    tu_require_ranks(2, 7); /* 8 ranks would fill slot SLOTS - 1, which the accumulates use */
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
    derived_types();
    tu_barrier();
    module_error(win);
    tu_barrier();
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Free_mem(mem));
    return tu_finish("fence put/get/accumulate between all pairs, derived types at both ends, a PSCW ring with "
                     "Win_test, an exclusive-lock counter, MPI_ERR_DISP and MPI_ERR_RMA_SYNC from the module");
}
