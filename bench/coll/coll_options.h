/* Command line of the collective benchmark: which collectives, which sizes, and how long to time
 * each point. Parsed by hand (not getopt_long) so that no implementation's argv handling can
 * interfere. */
#ifndef COLL_OPTIONS_H
#define COLL_OPTIONS_H

#include <stddef.h>

#define COLL_MAX_SIZES 32
#define COLL_MAX_KINDS 8
#define COLL_MAX_BATCHES 99

typedef struct {
    const char *colls[COLL_MAX_KINDS]; /* names, in the order given */
    int ncolls;
    size_t sizes[COLL_MAX_SIZES]; /* bytes, ascending, multiples of 4 (Reduce sums floats) */
    int nsizes;
    double seconds;           /* timed iterations of a point take about this long in all, */
    int batches;              /* split into this many batches (the median one is reported), */
    int min_iters, max_iters; /* each of at least and at most this many iterations */
    int skip;                /* warm-up iterations, fewer when they would exceed seconds / 4 */
    int osu;                 /* --mode osu: osu_bcast's loop (coll_bench.c, measure_osu) */
} coll_options;

/* Fills *opt with the defaults and then argv. Returns 0, or prints what was wrong (on rank 0)
 * and returns -1. */
int coll_parse_options(int argc, char **argv, int rank, coll_options *opt);

/* The largest size (what the buffers must hold per rank). */
size_t coll_max_size(const coll_options *opt);

#endif
