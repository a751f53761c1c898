/* The DPM benchmark (bench/dpm/README.md): one program for the parents (run.sh starts it with
 * a mode) and their children (started by MPI_Comm_spawn with "--child MODE [N]"). Plain MPI-2.2,
 * built with Plexus's, Open MPI's and MPICH's compiler wrappers alike.
 *
 *   mpirun -n P dpm_bench spawn --children 1,2,4,8 --iters 10     spawn latency, ms
 *   mpirun -n P dpm_bench rate --seconds 3                         spawn + disconnect cycles/s
 *   mpirun -n 1 dpm_bench cycles --count 1000 --progress 100       the bounded long loop
 *   mpirun -n P dpm_bench merge --children P --iters 100           Intercomm_merge latency, us
 *   mpirun -n 1 dpm_bench latency --iters 20000                    parent <-> child, 8 bytes, us
 *   mpirun -n 2 dpm_bench intra --iters 20000                      two ranks of one job, 8 bytes
 *
 * Output: one line per measurement (a word, then numbers; run.sh's report.awk reads them);
 * a wait longer than --stall seconds ends the process with a HUNG line naming the wait. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpm_latency.h"
#include "dpm_merge.h"
#include "dpm_options.h"
#include "dpm_spawn.h"
#include "stall.h"

static int child_main(int argc, char **argv, MPI_Comm parent) {
    const char *mode = argc > 2 ? argv[2] : "";
    int n = argc > 3 ? atoi(argv[3]) : 0, stall_s = argc > 4 ? atoi(argv[4]) : 60;
    stall_init("child");
    if (!strcmp(mode, "spawn") || !strcmp(mode, "cycles")) return child_spawned(parent, mode);
    if (!strcmp(mode, "merge") && n > 0) return child_merge(parent, n);
    if (!strcmp(mode, "latency") && n > 0)
        return child_latency(parent, n, stall_s > 0 ? stall_s : 60);
    fprintf(stderr, "dpm_bench: child: unknown mode '%s'\n", mode);
    return -1;
}

static int parent_main(int argc, char **argv) {
    dpm_options o;
    if (dpm_parse(argc, argv, &o) != 0) return 2;
    stall_init("parent");
    switch (o.mode) {
        case MODE_SPAWN: return bench_spawn_latency(&o);
        case MODE_RATE: return bench_spawn_rate(&o);
        case MODE_CYCLES: return bench_cycles(&o);
        case MODE_MERGE: return bench_merge(&o);
        case MODE_LATENCY: return bench_latency(&o);
        case MODE_INTRA: return bench_intra(&o);
    }
    return 2;
}

int main(int argc, char **argv) {
    MPI_Comm parent;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    int rc = parent != MPI_COMM_NULL ? child_main(argc, argv, parent) : parent_main(argc, argv);
    if (rc == 0) {
        MPI_Finalize();
        return 0;
    }
    /* A failure ends every process of the job, children included, with the status. */
    MPI_Abort(MPI_COMM_WORLD, rc < 0 ? 1 : rc);
    return 1;
}
