/* A worker: a process spawned by the master (or by the master and the first wave, when the render
 * grows), which asks for tiles until there are none left. */
#ifndef RENDER_WORKER_H
#define RENDER_WORKER_H

#include <mpi.h>

/* Runs the worker's side over its parent inter-communicator; returns the process's exit status. */
int worker_main(MPI_Comm parent);

#endif
