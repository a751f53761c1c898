/* Both groups run the same loop. Per collective and size: one call whose result is checked
 * (a wrong byte fails the run instead of being timed), warm-up calls, a trial that decides the
 * number of calls (the parent root's clock, broadcast), then the timed calls, each after an
 * untimed inter-communicator barrier (the paper puts one before each Reduce against process
 * skew; here before every call, alike for all). Each process's mean per call is reduced to the
 * minimum, average and maximum over everyone: for the rooted collectives these differ, which is
 * why the paper says they must be reported.
 *
 * Roots: Bcast and Reduce at rank 0 of the parents (MPI_ROOT there, MPI_PROC_NULL at the other
 * parents, root 0 at the children). Reductions are MPI_FLOAT sums of 1.0; Allgather and Alltoall
 * sizes are bytes per block; Reduce_scatter scatters size / 4 floats over the receiving group. */
#include "dpm_coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpm_spawn.h"
#include "stall.h"

typedef struct {
    MPI_Comm inter, merged; /* merged: parents low, for agreeing on counts and reducing times */
    int parent_side, lr, ln, rn;
    char *sbuf, *rbuf;
    int *counts; /* Reduce_scatter's recvcounts, one per local process */
} coll_ctx;

static const char *const order[] = {"bcast",    "reduce",   "allreduce", "reduce_scatter",
                                    "allgather", "alltoall", "barrier"};

static int floats(long size) {
    return size / 4 > 0 ? (int)(size / 4) : 1;
}

/* The byte every block from local rank r of a group carries. */
static char block_byte(int parent_side, int r) {
    return (char)((parent_side ? 'A' : 'a') + r % 26);
}

static void run_one(const char *coll, const coll_ctx *c, long size) {
    int count = (int)size;
    int root = c->parent_side ? (c->lr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    if (!strcmp(coll, "barrier")) MPI_Barrier(c->inter);
    else if (!strcmp(coll, "bcast")) MPI_Bcast(c->sbuf, count, MPI_CHAR, root, c->inter);
    else if (!strcmp(coll, "reduce"))
        MPI_Reduce(c->sbuf, c->rbuf, floats(size), MPI_FLOAT, MPI_SUM, root, c->inter);
    else if (!strcmp(coll, "allreduce"))
        MPI_Allreduce(c->sbuf, c->rbuf, floats(size), MPI_FLOAT, MPI_SUM, c->inter);
    else if (!strcmp(coll, "reduce_scatter"))
        MPI_Reduce_scatter(c->sbuf, c->rbuf, c->counts, MPI_FLOAT, MPI_SUM, c->inter);
    else if (!strcmp(coll, "allgather"))
        MPI_Allgather(c->sbuf, count, MPI_CHAR, c->rbuf, count, MPI_CHAR, c->inter);
    else if (!strcmp(coll, "alltoall"))
        MPI_Alltoall(c->sbuf, count, MPI_CHAR, c->rbuf, count, MPI_CHAR, c->inter);
}

/* What each process sends: floats of 1.0 for the reductions, a pattern at the Bcast root, its
 * block byte otherwise. */
static void fill(const char *coll, coll_ctx *c, long size) {
    long bytes = size * (c->ln > c->rn ? c->ln : c->rn);
    memset(c->sbuf, block_byte(c->parent_side, c->lr), (size_t)bytes);
    memset(c->rbuf, 0, (size_t)bytes);
    if (strstr(coll, "reduce")) {
        const float one = 1.0f;
        for (long i = 0; i + 4 <= bytes; i += 4) memcpy(c->sbuf + i, &one, 4);
    } else if (!strcmp(coll, "bcast") && c->parent_side && c->lr == 0) {
        for (long i = 0; i < size; i++) c->sbuf[i] = (char)(i * 7 + 1);
    }
    int total = floats(size);
    for (int i = 0; i < c->ln; ++i) c->counts[i] = total / c->ln + (i < total % c->ln);
}

static int wrong(const char *coll, long size, const char *what) {
    fprintf(stderr, "dpm_bench: %s of %ld bytes: %s\n", coll, size, what);
    return -1;
}

static int sum_is(const char *buf, int n, float want) {
    for (int i = 0; i < n; ++i) {
        float f;
        memcpy(&f, buf + 4L * i, 4);
        if (f != want) return 0;
    }
    return 1;
}

/* The first call's result, where this process receives one. */
static int check(const char *coll, const coll_ctx *c, long size) {
    char other = 0;
    if (!strcmp(coll, "bcast") && !c->parent_side) {
        for (long i = 0; i < size; i++)
            if (c->sbuf[i] != (char)(i * 7 + 1)) return wrong(coll, size, "wrong byte delivered");
    } else if (!strcmp(coll, "reduce") && c->parent_side && c->lr == 0) {
        if (!sum_is(c->rbuf, floats(size), (float)c->rn)) return wrong(coll, size, "wrong sum at the root");
    } else if (!strcmp(coll, "allreduce")) {
        if (!sum_is(c->rbuf, floats(size), (float)c->rn)) return wrong(coll, size, "wrong sum");
    } else if (!strcmp(coll, "reduce_scatter")) {
        if (!sum_is(c->rbuf, c->counts[c->lr], (float)c->rn)) return wrong(coll, size, "wrong sum");
    } else if (!strcmp(coll, "allgather") || !strcmp(coll, "alltoall")) {
        for (int r = 0; r < c->rn; ++r) {
            other = block_byte(!c->parent_side, r);
            for (long i = 0; i < size; ++i)
                if (c->rbuf[(long)r * size + i] != other)
                    return wrong(coll, size, "a block from the wrong process or damaged");
        }
    }
    return 0;
}

/* Calls that fill the point's time, decided at the parent root from a short trial of what one
 * timed call costs in all, its barrier included (Open MPI's inter-communicator barrier over tcp
 * takes 50 ms on a loaded machine here, its Bcast at the root microseconds). */
static long agree_calls(const char *coll, const coll_ctx *c, long size, double seconds) {
    double t0 = MPI_Wtime();
    for (int w = 0; w < 3; w++) {
        MPI_Barrier(c->inter);
        run_one(coll, c, size);
    }
    double per = (MPI_Wtime() - t0) / 3;
    MPI_Bcast(&per, 1, MPI_DOUBLE, 0, c->merged);
    long calls = per > 0 ? (long)(seconds / per) : 1000;
    return calls < 10 ? 10 : calls > 10000 ? 10000 : calls;
}

static int point(const char *coll, coll_ctx *c, long size, const dpm_options *o) {
    char what[96];
    snprintf(what, sizeof what, "inter-communicator %s of %ld bytes", coll, size);
    stall_arm(o->stall, what, -1);
    fill(coll, c, size);
    run_one(coll, c, size);
    int bad = check(coll, c, size) != 0, any_bad = 0;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, c->merged);
    if (any_bad) return -1;
    long calls = agree_calls(coll, c, size, o->seconds);
    double total = 0;
    for (long i = 0; i < calls; i++) {
        if (i % 64 == 63) stall_arm(o->stall, what, -1); /* slow is not hung: progress re-arms */
        MPI_Barrier(c->inter);
        double s = MPI_Wtime();
        run_one(coll, c, size);
        total += MPI_Wtime() - s;
    }
    double mean = total / (double)calls * 1e6, lo = 0, hi = 0, sum = 0;
    MPI_Reduce(&mean, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, c->merged);
    MPI_Reduce(&mean, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, c->merged);
    MPI_Reduce(&mean, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, c->merged);
    stall_disarm();
    int me;
    MPI_Comm_rank(c->merged, &me);
    if (me == 0) {
        printf("coll %s %d %d %ld %.3f %.3f %.3f %ld\n", coll, c->ln, c->rn, size, lo,
               sum / (c->ln + c->rn), hi, calls);
        fflush(stdout);
    }
    return 0;
}

