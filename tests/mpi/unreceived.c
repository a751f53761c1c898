/* Messages nobody receives must not keep a job from ending: after the last barrier every rank
 * sends each other rank a few messages (eager sizes, so MPI_Send completes without a match)
 * that no receive ever asks for, then finalizes. The receivers may already be in MPI_Finalize's
 * final fence, no longer polling; the job must still end, with status 0. */
#include "test_util.h"

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 0);
    unsigned char msg[4000];
    tu_fill(msg, sizeof msg, tu_seed(tu_rank, 0, sizeof msg, 0));
    tu_barrier();
    for (int i = 1; i < tu_size; ++i) {
        int to = (tu_rank + i) % tu_size;
        CHECK_MPI(MPI_Send(msg, (int)sizeof msg, MPI_BYTE, to, 5, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(msg, 100, MPI_BYTE, to, 6, MPI_COMM_WORLD));
    }
    if (tu_rank == 0) {
        printf("unreceived: PASS: %d ranks: every rank sent messages nobody received, then finalized\n", tu_size);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
