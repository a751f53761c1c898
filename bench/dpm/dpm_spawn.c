/* Spawn latency as the paper's section 6.1 defines it (MPI_Comm_spawn timed at the parent root,
 * the disconnect not counted), spawn rate (6.2, here whole spawn + disconnect cycles of one child,
 * as fast as they go), and the bounded loop of spawn / exchange / disconnect cycles. */
#define _POSIX_C_SOURCE 200809L
#include "dpm_spawn.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dpm_resources.h"
#include "stall.h"

static const char *self_exe(void) {
    static char path[PATH_MAX];
    if (!path[0]) {
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
        if (n > 0) path[n] = '\0';
    }
    return path[0] ? path : NULL;
}

char **dpm_child_argv(const char *mode, const dpm_options *o) {
    static char child[] = "--child", mode_[16], iters[16], stall[16], seconds[32], sizes[512],
                colls[128];
    static char o_iters[] = "--iters", o_stall[] = "--stall", o_seconds[] = "--seconds",
                o_sizes[] = "--sizes", o_colls[] = "--colls";
    static char *argv[] = {child,   mode_,   o_iters, iters, o_stall, stall,  o_seconds,
                           seconds, o_sizes, sizes,   o_colls, colls, NULL};
    snprintf(mode_, sizeof mode_, "%s", mode);
    snprintf(iters, sizeof iters, "%d", o->iters);
    snprintf(stall, sizeof stall, "%d", o->stall);
    snprintf(seconds, sizeof seconds, "%g", o->seconds);
    snprintf(colls, sizeof colls, "%s", o->colls);
    size_t at = 0;
    for (int i = 0; i < o->nsizes && at < sizeof sizes; ++i)
        at += (size_t)snprintf(sizes + at, sizeof sizes - at, "%s%ld", i ? "," : "", o->sizes[i]);
    return argv;
}

