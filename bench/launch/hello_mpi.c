/* Hello world for the launch benchmark, built against Plexus, Open MPI and MPICH: init, ask who we are,
 * finalize. What is timed is the whole job, from the launcher's start to its exit. */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Finalize();
    return rank >= size;
}
