/* A process that dies inside a passive-target epoch of an osc_sm window, holding the target's
 * exclusive lock, ends the whole job: the others wait for that lock (the waits are unbounded by
 * design: a lock word of a dead process is never released), the launcher sees the death and ends
 * them. The case expects the job to fail within its timeout. The windows' memory is MPI_Alloc_mem
 * memfds, which have no name: nothing can be left in /dev/shm whatever dies when. --static: a
 * window over a static int, which osc_sm declines: osc_rdma's passive target without the target
 * holds the lock word in its control segment (anonymous where descriptors can be borrowed, else
 * named and unlinked once every member attached), and the same must happen. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <mpi.h>

int main(int argc, char **argv)
{
    static int word;
    int rank = 0, *mem = &word, one = 1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2 || strcmp(argv[1], "--static") != 0) MPI_Alloc_mem(sizeof(int), MPI_INFO_NULL, &mem);
    *mem = 0;
    MPI_Win_create(mem, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
        MPI_Barrier(MPI_COMM_WORLD); /* the others go for the lock only once rank 1 holds it */
        fprintf(stderr, "osc_sm_death: rank 1 dies holding rank 0's lock\n");
        fflush(stderr);
        raise(SIGTERM); /* not SIGKILL: its status 137 is what the harness reads as a timeout */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win); /* never granted: the launcher ends the job */
    MPI_Win_unlock(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
