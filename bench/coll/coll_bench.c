/* Collective latency, the methodology of the OSU collective benchmarks (osu_barrier, osu_bcast,
 * osu_reduce, osu_allreduce, osu_allgather, osu_alltoall): for each collective and size, one call
 * with its result checked on every rank, untimed warm-up iterations, then timed iterations, each
 * timing one call on every rank and followed by an (untimed) MPI_Barrier so that every call
 * starts from a synchronised state; Barrier itself is timed back to back. Every rank's mean time
 * per call is gathered, and the reported latency is the maximum over the ranks of that mean
 * (OSU's "Max Latency"; the mean and minimum over the ranks are printed too).
 *
 * The number of iterations is decided while running: rank 0 keeps going until the timed
 * iterations took --seconds of wall time (barriers included) and at least --min-iters ran, or
 * --max-iters ran. That bounds every point on an implementation whose collectives take
 * milliseconds when ranks outnumber cores, without giving the fast ones too few iterations.
 * The control messages (go on / stop) are point-to-point and sent between iterations, outside
 * the timed calls.
 *
 * Output on rank 0: '#' header lines, then "COLL SIZE median_batch_us lowest_batch_us
 * highest_batch_us iterations" per point (SIZE 0 for barrier), flushed at once so that a run cut
 * short by a timeout keeps the points it finished.
 *
 * --mode osu instead times every point exactly as osu_bcast does (measure_osu): a fixed number of
 * iterations, no batches, and the average over the ranks; "COLL SIZE avg_us min_us max_us
 * iterations". The two modes disagree where one rank's time differs from the others' or where
 * rare long stalls dominate the mean (README.md, "Two ways of timing one broadcast"). */
#include "../pt2pt/affinity.h"
#include "../pt2pt/buffers.h"
#include "../pt2pt/p2p_sync.h"
#include "coll_options.h"
#include "collectives.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_PLAN = 30020 };

/* Rank 0's decision after a chunk of iterations, sent to every other rank. */
typedef struct {
    int go_on; /* 0: stop */
    int chunk; /* iterations in the next chunk */
} plan;

