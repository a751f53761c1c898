/* Streaming bandwidth, the methodology of OSU's osu_bw: rank 0 posts a window of MPI_Isend's of
 * one size, waits for all of them, and rank 1, having posted as many MPI_Irecv's into one buffer,
 * answers with a 4-byte ack once all arrived; that repeats, the first rounds untimed. Bandwidth is
 * bytes sent / time, in MB/s of 10^6 bytes like OSU. Prints "size MB/s" per size on rank 0.
 * Exactly 2 ranks. MPI-1 point-to-point calls only. */
#include "affinity.h"
#include "buffers.h"
#include "options.h"
#include "p2p_sync.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_DATA = 1, TAG_ACK = 2, TAG_CHECKED = 3 };

static void checked_message(int rank, size_t size, unsigned char *sbuf, unsigned char *rbuf) {
    if (rank == 0) {
        pt2pt_fill(sbuf, size, 0);
        MPI_Send(sbuf, (int)size, MPI_BYTE, 1, TAG_CHECKED, MPI_COMM_WORLD);
    } else {
        MPI_Recv(rbuf, (int)size, MPI_BYTE, 0, TAG_CHECKED, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        pt2pt_check(rbuf, size, 0, 1, "bandwidth");
    }
}

/* Seconds rank 0 took for `iters` windows after `skip` untimed ones (0 on rank 1). */
static double stream(int rank, size_t size, int iters, int skip, int window, MPI_Request *reqs,
                     MPI_Status *stats, unsigned char *sbuf, unsigned char *rbuf) {
    char ack[4] = {0};
    double t0 = MPI_Wtime();
    for (int i = 0; i < skip + iters; i++) {
        if (i == skip) t0 = MPI_Wtime();
        if (rank == 0) {
            for (int w = 0; w < window; w++)
                MPI_Isend(sbuf, (int)size, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD, &reqs[w]);
            MPI_Waitall(window, reqs, stats);
            MPI_Recv(ack, 4, MPI_BYTE, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            for (int w = 0; w < window; w++)
                MPI_Irecv(rbuf, (int)size, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, &reqs[w]);
            MPI_Waitall(window, reqs, stats);
            MPI_Send(ack, 4, MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD);
        }
    }
    return rank == 0 ? MPI_Wtime() - t0 : 0.0;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n != 2) {
        if (rank == 0) fprintf(stderr, "bandwidth: needs exactly 2 ranks, got %d\n", n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* osu_bw's defaults */
    pt2pt_options opt = {.iters = 100,
                         .skip = 10,
                         .iters_large = 20,
                         .skip_large = 2,
                         .large_from = 8192,
                         .window = 64};
    pt2pt_powers_of_two(4u << 20, &opt);
    if (pt2pt_parse_options(argc, argv, rank, &opt)) MPI_Abort(MPI_COMM_WORLD, 2);
    if (opt.seconds > 0) {
        if (rank == 0)
            fprintf(stderr, "%s: --seconds is for latency and msgrate; use --iters\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (opt.sizes[0] == 0) { /* the bandwidth of empty messages means nothing: start at 1 B */
        memmove(opt.sizes, opt.sizes + 1, sizeof(size_t) * (size_t)--opt.nsizes);
        if (opt.nsizes == 0) {
            if (rank == 0) fprintf(stderr, "bandwidth: no size above 0 bytes to measure\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }

    size_t max = pt2pt_max_size(&opt);
    unsigned char *sbuf = pt2pt_alloc(max, 'a'), *rbuf = pt2pt_alloc(max, 'b');
    /* statuses filled like osu_bw's (and MPI_STATUSES_IGNORE trips gcc 12 on MPICH's mpi.h) */
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)opt.window);
    MPI_Status *stats = malloc(sizeof(MPI_Status) * (size_t)opt.window);
    if (rank == 0) {
        pt2pt_print_header(
            "bandwidth: streaming windows of MPI_Isend from rank 0 to rank 1, "
            "4-byte ack per window",
            &opt, n);
        printf("# size_bytes MB_per_s\n");
    }
    pt2pt_print_affinity();
    for (int s = 0; s < opt.nsizes; s++) {
        size_t size = opt.sizes[s];
        checked_message(rank, size, sbuf, rbuf);
        p2p_barrier();
        int iters = pt2pt_iters(&opt, size);
        double t =
            stream(rank, size, iters, pt2pt_skip(&opt, size), opt.window, reqs, stats, sbuf, rbuf);
        if (rank == 0) {
            printf("%zu %.2f\n", size, (double)size * iters * opt.window / t / 1e6);
            fflush(stdout);
        }
    }
    free(reqs);
    free(stats);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
