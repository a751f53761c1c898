/* The main demo: a ray tracer whose master spawns its workers (MPI_Comm_spawn), hands out tiles
 * on demand, grows the crew mid-render and merges everyone for the final statistics.
 *
 *   mpirun -n 1 render --workers 4 --grow 2 --output render.png
 *
 * One binary: a process with a parent (MPI_Comm_get_parent) is a worker, the other the master. */
#include <mpi.h>
#include <stdio.h>

#include "master.h"
#include "options.h"
#include "worker.h"

int main(int argc, char **argv) {
    MPI_Comm parent;
    int status, size, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        status = worker_main(parent);
        MPI_Finalize();
        return status;
    }
    render_options o;
    int rc = render_parse_options(argc, argv, &o);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rc == 0 && size != 1) {
        if (rank == 0)
            fprintf(stderr,
                    "render: the master runs as one process (mpirun -n 1), not %d: it spawns "
                    "its workers itself\n",
                    size);
        rc = -1;
    }
    status = rc == 0 ? master_main(&o) : rc > 0 ? 0 : 2;
    MPI_Finalize();
    return status;
}