static void share_plan(plan *p, int rank, int ranks) {
    int msg[2] = {p->go_on, p->chunk};
    if (rank == 0) {
        for (int r = 1; r < ranks; r++) MPI_Send(msg, 2, MPI_INT, r, TAG_PLAN, MPI_COMM_WORLD);
    } else {
        MPI_Recv(msg, 2, MPI_INT, 0, TAG_PLAN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        p->go_on = msg[0];
        p->chunk = msg[1];
    }
}

/* How long to run: stop after max iterations, or once `seconds` have passed and min ran; the
 * next chunk is what the mean so far says would fill the remaining time (doubling at most). */
typedef struct {
    int min, max;
    double seconds;
} bounds;

static plan next_plan(const bounds *lim, int done, int chunk, double elapsed) {
    plan p = {0, 0};
    if (done >= lim->max || (done >= lim->min && elapsed >= lim->seconds)) return p;
    double per_iter = elapsed / done;
    double fits = per_iter > 0 ? (lim->seconds - elapsed) / per_iter : 2.0 * chunk;
    long next = fits < 1 ? 1 : fits > 2.0 * chunk ? 2L * chunk : (long)fits;
    if (done < lim->min && next < lim->min - done) next = lim->min - done;
    if (next > lim->max - done) next = lim->max - done;
    p.go_on = 1;
    p.chunk = (int)next;
    return p;
}

/* One chunk of iterations. A sized collective: each call is timed alone and followed by a
 * barrier. Barrier: the chunk is timed as a whole. Returns the seconds spent in the calls. */
static double run_chunk(const coll_kind *kind, const coll_buffers *b, int chunk) {
    if (!kind->has_size) {
        double t0 = MPI_Wtime();
        for (int i = 0; i < chunk; i++) kind->call(b);
        return MPI_Wtime() - t0;
    }
    double in_calls = 0;
    for (int i = 0; i < chunk; i++) {
        double t0 = MPI_Wtime();
        kind->call(b);
        in_calls += MPI_Wtime() - t0;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return in_calls;
}

/* Iterations until the bounds say stop; returns how many ran, and the seconds spent in the
 * calls on this rank in *in_calls. */
static int run_iterations(const coll_kind *kind, const coll_buffers *b, const bounds *lim,
                          double *in_calls) {
    int done = 0;
    plan p = {lim->max > 0, 1};
    double start = MPI_Wtime();
    *in_calls = 0;
    while (p.go_on) {
        *in_calls += run_chunk(kind, b, p.chunk);
        done += p.chunk;
        if (b->rank == 0) p = next_plan(lim, done, p.chunk, MPI_Wtime() - start);
        share_plan(&p, b->rank, b->ranks);
    }
    return done;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One batch of timed iterations: the maximum over the ranks of their mean time per call (us),
 * on rank 0; the iterations it ran in *iters. */
static double timed_batch(const coll_kind *kind, const coll_buffers *b, const bounds *lim,
                          double *all, int *iters) {
    double in_calls;
    *iters = run_iterations(kind, b, lim, &in_calls);
    p2p_gather_double(in_calls * 1e6 / *iters, all);
    double max = all[0];
    for (int r = 1; r < b->ranks; r++)
        if (all[r] > max) max = all[r];
    return max;
}

/* One point: the checked call, the warm-up, then --batches batches of timed iterations that
 * share --seconds; prints the median batch, the lowest and highest, and the iterations. */
static void measure(const coll_kind *kind, coll_buffers *b, const coll_options *opt,
                    double *all) {
    kind->fill(b);
    kind->call(b);
    kind->check(b);
    p2p_barrier();
    double in_calls;
    bounds warm = {0, opt->skip, opt->seconds / 4};
    run_iterations(kind, b, &warm, &in_calls);
    bounds timed = {opt->min_iters, opt->max_iters, opt->seconds / opt->batches};
    double batch[COLL_MAX_BATCHES];
    int iters = 0;
    for (int k = 0; k < opt->batches; k++) {
        int in_batch;
        batch[k] = timed_batch(kind, b, &timed, all, &in_batch);
        iters += in_batch;
    }
    if (b->rank != 0) return;
    qsort(batch, (size_t)opt->batches, sizeof batch[0], compare_doubles);
    int m = opt->batches;
    double median = m % 2 ? batch[m / 2] : (batch[m / 2 - 1] + batch[m / 2]) / 2;
    printf("%s %zu %.3f %.3f %.3f %d\n", kind->name, b->size, median, batch[0], batch[m - 1],
           iters);
    fflush(stdout);
}

/* One point as osu_bcast (and its siblings) time it: after the checked call, --skip untimed and
 * --max-iters timed calls in one loop, each call timed alone on every rank and followed by
 * MPI_Barrier (Barrier itself back to back); each rank's mean time per call, and over the ranks
 * the average (OSU's default output, printed first), the minimum and the maximum. Unlike the
 * batches above, a rank's mean covers every timed call, stalls included, and the ranks that
 * finish early (the root of a Bcast) pull the average down. */
static void measure_osu(const coll_kind *kind, coll_buffers *b, const coll_options *opt,
                        double *all) {
    kind->fill(b);
    kind->call(b);
    kind->check(b);
    MPI_Barrier(MPI_COMM_WORLD);
    double in_calls = 0;
    for (int i = 0; i < opt->skip + opt->max_iters; i++) {
        double t0 = MPI_Wtime();
        kind->call(b);
        if (i >= opt->skip) in_calls += MPI_Wtime() - t0;
        if (kind->has_size) MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    p2p_gather_double(in_calls * 1e6 / opt->max_iters, all);
    if (b->rank != 0) return;
    double min = all[0], max = all[0], sum = 0;
    for (int r = 0; r < b->ranks; r++) {
        sum += all[r];
        if (all[r] < min) min = all[r];
        if (all[r] > max) max = all[r];
    }
    printf("%s %zu %.3f %.3f %.3f %d\n", kind->name, b->size, sum / b->ranks, min, max,
           opt->max_iters);
    fflush(stdout);
}

static void print_header(const coll_options *opt, int ranks) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    version[strcspn(version, "\n")] = '\0'; /* MPICH's string runs over many lines */
    if (opt->osu) {
        printf("# collective latency, osu mode: per rank the mean time per call (us) of %d timed "
               "calls after %d untimed ones, each followed by MPI_Barrier (barrier itself back "
               "to back); root 0\n# library: %s\n# ranks: %d\n"
               "# coll size_bytes avg_over_ranks_us min_over_ranks_us max_over_ranks_us "
               "iterations\n",
               opt->max_iters, opt->skip, version, ranks);
        fflush(stdout);
        return;
    }
    printf("# collective latency: max over the ranks of the mean time per call (us), median of "
           "the batches; barrier between timed calls, barrier itself back to back; root 0\n");
    printf("# library: %s\n# ranks: %d; per point: %d batches of timed iterations, %g s in all, "
           "%d to %d per batch, after up to %d warm-up ones (at most %g s)\n",
           version, ranks, opt->batches, opt->seconds, opt->min_iters, opt->max_iters, opt->skip,
           opt->seconds / 4);
    printf("# coll size_bytes median_batch_us lowest_batch_us highest_batch_us iterations\n");
    fflush(stdout);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    coll_options opt;
    if (coll_parse_options(argc, argv, rank, &opt)) MPI_Abort(MPI_COMM_WORLD, 2);
    size_t bytes = coll_buffer_bytes(coll_max_size(&opt), ranks);
    coll_buffers b = {pt2pt_alloc(bytes, 'a'), pt2pt_alloc(bytes, 'b'), 0, rank, ranks};
    double *all = malloc(sizeof(double) * (size_t)ranks);
    if (rank == 0) print_header(&opt, ranks);
    pt2pt_print_affinity();
    for (int k = 0; k < opt.ncolls; k++) {
        const coll_kind *kind = coll_find(opt.colls[k]);
        for (int s = 0; s < (kind->has_size ? opt.nsizes : 1); s++) {
            b.size = kind->has_size ? opt.sizes[s] : 0;
            if (opt.osu) measure_osu(kind, &b, &opt, all);
            else measure(kind, &b, &opt, all);
        }
    }
    free(all);
    free(b.send);
    free(b.recv);
    MPI_Finalize();
    return 0;
}
