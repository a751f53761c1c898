/* Command-line options shared by the point-to-point benchmarks (latency, bandwidth, msgrate), and
 * the message sizes and iteration counts they imply. */
#ifndef PT2PT_OPTIONS_H
#define PT2PT_OPTIONS_H

#include <stddef.h>

#define PT2PT_MAX_SIZES 64

typedef struct {
    size_t sizes[PT2PT_MAX_SIZES]; /* message sizes in bytes, ascending */
    int nsizes;
    int iters, skip;             /* timed and warm-up iterations up to large_from bytes */
    int iters_large, skip_large; /* the same above large_from */
    size_t large_from;
    int window;     /* messages in flight per peer (bandwidth, msgrate) */
    double seconds; /* > 0: time each size for this long instead (latency) */
} pt2pt_options;

/* Sets the sizes to 0 and the powers of two up to max_size. */
void pt2pt_powers_of_two(size_t max_size, pt2pt_options *opt);

/* Overrides the defaults already in *opt with argv. Returns 0, or prints what was wrong (on rank 0)
 * and returns -1. */
int pt2pt_parse_options(int argc, char **argv, int rank, pt2pt_options *opt);

/* The timed and warm-up iteration counts for one message size. */
int pt2pt_iters(const pt2pt_options *opt, size_t size);
int pt2pt_skip(const pt2pt_options *opt, size_t size);

/* Prints, on the calling rank, the '#' lines that open a benchmark's output: what it measures,
 * the MPI library (first line of MPI_Get_library_version), the ranks and the iteration counts. */
void pt2pt_print_header(const char *what, const pt2pt_options *opt, int nranks);

/* The largest size in opt->sizes (what the buffers must hold). */
size_t pt2pt_max_size(const pt2pt_options *opt);

#endif
