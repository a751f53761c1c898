/* Ping-pong latency, the methodology of OSU's osu_latency (2 ranks) and osu_multi_lat (more):
 * rank i and rank i+N/2 form a pair, all pairs ping-pong at once, and the one-way latency is half
 * the mean round trip, averaged over the pairs. Warm-up round trips are not timed. Prints
 * "size average_us worst_pair_us" per message size on rank 0, flushed at once, so that a run cut
 * short by a timeout still shows the sizes it finished. MPI-1 point-to-point calls only.
 *
 * With --seconds, each pair ping-pongs for that long instead of a fixed number of times. That is
 * for more ranks than cores: with fixed counts a pair that happens to run alone finishes before
 * the others start competing for the cores, and its luck decides the number; timed, all pairs
 * compete during the whole measurement, and a slow implementation cannot make the run endless. */
#include "affinity.h"
#include "buffers.h"
#include "options.h"
#include "p2p_sync.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { TAG_PING = 1, TAG_CHECKED = 2, TAG_LAST_PING = 3 };

/* One round trip with the data checked at both ends, before the size is timed. */
static void checked_round_trip(int rank, int partner, int pinger, size_t size, unsigned char *sbuf,
                               unsigned char *rbuf) {
    if (pinger) {
        pt2pt_fill(sbuf, size, rank);
        MPI_Send(sbuf, (int)size, MPI_BYTE, partner, TAG_CHECKED, MPI_COMM_WORLD);
        MPI_Recv(rbuf, (int)size, MPI_BYTE, partner, TAG_CHECKED, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        pt2pt_check(rbuf, size, partner, rank, "latency");
    } else {
        MPI_Recv(rbuf, (int)size, MPI_BYTE, partner, TAG_CHECKED, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        pt2pt_check(rbuf, size, partner, rank, "latency");
        pt2pt_fill(sbuf, size, rank);
        MPI_Send(sbuf, (int)size, MPI_BYTE, partner, TAG_CHECKED, MPI_COMM_WORLD);
    }
}

/* Seconds taken by `iters` round trips after `skip` untimed ones. */
static double ping_pong(int partner, int pinger, size_t size, int iters, int skip,
                        unsigned char *sbuf, unsigned char *rbuf) {
    double t0 = MPI_Wtime();
    for (int i = 0; i < skip + iters; i++) {
        if (i == skip) t0 = MPI_Wtime();
        if (pinger) {
            MPI_Send(sbuf, (int)size, MPI_BYTE, partner, TAG_PING, MPI_COMM_WORLD);
            MPI_Recv(rbuf, (int)size, MPI_BYTE, partner, TAG_PING, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(rbuf, (int)size, MPI_BYTE, partner, TAG_PING, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(sbuf, (int)size, MPI_BYTE, partner, TAG_PING, MPI_COMM_WORLD);
        }
    }
    return MPI_Wtime() - t0;
}

/* Round trips until `seconds` have passed on the pinger's clock (its last ping carries another tag
 * to say so), after `skip` untimed ones. Returns the timed round trips, and on the pinger the
 * seconds they took in *elapsed. */
static long timed_ping_pong(int partner, int pinger, size_t size, int skip, double seconds,
                            unsigned char *sbuf, unsigned char *rbuf, double *elapsed) {
    ping_pong(partner, pinger, size, 0, skip, sbuf, rbuf);
    long count = 0;
    double t0 = MPI_Wtime();
    if (pinger) {
        int last;
        do {
            last = MPI_Wtime() - t0 >= seconds;
            MPI_Send(sbuf, (int)size, MPI_BYTE, partner, last ? TAG_LAST_PING : TAG_PING,
                     MPI_COMM_WORLD);
            MPI_Recv(rbuf, (int)size, MPI_BYTE, partner, TAG_PING, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            count++;
        } while (!last);
        *elapsed = MPI_Wtime() - t0;
    } else {
        MPI_Status status;
        do {
            MPI_Recv(rbuf, (int)size, MPI_BYTE, partner, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
            MPI_Send(sbuf, (int)size, MPI_BYTE, partner, TAG_PING, MPI_COMM_WORLD);
            count++;
        } while (status.MPI_TAG != TAG_LAST_PING);
    }
    return count;
}

/* One-way latency in microseconds of this rank's pair for one size (0 on the pong side). */
static double measure(const pt2pt_options *opt, int partner, int pinger, size_t size,
                      unsigned char *sbuf, unsigned char *rbuf) {
    int skip = pt2pt_skip(opt, size);
    if (opt->seconds > 0) {
        double elapsed = 0;
        long trips =
            timed_ping_pong(partner, pinger, size, skip, opt->seconds, sbuf, rbuf, &elapsed);
        return pinger ? elapsed * 1e6 / (2.0 * (double)trips) : 0.0;
    }
    int iters = pt2pt_iters(opt, size);
    double t = ping_pong(partner, pinger, size, iters, skip, sbuf, rbuf);
    return pinger ? t * 1e6 / (2.0 * iters) : 0.0;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n < 2 || n % 2) {
        if (rank == 0)
            fprintf(stderr, "latency: needs an even number of ranks (pairs), got %d\n", n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* osu_latency's defaults */
    pt2pt_options opt = {.iters = 10000,
                         .skip = 100,
                         .iters_large = 1000,
                         .skip_large = 10,
                         .large_from = 8192,
                         .window = 1};
    pt2pt_powers_of_two(4u << 20, &opt);
    if (pt2pt_parse_options(argc, argv, rank, &opt)) MPI_Abort(MPI_COMM_WORLD, 2);

    int pairs = n / 2, pinger = rank < pairs;
    int partner = pinger ? rank + pairs : rank - pairs;
    size_t max = pt2pt_max_size(&opt);
    unsigned char *sbuf = pt2pt_alloc(max, 'a'), *rbuf = pt2pt_alloc(max, 'b');
    double *all = malloc(sizeof(double) * (size_t)n);
    if (rank == 0) {
        pt2pt_print_header(
            "latency: one-way (half round trip) between ranks i and i+N/2, all pairs "
            "at once, mean over the pairs",
            &opt, n);
        printf("# size_bytes latency_us worst_pair_us\n");
    }
    pt2pt_print_affinity();
    for (int s = 0; s < opt.nsizes; s++) {
        size_t size = opt.sizes[s];
        checked_round_trip(rank, partner, pinger, size, sbuf, rbuf);
        p2p_barrier();
        p2p_gather_double(measure(&opt, partner, pinger, size, sbuf, rbuf), all);
        if (rank == 0) {
            double sum = 0, worst = 0;
            for (int r = 0; r < pairs; r++) {
                sum += all[r];
                if (all[r] > worst) worst = all[r];
            }
            printf("%zu %.3f %.3f\n", size, sum / pairs, worst);
            fflush(stdout);
        }
    }
    free(all);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
