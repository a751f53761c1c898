/* Point-to-point latency and bandwidth between two processes, over message sizes: the paper's
 * section 6.4 and figure 7, measured between two ranks of one job (intra-group), between a parent
 * and its spawned child over the spawn's inter-communicator, and over the communicator merged
 * from it. */
#ifndef DPM_BENCH_P2P_H
#define DPM_BENCH_P2P_H

#include <mpi.h>

#include "dpm_options.h"

/* One pair on communicator c, peer's rank in it; the initiator prints
 * "latency PAIR SIZE best_us median_us round_trips" and "bandwidth PAIR SIZE MB/s messages"
 * per size. 0, or -1 after a message (a wrong byte, a lost message). */
int p2p_pair(MPI_Comm c, int peer, int initiator, const char *pair, const dpm_options *o);

/* Drivers: two ranks of one job; one parent and its spawned child (and its side). */
int bench_intra(const dpm_options *o);
int bench_latency(const dpm_options *o);
int child_latency(MPI_Comm parent, const dpm_options *o);

#endif
