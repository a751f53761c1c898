/* Spawning a wave of workers: the collective MPI_Comm_spawn of this same program over a parent
 * communicator (rank 0 is the master), then the settings broadcast to the new workers over the
 * new inter-communicator. Used by the master for both waves and by the first wave's workers when
 * they take part in the grow. */
#ifndef RENDER_SPAWN_H
#define RENDER_SPAWN_H

#include <mpi.h>

#include "protocol.h"

/* Collective over parents. count and cfg matter at rank 0 only. On success 0, *inter the new
 * inter-communicator and, at rank 0, *seconds the time MPI_Comm_spawn took; on failure a message
 * on stderr (the error class's text and every child's error code) and -1. */
int spawn_wave(MPI_Comm parents, int count, const int cfg[CFG_COUNT], MPI_Comm *inter,
               double *seconds);

#endif
