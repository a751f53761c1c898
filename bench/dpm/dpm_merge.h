/* Intercomm_merge latency after a spawn (the paper's section 6.3). */
#ifndef DPM_BENCH_MERGE_H
#define DPM_BENCH_MERGE_H

#include <mpi.h>

#include "dpm_options.h"

/* Parents: spawn children[0] children, time the first merge, then iters merge + free cycles. */
int bench_merge(const dpm_options *o);
/* The children's side, with the options the parent passed (dpm_child_argv). */
int child_merge(MPI_Comm parent, const dpm_options *o);

#endif
