/* Connect/accept latency between two groups that already know each other: the connect exchange
 * alone (the part of a spawn that dpm_ud's ud and rc modes do differently), without starting
 * processes. The scale model (model.py) is checked against it. */
#ifndef DPM_BENCH_CONNECT_H
#define DPM_BENCH_CONNECT_H

#include <mpi.h>

#include "dpm_options.h"

/* Parents: spawn children[0] children, open a port, then iters accept/connect cycles.
 * Prints "connect P C first_us mean_us root_min_us iters" (first and mean: the maxima over all
 * processes; root_min: the parent root's fastest). */
int bench_connect(const dpm_options *o);
int child_connect(MPI_Comm parent, const dpm_options *o);

#endif
