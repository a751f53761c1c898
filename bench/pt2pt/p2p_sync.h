/* Barrier and gathering of one number per rank, built on point-to-point calls only: the
 * benchmarks must run on an MPI that has no collectives yet. */
#ifndef PT2PT_P2P_SYNC_H
#define PT2PT_P2P_SYNC_H

/* Every rank of MPI_COMM_WORLD waits until all have arrived. */
void p2p_barrier(void);

/* Rank 0 receives every rank's value in all[rank] (all: comm-size entries, only read on rank 0). */
void p2p_gather_double(double value, double *all);

#endif
