/* OSU-style ping-pong of 8 bytes: warm-up, then BATCHES batches of iters round trips; one-way
 * latency = half the mean round trip of a batch. The initiator reports the fastest and the median
 * batch. Every message carries the round trip's number, which the responder echoes and the
 * initiator checks, so a lost or stale message fails the run instead of timing it. */
#include "dpm_latency.h"

#include <stdio.h>
#include <stdlib.h>

#include "dpm_spawn.h"
#include "stall.h"

enum { BATCHES = 5, TAG = 9 };

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* initiator: 1 on the side that sends first and reports; out[0] best, out[1] median in us. */
static int pingpong(MPI_Comm c, int peer, int initiator, int iters, int stall_s, const char *what,
                    double out[2]) {
    long long msg;
    double batch[BATCHES];
    int warm = iters / 10 + 1;
    for (int b = -1; b < BATCHES; ++b) {
        int n = b < 0 ? warm : iters;
        char batch_what[160]; /* per batch: slow is not hung (Open MPI over tcp, loaded) */
        snprintf(batch_what, sizeof batch_what, "%s, %s %d", what, b < 0 ? "warm-up" : "batch",
                 b + 1);
        stall_arm(stall_s, batch_what, -1);
        double t0 = MPI_Wtime();
        for (long long i = 0; i < n; ++i) {
            if (initiator) {
                msg = i;
                MPI_Send(&msg, 1, MPI_LONG_LONG, peer, TAG, c);
                MPI_Recv(&msg, 1, MPI_LONG_LONG, peer, TAG, c, MPI_STATUS_IGNORE);
                if (msg != i) {
                    fprintf(stderr, "dpm_bench: ping-pong: round trip %lld came back as %lld\n", i,
                            msg);
                    return -1;
                }
            } else {
                MPI_Recv(&msg, 1, MPI_LONG_LONG, peer, TAG, c, MPI_STATUS_IGNORE);
                MPI_Send(&msg, 1, MPI_LONG_LONG, peer, TAG, c);
            }
        }
        if (b >= 0) batch[b] = (MPI_Wtime() - t0) / (2.0 * n) * 1e6;
    }
    stall_disarm();
    qsort(batch, BATCHES, sizeof *batch, cmp_double);
    out[0] = batch[0];
    out[1] = batch[BATCHES / 2];
    return 0;
}

int bench_intra(const dpm_options *o) {
    int rank, size;
    double us[2];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "dpm_bench: intra runs on 2 processes, not %d\n", size);
        return -1;
    }
    if (pingpong(MPI_COMM_WORLD, 1 - rank, rank == 0, o->iters, o->stall, "the intra-job ping-pong",
                 us) != 0)
        return -1;
    if (rank == 0) printf("latency intra %.3f %.3f %d\n", us[0], us[1], o->iters);
    return 0;
}

/* The parent and its one child: over the inter-communicator, then over the merged one; the
 * parent prints each result as soon as it has it. */
static int both_ways(MPI_Comm inter, int parent_side, int iters, int stall_s) {
    MPI_Comm merged;
    double us[2];
    if (pingpong(inter, 0, parent_side, iters, stall_s, "the ping-pong over the inter-communicator",
                 us) != 0)
        return -1;
    if (parent_side) printf("latency inter %.3f %.3f %d\n", us[0], us[1], iters);
    fflush(stdout);
    stall_arm(stall_s, "MPI_Intercomm_merge of the parent and the child", -1);
    MPI_Intercomm_merge(inter, parent_side ? 0 : 1, &merged);
    int rc = pingpong(merged, parent_side ? 1 : 0, parent_side, iters, stall_s,
                      "the ping-pong over the merged communicator", us);
    if (rc == 0 && parent_side) printf("latency merged %.3f %.3f %d\n", us[0], us[1], iters);
    MPI_Comm_free(&merged);
    return rc;
}

int bench_latency(const dpm_options *o) {
    int size;
    char iters[16], stall[16];
    static char child[] = "--child", mode[] = "latency";
    snprintf(iters, sizeof iters, "%d", o->iters);
    snprintf(stall, sizeof stall, "%d", o->stall);
    char *argv[] = {child, mode, iters, stall, NULL};
    MPI_Comm inter;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 1) {
        fprintf(stderr, "dpm_bench: latency runs on 1 parent, not %d\n", size);
        return -1;
    }
    stall_arm(o->stall, "MPI_Comm_spawn", -1);
    if (dpm_spawn_children(MPI_COMM_WORLD, 1, argv, &inter) != 0) return -1;
    if (both_ways(inter, 1, o->iters, o->stall) != 0) return -1;
    stall_arm(o->stall, "MPI_Comm_disconnect from the child", -1);
    MPI_Comm_disconnect(&inter);
    stall_disarm();
    return 0;
}

int child_latency(MPI_Comm parent, int iters, int stall_s) {
    if (both_ways(parent, 0, iters, stall_s) != 0) return -1;
    MPI_Comm_disconnect(&parent);
    return 0;
}
