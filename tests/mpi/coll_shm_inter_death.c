/* A process that dies while the others wait on its flags in coll_shm_inter's shared-memory
 * barrier ends the whole job: the launcher sees the death and kills the others, which would
 * otherwise wait for ever (the engine's waits are unbounded by design: a flag of a dead process
 * never comes). Rank 1 crashes (SIGSEGV) after some barriers; the case expects the job to fail,
 * well within its timeout (a hang would be the timeout's 124), naming the rank.
 *
 *   coll_shm_inter_death [--rounds N] */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

int main(int argc, char **argv)
{
    int rounds = 50;
    for (int i = 1; i + 1 < argc; ++i)
        if (strcmp(argv[i], "--rounds") == 0) rounds = atoi(argv[i + 1]);
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int r = 0; r < rounds; ++r) MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        fprintf(stderr, "coll_shm_inter_death: rank 1 dies now\n");
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
    }
    /* The others wait on rank 1's flags until the launcher ends them. */
    for (;;) MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
