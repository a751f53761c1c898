/* OSU-style bandwidth: windows of p2p_window(size) nonblocking sends answered by a 4-byte ack
 * once all have arrived; MB/s (10^6 bytes) of the best of BATCHES batches. The first window of a
 * size is checked byte for byte in every receive slot. */
#include "dpm_p2p_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stall.h"

enum { BATCHES = 3, TAG = 11, ACK_TAG = 12, MAX_WINDOW = 64 };

static int windows(const p2p_ctx *p, long size, long long from, long n) {
    (void)from;
    MPI_Request req[MAX_WINDOW];
    int w = (int)p2p_window(size), ack = 0;
    for (long k = 0; k < n; ++k) {
        if (p->initiator) {
            for (int i = 0; i < w; ++i)
                MPI_Isend(p->sbuf, (int)size, MPI_BYTE, p->peer, TAG, p->comm, &req[i]);
            MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
            MPI_Recv(&ack, 1, MPI_INT, p->peer, ACK_TAG, p->comm, MPI_STATUS_IGNORE);
        } else {
            for (int i = 0; i < w; ++i)
                MPI_Irecv(p->rbuf + (long)i * size, (int)size, MPI_BYTE, p->peer, TAG, p->comm,
                          &req[i]);
            MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
            MPI_Send(&ack, 1, MPI_INT, p->peer, ACK_TAG, p->comm);
        }
    }
    return 0;
}

static int checked_window(const p2p_ctx *p, long size) {
    long w = p2p_window(size);
    p2p_fill(p->sbuf, size);
    if (!p->initiator) memset(p->rbuf, 0, (size_t)(w * size));
    windows(p, size, 0, 1);
    if (p->initiator) return 0;
    for (long i = 0; i < w; ++i) {
        long at = p2p_first_difference(p->sbuf, p->rbuf + i * size, size);
        if (at >= 0) {
            fprintf(stderr, "dpm_bench: %s bandwidth, %ld bytes: message %ld differs at byte %ld\n",
                    p->pair, size, i, at);
            return -1;
        }
    }
    return 0;
}

int p2p_bandwidth(const p2p_ctx *p, long size, const dpm_options *o) {
    char what[160];
    double best = 0;
    snprintf(what, sizeof what, "the %s bandwidth run of %ld bytes", p->pair, size);
    stall_arm(o->stall, what, -1);
    /* the responder's pattern to compare with is its own sbuf, filled alike */
    if (checked_window(p, size) != 0) return -1;
    long n = p2p_agree_count(p, o->seconds / BATCHES, o->iters, size, windows);
    if (n < 0) return -1;
    for (int b = 0; b < BATCHES; ++b) {
        char batch_what[200];
        snprintf(batch_what, sizeof batch_what, "%s, batch %d", what, b + 1);
        stall_arm(o->stall, batch_what, -1);
        double t0 = MPI_Wtime();
        windows(p, size, 0, n);
        double mbs = (double)size * (double)p2p_window(size) * (double)n / (MPI_Wtime() - t0) / 1e6;
        if (mbs > best) best = mbs;
    }
    stall_disarm();
    if (p->initiator) {
        printf("bandwidth %s %ld %.*f %ld\n", p->pair, size, best >= 10 ? 1 : 4, best, n * p2p_window(size));
        fflush(stdout);
    }
    return 0;
}
