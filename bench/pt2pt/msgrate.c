/* All-pairs message rate: every rank pre-posts a window of receives from every other rank, then
 * sends a window of small messages to every other rank (starting with its right-hand neighbour,
 * so that the ranks do not all send to the same peer first) and waits for everything; that
 * repeats, the first rounds untimed. The rate is all messages of all ranks over the slowest rank's
 * time, in millions per second. Prints "size Mmsg/s" per size (default: 8 bytes) on rank 0.
 * MPI-1 point-to-point calls only.
 *
 * With --seconds, the rounds go on for that long instead of a fixed number: with more ranks than
 * cores, an implementation that never yields is a thousand times slower, and a count that suits
 * one implementation takes minutes with the other or a few milliseconds with the first. */
#include "affinity.h"
#include "buffers.h"
#include "options.h"
#include "p2p_sync.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { TAG_DATA = 1, TAG_CHECKED = 2 };

typedef struct {
    int rank, n, window;
    MPI_Request *reqs;   /* 2 * (n-1) * window */
    MPI_Status *stats;   /* as many (MPI_STATUSES_IGNORE trips gcc 12 on MPICH's mpi.h) */
    unsigned char *sbuf; /* one message: every send reads the same one */
    unsigned char *rbuf; /* a slot per receive: (n-1) * window messages */
} exchange;

/* One round: receives from every peer posted, then sends to every peer, then all completed. */
static void round_trip_all(const exchange *x, size_t size, int tag) {
    int k = 0;
    for (int d = 1; d < x->n; d++) {
        int from = (x->rank - d + x->n) % x->n;
        for (int w = 0; w < x->window; w++, k++)
            MPI_Irecv(x->rbuf + (size_t)k * size, (int)size, MPI_BYTE, from, tag, MPI_COMM_WORLD,
                      &x->reqs[k]);
    }
    for (int d = 1; d < x->n; d++) {
        int to = (x->rank + d) % x->n;
        for (int w = 0; w < x->window; w++, k++)
            MPI_Isend(x->sbuf, (int)size, MPI_BYTE, to, tag, MPI_COMM_WORLD, &x->reqs[k]);
    }
    MPI_Waitall(k, x->reqs, x->stats);
}

/* Rounds until `seconds` have passed on rank 0's clock since t0, after `skip` untimed ones.
 * Rank 0 says whether a round is the last in the first byte of the messages it sends in it, so
 * that every rank stops after the same round. Returns the timed rounds. */
static long timed_rounds(const exchange *x, size_t size, int skip, double seconds, double *t0) {
    int from_root = (x->rank - 1) * x->window; /* first receive slot filled by rank 0 */
    long rounds = 0;
    int last = 0;
    for (int i = -skip; !last; i++) {
        if (i == 0) *t0 = MPI_Wtime();
        if (x->rank == 0) x->sbuf[0] = last = i >= 0 && MPI_Wtime() - *t0 >= seconds;
        round_trip_all(x, size, TAG_DATA);
        if (x->rank != 0) last = x->rbuf[(size_t)from_root * size] != 0;
        if (i >= 0) rounds++;
    }
    return rounds;
}

static void checked_round(const exchange *x, size_t size) {
    pt2pt_fill(x->sbuf, size, x->rank);
    round_trip_all(x, size, TAG_CHECKED);
    for (int d = 1; d < x->n; d++) {
        int from = (x->rank - d + x->n) % x->n;
        for (int w = 0; w < x->window; w++)
            pt2pt_check(x->rbuf + ((size_t)(d - 1) * x->window + w) * size, size, from, x->rank,
                        "msgrate");
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n < 2) {
        if (rank == 0) fprintf(stderr, "msgrate: needs at least 2 ranks, got %d\n", n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    pt2pt_options opt = {.iters = 500,
                         .skip = 20,
                         .iters_large = 100,
                         .skip_large = 5,
                         .large_from = 8192,
                         .window = 64};
    opt.sizes[0] = 8;
    opt.nsizes = 1;
    if (pt2pt_parse_options(argc, argv, rank, &opt)) MPI_Abort(MPI_COMM_WORLD, 2);

    size_t slots = (size_t)(n - 1) * opt.window, max = pt2pt_max_size(&opt);
    exchange x = {rank,
                  n,
                  opt.window,
                  malloc(sizeof(MPI_Request) * 2 * slots),
                  malloc(sizeof(MPI_Status) * 2 * slots),
                  pt2pt_alloc(max, 'a'),
                  pt2pt_alloc(slots * max, 'b')};
    double *all = malloc(sizeof(double) * (size_t)n);
    if (rank == 0) {
        pt2pt_print_header(
            "msgrate: every rank streams windows to every other rank at once, "
            "millions of messages per second, all ranks together",
            &opt, n);
        printf("# size_bytes Mmsg_per_s\n");
    }
    pt2pt_print_affinity();
    if (opt.seconds > 0 && opt.sizes[0] == 0) {
        if (rank == 0) fprintf(stderr, "msgrate: --seconds needs messages of at least 1 byte\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int s = 0; s < opt.nsizes; s++) {
        size_t size = opt.sizes[s];
        int iters = pt2pt_iters(&opt, size), skip = pt2pt_skip(&opt, size);
        checked_round(&x, size);
        p2p_barrier();
        double t0 = MPI_Wtime();
        long rounds = iters;
        if (opt.seconds > 0) {
            rounds = timed_rounds(&x, size, skip, opt.seconds, &t0);
        } else {
            for (int i = 0; i < skip + iters; i++) {
                if (i == skip) t0 = MPI_Wtime();
                round_trip_all(&x, size, TAG_DATA);
            }
        }
        p2p_gather_double(MPI_Wtime() - t0, all);
        if (rank == 0) {
            double slowest = 0;
            for (int r = 0; r < n; r++)
                if (all[r] > slowest) slowest = all[r];
            printf("%zu %.3f\n", size, (double)n * (double)slots * (double)rounds / slowest / 1e6);
            fflush(stdout);
        }
    }
    free(all);
    free(x.reqs);
    free(x.stats);
    free(x.sbuf);
    free(x.rbuf);
    MPI_Finalize();
    return 0;
}
