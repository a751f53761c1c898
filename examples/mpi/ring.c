/* A token goes round the ring of ranks, growing by one element per hop, then a large message
 * (past the eager limit, so it takes the rendezvous path) makes the same trip. Rank 0 checks
 * what comes back and prints how long each lap took. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int lap(int rank, int size, size_t bytes) {
    unsigned char *buf = malloc(bytes ? bytes : 1);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size, ok = 1;
    double t0 = MPI_Wtime();
    if (rank == 0) {
        for (size_t i = 0; i < bytes; ++i) buf[i] = (unsigned char)(i * 7);
        MPI_Send(buf, (int)bytes, MPI_BYTE, next, 1, MPI_COMM_WORLD);
        memset(buf, 0, bytes);
        MPI_Recv(buf, (int)bytes, MPI_BYTE, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (size_t i = 0; i < bytes && ok; ++i) ok = buf[i] == (unsigned char)(i * 7);
        printf("lap of %d ranks with %zu bytes: %.1f us, data %s\n", size, bytes, (MPI_Wtime() - t0) * 1e6,
               ok ? "intact" : "CORRUPTED");
    } else {
        MPI_Recv(buf, (int)bytes, MPI_BYTE, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, (int)bytes, MPI_BYTE, next, 1, MPI_COMM_WORLD);
    }
    free(buf);
    return ok;
}

int main(int argc, char **argv) {
    int rank, size, ok = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0) printf("ring needs at least 2 ranks\n");
        MPI_Finalize();
        return 0;
    }
    size_t sizes[] = {8, 4096, 1 << 20, 8 << 20};
    for (int i = 0; i < 4; ++i) ok &= lap(rank, size, sizes[i]);
    MPI_Finalize();
    return ok ? 0 : 1;
}
