/* A process that dies while the others wait on its flags in coll_shm_inter's shared-memory
 * barrier ends the whole job: the launcher sees the death and kills the others, which would
 * otherwise wait for ever (the engine's waits are unbounded by design: a flag of a dead process
 * never comes). Rank 1 crashes (SIGSEGV) after some barriers; the case expects the job to fail,
 * well within its timeout (a hang would be the timeout's 124), naming the rank.
 *
 * With --bytes N the collective is an Allreduce of N bytes instead (N from 32 KiB: the
 * single-copy path, where the others wait for the dead rank's stripes or read its buffers).
 *
 *   coll_shm_inter_death [--rounds N] [--bytes N] */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

/* A barrier, or an Allreduce of count floats (checked: a wrong sum is not a death). */
static void collective(int count, float *in, float *out)
{
    if (count == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        return;
    }
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < count; ++i) in[i] = 1.0f;
    MPI_Allreduce(in, out, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    if (out[count - 1] != (float)size) {
        fprintf(stderr, "coll_shm_inter_death: wrong sum %g\n", out[count - 1]);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
}

int main(int argc, char **argv)
{
    int rounds = 50;
    long bytes = 0;
    for (int i = 1; i + 1 < argc; ++i) {
        if (strcmp(argv[i], "--rounds") == 0) rounds = atoi(argv[i + 1]);
        if (strcmp(argv[i], "--bytes") == 0) bytes = atol(argv[i + 1]);
    }
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int count = (int)(bytes / (long)sizeof(float));
    float *in = calloc((size_t)count + 1, sizeof *in), *out = calloc((size_t)count + 1, sizeof *out);
    if (!in || !out) MPI_Abort(MPI_COMM_WORLD, 2);
    for (int r = 0; r < rounds; ++r) collective(count, in, out);
    if (rank == 1) {
        fprintf(stderr, "coll_shm_inter_death: rank 1 dies now\n");
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
    }
    /* The others wait on rank 1's flags until the launcher ends them. */
    for (;;) collective(count, in, out);
    MPI_Finalize();
    return 0;
}