int dpm_spawn_children(MPI_Comm parents, int n, char **argv, MPI_Comm *inter) {
    int rank, codes[64], rc;
    MPI_Comm_rank(parents, &rank);
    MPI_Comm_set_errhandler(parents, MPI_ERRORS_RETURN);
    const char *exe = self_exe();
    if (!exe || n > 64) return -1;
    /* argv[0] of the spawn is the first argument: "--child". */
    rc = MPI_Comm_spawn(exe, argv, n, MPI_INFO_NULL, 0, parents, inter,
                        rank == 0 ? codes : MPI_ERRCODES_IGNORE);
    if (rc == MPI_SUCCESS) return 0;
    if (rank == 0) {
        char text[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(rc, text, &len);
        fprintf(stderr, "dpm_bench: MPI_Comm_spawn of %d children failed: %s\n", n, text);
        for (int i = 0; i < n; ++i)
            if (codes[i] != MPI_SUCCESS) {
                MPI_Error_string(codes[i], text, &len);
                fprintf(stderr, "dpm_bench:   child %d: %s\n", i, text);
            }
    }
    return -1;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One spawn of n children that disconnect at once; *took: the spawn's time at this process. */
static int spawn_once(const dpm_options *o, int n, double *took) {
    char **argv = dpm_child_argv("spawn", o);
    MPI_Comm inter;
    stall_arm(o->stall, "MPI_Comm_spawn", -1);
    double t0 = MPI_Wtime();
    if (dpm_spawn_children(MPI_COMM_WORLD, n, argv, &inter) != 0) return -1;
    *took = MPI_Wtime() - t0;
    stall_arm(o->stall, "MPI_Comm_disconnect after a spawn", -1);
    MPI_Comm_disconnect(&inter);
    stall_disarm();
    return 0;
}

int bench_spawn_latency(const dpm_options *o) {
    int rank, size;
    double warm, *t = malloc(sizeof *t * (size_t)o->iters);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!t || spawn_once(o, 1, &warm) != 0) return -1; /* untimed: page cache, first connections */
    for (int c = 0; c < o->nchildren; ++c) {
        int n = o->children[c];
        double sum = 0;
        for (int i = 0; i < o->iters; ++i) {
            MPI_Barrier(MPI_COMM_WORLD);
            if (spawn_once(o, n, &t[i]) != 0) return -1;
            sum += t[i];
        }
        qsort(t, (size_t)o->iters, sizeof *t, cmp_double);
        if (rank == 0) {
            printf("spawn %d %d %.3f %.3f %.3f %.3f %d\n", size, n, sum / o->iters * 1e3,
                   t[0] * 1e3, t[o->iters / 2] * 1e3, t[o->iters - 1] * 1e3, o->iters);
            fflush(stdout);
        }
    }
    free(t);
    return 0;
}

int bench_spawn_rate(const dpm_options *o) {
    int rank, size, more = 1;
    long cycles = 0;
    double took;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (spawn_once(o, o->children[0], &took) != 0) return -1;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    while (more) {
        if (spawn_once(o, o->children[0], &took) != 0) return -1;
        ++cycles;
        more = MPI_Wtime() - t0 < o->seconds; /* the root decides: every parent spawns as often */
        MPI_Bcast(&more, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    double secs = MPI_Wtime() - t0;
    if (rank == 0)
        printf("rate %d %d %.2f %ld %.2f\n", size, o->children[0], cycles / secs, cycles, secs);
    return 0;
}

/* One cycle: spawn one child, send it the cycle number, check that it answers number + 1. */
static int cycle(const dpm_options *o, long i, int rank) {
    MPI_Comm inter;
    stall_arm(o->stall, "MPI_Comm_spawn", i);
    if (dpm_spawn_children(MPI_COMM_WORLD, 1, dpm_child_argv("cycles", o), &inter) != 0) return -1;
    if (rank == 0) {
        long out = i, back = -1;
        stall_arm(o->stall, "the exchange with the child", i);
        MPI_Sendrecv(&out, 1, MPI_LONG, 0, 7, &back, 1, MPI_LONG, 0, 7, inter, MPI_STATUS_IGNORE);
        if (back != i + 1) {
            fprintf(stderr, "dpm_bench: cycle %ld: the child answered %ld, expected %ld\n", i, back,
                    i + 1);
            return -1;
        }
    }
    stall_arm(o->stall, "MPI_Comm_disconnect", i);
    MPI_Comm_disconnect(&inter);
    stall_disarm();
    return 0;
}

int bench_cycles(const dpm_options *o) {
    int rank, size, go = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    dpm_resources r0, r;
    dpm_resources_take(&r0);
    double t0 = MPI_Wtime(), last = t0;
    long i, last_i = 0;
    for (i = 0; i < o->count && go; ++i) {
        if (cycle(o, i, rank) != 0) return -1;
        if (rank == 0 && ((i + 1) % o->progress == 0 || i + 1 == o->count)) {
            double now = MPI_Wtime();
            dpm_resources_take(&r);
            printf("cycles %ld %d %.2f %.2f %d %d %ld %d %d\n", i + 1, o->count, now - t0,
                   (i + 1 - last_i) / (now - last), r.fds, r.threads, r.rss_kb, r.shm_files,
                   r.shm_mapped);
            fflush(stdout);
            last = now, last_i = i + 1;
        }
        go = o->budget <= 0 || MPI_Wtime() - t0 < o->budget;
        MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    double secs = MPI_Wtime() - t0;
    dpm_resources_take(&r);
    if (rank == 0)
        printf("cycles_done %ld %d %.2f %.2f %d %d %d %d %ld %ld %d %d\n", i, o->count, secs,
               i / secs, r0.fds, r.fds, r0.threads, r.threads, r0.rss_kb, r.rss_kb, r0.shm_files,
               r.shm_files);
    return 0;
}

int child_spawned(MPI_Comm parent, const dpm_options *o) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (o->mode == MODE_CYCLES && rank == 0) {
        long in;
        stall_arm(o->stall, "the exchange with the parent", -1);
        MPI_Recv(&in, 1, MPI_LONG, 0, 7, parent, MPI_STATUS_IGNORE);
        ++in;
        MPI_Send(&in, 1, MPI_LONG, 0, 7, parent);
    }
    stall_arm(o->stall, "MPI_Comm_disconnect from the parent", -1);
    MPI_Comm_disconnect(&parent);
    stall_disarm();
    return 0;
}
