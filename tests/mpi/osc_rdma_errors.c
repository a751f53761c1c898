/* osc_rdma's own misuse reports (components/osc_rdma/README.md), under MPI_ERRORS_RETURN on the
 * window: an access outside the target's window is MPI_ERR_DISP and moves nothing, an operation
 * outside an access epoch or a synchronisation call in the wrong epoch is MPI_ERR_RMA_SYNC; the
 * window stays usable afterwards. 2-4 ranks. Plexus only: Open MPI returns MPI_SUCCESS for
 * MPI_Win_complete without MPI_Win_start, MPICH for a put outside the target's window. */
#include "test_util.h"

int main(int argc, char **argv)
{
    int rank, size, mem[4] = {7, 7, 7, 7}, v[4] = {1, 2, 3, 4};
    MPI_Win win;
    tu_init(&argc, &argv);
    tu_require_ranks(2, 4);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int peer = (rank + 1) % size;
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

    CHECK_CLASS(MPI_Put(v, 1, MPI_INT, peer, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC); /* no epoch yet */
    CHECK_CLASS(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
    CHECK_CLASS(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
    CHECK_CLASS(MPI_Win_unlock(peer, win), MPI_ERR_RMA_SYNC);

    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_CLASS(MPI_Put(v, 4, MPI_INT, peer, 1, 4, MPI_INT, win), MPI_ERR_DISP);  /* ints 1..4 of 4 */
    CHECK_CLASS(MPI_Get(v, 1, MPI_INT, peer, -1, 1, MPI_INT, win), MPI_ERR_DISP);
    CHECK_CLASS(MPI_Accumulate(v, 1, MPI_INT, peer, 4, 1, MPI_INT, MPI_SUM, win), MPI_ERR_DISP);
    CHECK_MPI(MPI_Put(v, 2, MPI_INT, peer, 2, 2, MPI_INT, win)); /* the last two: inside */
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_EQ(mem[0], 7);
    CHECK_EQ(mem[1], 7);
    CHECK_EQ(mem[2], 1);
    CHECK_EQ(mem[3], 2);

    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win));
    CHECK_CLASS(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC); /* inside a lock epoch */
    CHECK_MPI(MPI_Win_unlock(peer, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK_CLASS(MPI_Put(v, 1, MPI_INT, peer, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC); /* NOSUCCEED: no epoch */
    CHECK_MPI(MPI_Win_free(&win));
    return tu_finish("osc_rdma's MPI_ERR_DISP and MPI_ERR_RMA_SYNC on %d ranks", size);
}
