/* Barrier and gathering over point-to-point calls (see p2p_sync.h). The tags are
 * above those the benchmarks use, so a straggling benchmark message can never match them. */
#include "p2p_sync.h"

#include <mpi.h>
#include <stddef.h>

enum { TAG_BARRIER_IN = 30001, TAG_BARRIER_OUT = 30002, TAG_GATHER = 30003 };

void p2p_barrier(void) {
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (rank == 0) {
        for (int r = 1; r < n; r++)
            MPI_Recv(NULL, 0, MPI_BYTE, r, TAG_BARRIER_IN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int r = 1; r < n; r++) MPI_Send(NULL, 0, MPI_BYTE, r, TAG_BARRIER_OUT, MPI_COMM_WORLD);
    } else {
        MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_BARRIER_IN, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_BARRIER_OUT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

void p2p_gather_double(double value, double *all) {
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (rank != 0) {
        MPI_Send(&value, 1, MPI_DOUBLE, 0, TAG_GATHER, MPI_COMM_WORLD);
        return;
    }
    all[0] = value;
    for (int r = 1; r < n; r++)
        MPI_Recv(&all[r], 1, MPI_DOUBLE, r, TAG_GATHER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
