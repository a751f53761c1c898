/* The end of a render, the same on every process: the final reduction of the statistics over the
 * merged intra-communicator of the master and all workers, and the disconnects of every
 * communicator that spans jobs. */
#ifndef RENDER_FINISH_H
#define RENDER_FINISH_H

#include <mpi.h>

#include "protocol.h"

/* The communicators a process may hold, MPI_COMM_NULL where it holds none:
 *   inter1  master <-> first wave (the first wave's parent)
 *   intra1  master + first wave, merged (the parents of the grow spawn)
 *   inter2  master + first wave <-> second wave (the second wave's parent)
 *   all     everyone, merged: the tile queue after a grow, and the final reduction */
typedef struct {
    MPI_Comm inter1, intra1, inter2, all;
} links;

void links_init(links *l);
/* Frees all and intra1, then disconnects inter2 and inter1, in that order everywhere
 * (MPI_Comm_disconnect is collective). */
void links_disconnect(links *l);

/* Collective over all (rank 0: the master): every process's STAT_COUNT numbers gathered at rank
 * 0 into each (size * STAT_COUNT, rank order) and summed into sum; both ignored elsewhere. */
void finish_stats(MPI_Comm all, const long long mine[STAT_COUNT], long long *each,
                  long long sum[STAT_COUNT]);

#endif
