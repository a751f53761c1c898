/* The three pairs of the point-to-point measurements and their buffers: two ranks of one job;
 * a parent and its one spawned child over the inter-communicator, then over the merged one. */
#include "dpm_p2p.h"

#include <stdio.h>
#include <stdlib.h>

#include "dpm_p2p_parts.h"
#include "dpm_spawn.h"
#include "stall.h"

int p2p_pair(MPI_Comm c, int peer, int initiator, const char *pair, const dpm_options *o) {
    long bytes = 8;
    for (int i = 0; i < o->nsizes; ++i)
        if (p2p_buffer_bytes(o->sizes[i]) > bytes) bytes = p2p_buffer_bytes(o->sizes[i]);
    p2p_ctx p = {c, peer, initiator, pair, malloc((size_t)bytes), malloc((size_t)bytes)};
    int rc = p.sbuf && p.rbuf ? 0 : -1;
    if (rc) fprintf(stderr, "dpm_bench: %s: no memory for two buffers of %ld bytes\n", pair, bytes);
    for (int i = 0; i < o->nsizes && rc == 0; ++i) rc = p2p_latency(&p, o->sizes[i], o);
    for (int i = 0; i < o->nsizes && rc == 0; ++i) rc = p2p_bandwidth(&p, o->sizes[i], o);
    free(p.sbuf);
    free(p.rbuf);
    return rc;
}

int bench_intra(const dpm_options *o) {
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "dpm_bench: intra runs on 2 processes, not %d\n", size);
        return -1;
    }
    return p2p_pair(MPI_COMM_WORLD, 1 - rank, rank == 0, "intra", o);
}

/* The parent and its one child: over the inter-communicator, then over the merged one. */
static int both_ways(MPI_Comm inter, int parent_side, const dpm_options *o) {
    MPI_Comm merged;
    if (p2p_pair(inter, 0, parent_side, "inter", o) != 0) return -1;
    stall_arm(o->stall, "MPI_Intercomm_merge of the parent and the child", -1);
    MPI_Intercomm_merge(inter, parent_side ? 0 : 1, &merged);
    int rc = p2p_pair(merged, parent_side ? 1 : 0, parent_side, "merged", o);
    MPI_Comm_free(&merged);
    return rc;
}

int bench_latency(const dpm_options *o) {
    int size;
    MPI_Comm inter;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 1) {
        fprintf(stderr, "dpm_bench: latency runs on 1 parent, not %d\n", size);
        return -1;
    }
    stall_arm(o->stall, "MPI_Comm_spawn", -1);
    if (dpm_spawn_children(MPI_COMM_WORLD, 1, dpm_child_argv("latency", o), &inter) != 0)
        return -1;
    if (both_ways(inter, 1, o) != 0) return -1;
    stall_arm(o->stall, "MPI_Comm_disconnect from the child", -1);
    MPI_Comm_disconnect(&inter);
    stall_disarm();
    return 0;
}

int child_latency(MPI_Comm parent, const dpm_options *o) {
    if (both_ways(parent, 0, o) != 0) return -1;
    MPI_Comm_disconnect(&parent);
    return 0;
}
