/* Inter-communicator collective latency over the inter-communicator of a spawn (the paper's
 * section 6.5 and 7.6): Bcast, Reduce, Allreduce, Reduce_scatter, Allgather, Alltoall, Barrier
 * between P parents and their C children. */
#ifndef DPM_BENCH_COLL_H
#define DPM_BENCH_COLL_H

#include <mpi.h>

#include "dpm_options.h"

/* Parents: spawn children[0] children, then every collective of o->colls at every size of
 * o->sizes. Prints "coll NAME P C SIZE min_us avg_us max_us calls" per point: the minimum,
 * average and maximum over all processes of each one's mean time per call. */
int bench_coll(const dpm_options *o);
int child_coll(MPI_Comm parent, const dpm_options *o);

#endif
