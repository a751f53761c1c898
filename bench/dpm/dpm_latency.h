/* 8-byte ping-pong latency between two processes of one job (intra-group) and between a parent
 * and its spawned child (inter-group: over the spawn's inter-communicator, then over the
 * communicator merged from it): the paper's section 6.4 and figure 7. */
#ifndef DPM_BENCH_LATENCY_H
#define DPM_BENCH_LATENCY_H

#include <mpi.h>

#include "dpm_options.h"

int bench_intra(const dpm_options *o);
int bench_latency(const dpm_options *o);
int child_latency(MPI_Comm parent, int iters, int stall_s);

#endif
