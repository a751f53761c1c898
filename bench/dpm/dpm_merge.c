/* Both groups run the same loop: an inter-communicator barrier, then the first merge (which
 * may set up connections between the groups: the number the 100 us target is about),
 * then iters merges each followed by MPI_Comm_free, only the merges timed. The reported numbers
 * are the maxima over all processes of the first merge and of the mean later merge, reduced over
 * one more merged communicator. */
#include "dpm_merge.h"

#include <stdio.h>
#include <string.h>

#include "dpm_spawn.h"
#include "stall.h"

static void merge_loop(MPI_Comm inter, int high, int iters, int stall_s, double out[2]) {
    MPI_Comm merged;
    stall_arm(stall_s, "the inter-communicator barrier before the first merge", -1);
    MPI_Barrier(inter);
    stall_arm(stall_s, "the first MPI_Intercomm_merge after the spawn", -1);
    double t0 = MPI_Wtime();
    MPI_Intercomm_merge(inter, high, &merged);
    out[0] = MPI_Wtime() - t0;
    MPI_Comm_free(&merged);
    double sum = 0;
    for (int i = 0; i < iters; ++i) {
        stall_arm(stall_s, "MPI_Intercomm_merge", i);
        t0 = MPI_Wtime();
        MPI_Intercomm_merge(inter, high, &merged);
        sum += MPI_Wtime() - t0;
        MPI_Comm_free(&merged);
    }
    out[1] = sum / iters;
    stall_disarm();
}

/* Maxima over everyone, at rank 0 of the merged communicator (a parent: parents merge low). */
static void reduce_max(MPI_Comm inter, int high, const double mine[2], double max[2]) {
    MPI_Comm merged;
    MPI_Intercomm_merge(inter, high, &merged);
    MPI_Reduce((void *)mine, max, 2, MPI_DOUBLE, MPI_MAX, 0, merged);
    MPI_Comm_free(&merged);
}

int bench_merge(const dpm_options *o) {
    int rank, size, n = o->children[0];
    MPI_Comm inter;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    stall_arm(o->stall, "MPI_Comm_spawn", -1);
    if (dpm_spawn_children(MPI_COMM_WORLD, n, dpm_child_argv("merge", o), &inter) != 0) return -1;
    double mine[2], max[2];
    merge_loop(inter, 0, o->iters, o->stall, mine);
    reduce_max(inter, 0, mine, max);
    if (rank == 0)
        printf("merge %d %d %.2f %.2f %d\n", size, n, max[0] * 1e6, max[1] * 1e6, o->iters);
    MPI_Comm_disconnect(&inter);
    return 0;
}

int child_merge(MPI_Comm parent, const dpm_options *o) {
    double mine[2], unused[2];
    merge_loop(parent, 1, o->iters, o->stall, mine);
    reduce_max(parent, 1, mine, unused);
    MPI_Comm_disconnect(&parent);
    return 0;
}
