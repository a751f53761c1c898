/* Both groups run the same loop: an inter-communicator barrier, then the first merge (which
 * may set up connections between the groups: the number the 100 us target is about),
 * then iters merges each followed by MPI_Comm_free, only the merges timed. The reported numbers
 * are the maxima over all processes of the first merge and of the mean later merge, reduced over
 * one more merged communicator.
 *
 * Each process also notes when it entered and left the barrier and the first two merges, and
 * how often it gave its CPU away (voluntary context switches: a yield that switched, a sleep, a
 * blocking wait) or lost it (involuntary: preempted) during the first merge; the parent root
 * prints one merge_timeline line per process (README, "Where the first merge's time goes"),
 * since the first merge's maximum over processes is mostly how far apart they leave the
 * barrier. */
#define _GNU_SOURCE
#include "dpm_merge.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "dpm_spawn.h"
#include "stall.h"

/* What one process noted, as doubles so that one MPI_Gather collects it. Times are
 * CLOCK_MONOTONIC seconds, comparable between the processes of one node. */
enum { T_START, T_BAR_IN, T_BAR_OUT, T_M1_OUT, T_M2_IN, T_M2_OUT, VCSW, IVCSW, CPU_IN, CPU_OUT, PID, NSTAMPS };

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void switches(long out[2]) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    out[0] = ru.ru_nvcsw;
    out[1] = ru.ru_nivcsw;
}

static void merge_loop(MPI_Comm inter, int high, int iters, int stall_s, double out[2], double st[NSTAMPS]) {
    MPI_Comm merged;
    long sw0[2], sw1[2];
    st[T_START] = now();
    stall_arm(stall_s, "the inter-communicator barrier before the first merge", -1);
    st[T_BAR_IN] = now();
    MPI_Barrier(inter);
    st[T_BAR_OUT] = now();
    stall_arm(stall_s, "the first MPI_Intercomm_merge after the spawn", -1);
    switches(sw0);
    st[CPU_IN] = sched_getcpu();
    double t0 = MPI_Wtime();
    MPI_Intercomm_merge(inter, high, &merged);
    out[0] = MPI_Wtime() - t0;
    st[T_M1_OUT] = now();
    st[CPU_OUT] = sched_getcpu();
    switches(sw1);
    st[VCSW] = (double)(sw1[0] - sw0[0]);
    st[IVCSW] = (double)(sw1[1] - sw0[1]);
    MPI_Comm_free(&merged);
    double sum = 0;
    for (int i = 0; i < iters; ++i) {
        stall_arm(stall_s, "MPI_Intercomm_merge", i);
        if (i == 0) st[T_M2_IN] = now();
        t0 = MPI_Wtime();
        MPI_Intercomm_merge(inter, high, &merged);
        sum += MPI_Wtime() - t0;
        if (i == 0) st[T_M2_OUT] = now();
        MPI_Comm_free(&merged);
    }
    out[1] = sum / iters;
    st[PID] = (double)getpid();
    stall_disarm();
}

/* One line per process of the merged communicator (parents first), times in us from the moment
 * the last process entered the barrier (when the barrier could complete). */
static void print_timeline(int parents, int children, const double *all, int n) {
    double last_in = all[T_BAR_IN];
    for (int i = 1; i < n; ++i)
        if (all[i * NSTAMPS + T_BAR_IN] > last_in) last_in = all[i * NSTAMPS + T_BAR_IN];
    printf("# merge_timeline_base %.6f s (CLOCK_MONOTONIC of the last barrier entry)\n", last_in);
    printf("# merge_timeline P C process side pid cpu_in cpu_out  start bar_in bar_out m1_out m2_in m2_out "
           "(us from the last barrier entry)  first_merge_us vcsw ivcsw\n");
    for (int i = 0; i < n; ++i) {
        const double *s = all + i * NSTAMPS;
        printf("merge_timeline %d %d %d %s %.0f %.0f %.0f  %.1f %.1f %.1f %.1f %.1f %.1f  %.1f %.0f %.0f\n",
               parents, children, i, i < parents ? "parent" : "child", s[PID], s[CPU_IN], s[CPU_OUT],
               (s[T_START] - last_in) * 1e6, (s[T_BAR_IN] - last_in) * 1e6, (s[T_BAR_OUT] - last_in) * 1e6,
               (s[T_M1_OUT] - last_in) * 1e6, (s[T_M2_IN] - last_in) * 1e6, (s[T_M2_OUT] - last_in) * 1e6,
               (s[T_M1_OUT] - s[T_BAR_OUT]) * 1e6, s[VCSW], s[IVCSW]);
    }
}

/* Maxima over everyone and everyone's stamps, at rank 0 of the merged communicator (a parent:
 * parents merge low). all: room for NSTAMPS per process at that rank, else NULL. */
static void collect(MPI_Comm inter, int high, const double mine[2], double max[2], double st[NSTAMPS],
                    double *all) {
    MPI_Comm merged;
    MPI_Intercomm_merge(inter, high, &merged);
    MPI_Reduce((void *)mine, max, 2, MPI_DOUBLE, MPI_MAX, 0, merged);
    MPI_Gather(st, NSTAMPS, MPI_DOUBLE, all, NSTAMPS, MPI_DOUBLE, 0, merged);
    MPI_Comm_free(&merged);
}

int bench_merge(const dpm_options *o) {
    int rank, size, n = o->children[0];
    MPI_Comm inter;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 64) {
        if (rank == 0) fprintf(stderr, "dpm_bench: merge: %d parents, more than the 64 it notes stamps for\n", size);
        return -1;
    }
    stall_arm(o->stall, "MPI_Comm_spawn", -1);
    if (dpm_spawn_children(MPI_COMM_WORLD, n, dpm_child_argv("merge", o), &inter) != 0) return -1;
    double mine[2], max[2], st[NSTAMPS], all[2 * 64 * NSTAMPS];
    merge_loop(inter, 0, o->iters, o->stall, mine, st);
    collect(inter, 0, mine, max, st, all);
    if (rank == 0) {
        printf("merge %d %d %.2f %.2f %d\n", size, n, max[0] * 1e6, max[1] * 1e6, o->iters);
        print_timeline(size, n, all, size + n);
    }
    MPI_Comm_disconnect(&inter);
    return 0;
}

int child_merge(MPI_Comm parent, const dpm_options *o) {
    double mine[2], unused[2], st[NSTAMPS];
    merge_loop(parent, 1, o->iters, o->stall, mine, st);
    collect(parent, 1, mine, unused, st, NULL);
    MPI_Comm_disconnect(&parent);
    return 0;
}