static int coll_loop(MPI_Comm inter, int parent_side, const dpm_options *o) {
    coll_ctx c = {inter, MPI_COMM_NULL, parent_side, 0, 0, 0, NULL, NULL, NULL};
    MPI_Comm_rank(inter, &c.lr);
    MPI_Comm_size(inter, &c.ln);
    MPI_Comm_remote_size(inter, &c.rn);
    stall_arm(o->stall, "MPI_Intercomm_merge before the collectives", -1);
    MPI_Intercomm_merge(inter, !parent_side, &c.merged);
    long largest = 8;
    for (int i = 0; i < o->nsizes; ++i) largest = o->sizes[i] > largest ? o->sizes[i] : largest;
    size_t bytes = (size_t)largest * (size_t)(c.ln > c.rn ? c.ln : c.rn) + 64;
    c.sbuf = malloc(bytes), c.rbuf = malloc(bytes), c.counts = malloc(sizeof(int) * (size_t)c.ln);
    int rc = c.sbuf && c.rbuf && c.counts ? 0 : -1;
    for (int k = 0; k < 7 && rc == 0; k++) {
        if (!dpm_list_has(o->colls, order[k])) continue;
        int barrier = !strcmp(order[k], "barrier");
        for (int i = 0; i < (barrier ? 1 : o->nsizes) && rc == 0; i++)
            rc = point(order[k], &c, barrier ? 0 : o->sizes[i], o);
    }
    free(c.sbuf), free(c.rbuf), free(c.counts);
    MPI_Comm_free(&c.merged);
    return rc;
}

int bench_coll(const dpm_options *o) {
    MPI_Comm inter;
    stall_arm(o->stall, "MPI_Comm_spawn", -1);
    if (dpm_spawn_children(MPI_COMM_WORLD, o->children[0], dpm_child_argv("coll", o), &inter) != 0)
        return -1;
    if (coll_loop(inter, 1, o) != 0) return -1;
    stall_arm(o->stall, "MPI_Comm_disconnect from the children", -1);
    MPI_Comm_disconnect(&inter);
    stall_disarm();
    return 0;
}

int child_coll(MPI_Comm parent, const dpm_options *o) {
    if (coll_loop(parent, 0, o) != 0) return -1;
    MPI_Comm_disconnect(&parent);
    return 0;
}
