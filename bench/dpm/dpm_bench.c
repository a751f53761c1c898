/* The DPM benchmark (bench/dpm/README.md): one program for the parents (run.sh starts it with
 * a mode) and their children (started by MPI_Comm_spawn with "--child MODE OPTIONS..."). Plain
 * MPI-2.2, built with Plexus's, Open MPI's and MPICH's compiler wrappers alike.
 *
 *   mpirun -n P dpm_bench spawn --children 1,2,4,8 --iters 10     spawn latency, ms
 *   mpirun -n P dpm_bench rate --seconds 3                         spawn + disconnect cycles/s
 *   mpirun -n 1 dpm_bench cycles --count 1000 --progress 100       the bounded long loop
 *   mpirun -n P dpm_bench merge --children P --iters 100           Intercomm_merge latency, us
 *   mpirun -n P dpm_bench connect --children C --iters 20          accept/connect latency, us
 *   mpirun -n 1 dpm_bench latency --sizes 8,1k,4M --seconds 0.5    parent <-> child: latency, MB/s
 *   mpirun -n 2 dpm_bench intra --sizes 8,1k,4M --seconds 0.5      two ranks of one job
 *   mpirun -n P dpm_bench coll --children C --sizes 8,2M           inter-communicator collectives
 *
 * Output: one line per measurement (a word, then numbers; run.sh's report.awk reads them);
 * a wait longer than --stall seconds ends the process with a HUNG line naming the wait. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpm_coll.h"
#include "dpm_connect.h"
#include "dpm_merge.h"
#include "dpm_options.h"
#include "dpm_p2p.h"
#include "dpm_spawn.h"
#include "stall.h"

/* argv: "--child MODE OPTIONS...", parsed like the parent's own "MODE OPTIONS...". */
static int child_main(int argc, char **argv, MPI_Comm parent) {
    dpm_options o;
    stall_init("child");
    if (argc < 2 || dpm_parse(argc - 1, argv + 1, &o) != 0) return 2;
    switch (o.mode) {
        case MODE_SPAWN:
        case MODE_CYCLES: return child_spawned(parent, &o);
        case MODE_MERGE: return child_merge(parent, &o);
        case MODE_LATENCY: return child_latency(parent, &o);
        case MODE_CONNECT: return child_connect(parent, &o);
        case MODE_COLL: return child_coll(parent, &o);
        default: break;
    }
    fprintf(stderr, "dpm_bench: child: no child side for mode '%s'\n", dpm_mode_name(o.mode));
    return 2;
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
        case MODE_CONNECT: return bench_connect(&o);
        case MODE_COLL: return bench_coll(&o);
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
