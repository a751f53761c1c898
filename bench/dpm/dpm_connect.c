/* Both groups run the same loop: an inter-communicator barrier (untimed), MPI_Comm_accept at
 * the parents / MPI_Comm_connect at the children on one port (timed), one message over the new
 * inter-communicator from the parent root to the child root carrying the cycle's number
 * (untimed, checked: the connection must work, not only return), MPI_Comm_disconnect (untimed).
 * The port name travels once, over the spawn's inter-communicator. */
#include "dpm_connect.h"

#include <stdio.h>

#include "dpm_spawn.h"
#include "stall.h"

enum { PORT_TAG = 13, CHECK_TAG = 14 };

/* One accept (parent side) or connect; *took its time here. */
static int connect_once(const char *port, int parent_side, long i, const dpm_options *o,
                        MPI_Comm inter, double *took) {
    MPI_Comm nc;
    int rank, rc;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    stall_arm(o->stall, "the inter-communicator barrier before a connect", i);
    MPI_Barrier(inter);
    stall_arm(o->stall, parent_side ? "MPI_Comm_accept" : "MPI_Comm_connect", i);
    double t0 = MPI_Wtime();
    rc = parent_side ? MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &nc)
                     : MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &nc);
    *took = MPI_Wtime() - t0;
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "dpm_bench: %s failed in cycle %ld\n",
                parent_side ? "MPI_Comm_accept" : "MPI_Comm_connect", i);
        return -1;
    }
    stall_arm(o->stall, "the check message over the new inter-communicator", i);
    if (rank == 0) {
        long v = i;
        if (parent_side) MPI_Send(&v, 1, MPI_LONG, 0, CHECK_TAG, nc);
        else MPI_Recv(&v, 1, MPI_LONG, 0, CHECK_TAG, nc, MPI_STATUS_IGNORE);
        if (v != i) {
            fprintf(stderr, "dpm_bench: connect cycle %ld: the check message said %ld\n", i, v);
            return -1;
        }
    }
    stall_arm(o->stall, "MPI_Comm_disconnect after a connect", i);
    MPI_Comm_disconnect(&nc);
    stall_disarm();
    return 0;
}

/* out[0]: the first connect, out[1]: the mean of the others, out[2]: the fastest. */
static int connect_loop(const char *port, int parent_side, MPI_Comm inter, const dpm_options *o,
                        double out[3]) {
    double t, sum = 0;
    if (connect_once(port, parent_side, 0, o, inter, &out[0]) != 0) return -1;
    out[2] = 1e30;
    for (long i = 1; i <= o->iters; ++i) {
        if (connect_once(port, parent_side, i, o, inter, &t) != 0) return -1;
        sum += t;
        if (t < out[2]) out[2] = t;
    }
    out[1] = sum / o->iters;
    return 0;
}

/* The maxima of first and mean over everyone, at rank 0 of the merged communicator (a parent). */
static void reduce_max(MPI_Comm inter, int high, const double mine[3], double max[2]) {
    MPI_Comm merged;
    MPI_Intercomm_merge(inter, high, &merged);
    MPI_Reduce((void *)mine, max, 2, MPI_DOUBLE, MPI_MAX, 0, merged);
    MPI_Comm_free(&merged);
}

int bench_connect(const dpm_options *o) {
    int rank, size, n = o->children[0];
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm inter;
    double mine[3], max[2];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    stall_arm(o->stall, "MPI_Comm_spawn", -1);
    if (dpm_spawn_children(MPI_COMM_WORLD, n, dpm_child_argv("connect", o), &inter) != 0) return -1;
    if (rank == 0) {
        stall_arm(o->stall, "MPI_Open_port", -1);
        if (MPI_Open_port(MPI_INFO_NULL, port) != MPI_SUCCESS) {
            fprintf(stderr, "dpm_bench: MPI_Open_port failed\n");
            return -1;
        }
        MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, PORT_TAG, inter);
    }
    if (connect_loop(port, 1, inter, o, mine) != 0) return -1;
    reduce_max(inter, 0, mine, max);
    if (rank == 0) {
        printf("connect %d %d %.1f %.1f %.1f %d\n", size, n, max[0] * 1e6, max[1] * 1e6,
               mine[2] * 1e6, o->iters);
        MPI_Close_port(port);
    }
    MPI_Comm_disconnect(&inter);
    return 0;
}

int child_connect(MPI_Comm parent, const dpm_options *o) {
    int rank;
    char port[MPI_MAX_PORT_NAME] = "";
    double mine[3], unused[2];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    stall_arm(o->stall, "the port name from the parent", -1);
    if (rank == 0) MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, PORT_TAG, parent, MPI_STATUS_IGNORE);
    if (connect_loop(port, 0, parent, o, mine) != 0) return -1;
    reduce_max(parent, 1, mine, unused);
    MPI_Comm_disconnect(&parent);
    return 0;
}
