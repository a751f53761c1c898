/* pi by the midpoint rule, shared out with collectives: rank 0 broadcasts the number of
 * intervals, every rank sums its share, MPI_Reduce adds the shares at rank 0. Then the ranks split
 * into two halves, each half checks its own partial sum with MPI_Allreduce, and the halves join
 * through an inter-communicator over which the lower half broadcasts its total to the upper.
 *
 *   mpicc -o pi pi.c && mpirun -n 4 ./pi [intervals]
 *   mpirun -n 4 --mca coll_base_verbose 1 ./pi     # which component serves what */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double share(long n, int rank, int size) {
    double h = 1.0 / (double)n, sum = 0.0;
    long i;
    for (i = rank; i < n; i += size) {
        double x = h * ((double)i + 0.5);
        sum += 4.0 / (1.0 + x * x);
    }
    return h * sum;
}

int main(int argc, char **argv) {
    int rank, size, color, half_rank;
    long n = 0;
    double mine, pi = 0.0, half_sum = 0.0, lower_total = 0.0;
    MPI_Comm half, inter;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) n = argc > 1 ? atol(argv[1]) : 10000000L;
    MPI_Bcast(&n, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    mine = share(n, rank, size);
    MPI_Reduce(&mine, &pi, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("pi ~ %.12f with %ld intervals on %d ranks (error %.2e)\n", pi, n, size, pi - 3.14159265358979323846);

    if (size < 2) {
        MPI_Finalize();
        return 0;
    }
    color = rank < size / 2 ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Comm_rank(half, &half_rank);
    MPI_Allreduce(&mine, &half_sum, 1, MPI_DOUBLE, MPI_SUM, half);
    /* Leaders: rank 0 of each half; world rank of the other half's leader is 0 or size/2. */
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color == 0 ? size / 2 : 0, 7, &inter);
    if (color == 0)
        MPI_Bcast(&half_sum, 1, MPI_DOUBLE, half_rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
    else
        MPI_Bcast(&lower_total, 1, MPI_DOUBLE, 0, inter);
    if (color == 1 && half_rank == 0)
        printf("upper half: its share %.12f + the lower half's %.12f (sent over an inter-communicator) = %.12f\n",
               half_sum, lower_total, half_sum + lower_total);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
