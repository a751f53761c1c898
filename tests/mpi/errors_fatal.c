/* Errors that end the job. Without options: under the default handler (MPI_ERRORS_ARE_FATAL) the
 * last rank sends to an invalid rank (MPI_COMM_WORLD's size) while every other rank waits in a
 * receive from it that no one will satisfy; the job must end with a non-zero status and a
 * message naming the call (the case file checks both). With --abort: the last rank calls
 * MPI_Abort(MPI_COMM_WORLD, 3) instead, and the job must end with status 3. A line with
 * "UNREACHABLE" in it means the job went on after the error. */
#include "test_util.h"

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int abort_mode = argc > 1 && strcmp(argv[1], "--abort") == 0;
    CHECK(argc == 1 || abort_mode, "unknown option '%s' (valid: --abort)", argv[1]);
    int last = tu_size - 1;
    tu_barrier(); /* everyone is up, so the failure has a whole job to end */
    if (tu_rank == last) {
        unsigned char byte = 0;
        if (abort_mode)
            MPI_Abort(MPI_COMM_WORLD, 3);
        else
            MPI_Send(&byte, 1, MPI_BYTE, tu_size, 0, MPI_COMM_WORLD);
        printf("%s: rank %d: UNREACHABLE: %s returned\n", tu_prog, tu_rank,
               abort_mode ? "MPI_Abort" : "MPI_Send to an invalid rank");
    } else {
        unsigned char byte;
        MPI_Recv(&byte, 1, MPI_BYTE, last, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("%s: rank %d: UNREACHABLE: a receive nobody sent to completed\n", tu_prog,
               tu_rank);
    }
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
