/* OSU-style ping-pong of one message size: a trial decides how many round trips fill a batch
 * (the initiator's clock; the count is sent to the responder), then BATCHES batches; one-way
 * latency = half the mean round trip of a batch, best and median reported. Every message carries
 * its round trip's number in its first bytes, which the responder echoes (it sends back what it
 * received) and the initiator checks; the first round trip of a size is checked byte for byte,
 * so that a lost, stale or damaged message fails the run instead of timing it. */
#include "dpm_p2p_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stall.h"

enum { BATCHES = 5, TAG = 9 };

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void stamp(char *buf, long size, long long i) {
    if (size >= (long)sizeof i) memcpy(buf, &i, sizeof i);
}

static long long stamp_of(const char *buf, long size) {
    long long i = 0;
    if (size >= (long)sizeof i) memcpy(&i, buf, sizeof i);
    return i;
}

/* n round trips; the initiator checks each stamp. */
static int round_trips(const p2p_ctx *p, long size, long long from, long n) {
    for (long long i = from; i < from + n; ++i) {
        if (p->initiator) {
            stamp(p->sbuf, size, i);
            MPI_Send(p->sbuf, (int)size, MPI_BYTE, p->peer, TAG, p->comm);
            MPI_Recv(p->rbuf, (int)size, MPI_BYTE, p->peer, TAG, p->comm, MPI_STATUS_IGNORE);
            if (size >= 8 && stamp_of(p->rbuf, size) != i) {
                fprintf(stderr, "dpm_bench: %s, %ld bytes: round trip %lld came back as %lld\n",
                        p->pair, size, i, stamp_of(p->rbuf, size));
                return -1;
            }
        } else {
            MPI_Recv(p->rbuf, (int)size, MPI_BYTE, p->peer, TAG, p->comm, MPI_STATUS_IGNORE);
            MPI_Send(p->rbuf, (int)size, MPI_BYTE, p->peer, TAG, p->comm);
        }
    }
    return 0;
}

/* The first round trip of a size: every byte of the echo is the pattern. */
static int checked_round_trip(const p2p_ctx *p, long size) {
    p2p_fill(p->sbuf, size);
    memset(p->rbuf, 0, (size_t)size);
    if (round_trips(p, size, 0, 1) != 0) return -1;
    if (p->initiator) {
        stamp(p->sbuf, size, 0);
        long at = p2p_first_difference(p->sbuf, p->rbuf, size);
        if (at >= 0) {
            fprintf(stderr, "dpm_bench: %s, %ld bytes: the echo differs at byte %ld\n", p->pair,
                    size, at);
            return -1;
        }
    }
    return 0;
}

int p2p_latency(const p2p_ctx *p, long size, const dpm_options *o) {
    char what[160];
    double batch[BATCHES];
    snprintf(what, sizeof what, "the %s ping-pong of %ld bytes", p->pair, size);
    stall_arm(o->stall, what, -1);
    if (checked_round_trip(p, size) != 0) return -1;
    long n = p2p_agree_count(p, o->seconds / BATCHES, o->iters, size, round_trips);
    if (n < 0) return -1;
    for (int b = 0; b < BATCHES; ++b) {
        /* per batch: slow (Open MPI over tcp, loaded) is not hung */
        char batch_what[200];
        snprintf(batch_what, sizeof batch_what, "%s, batch %d", what, b + 1);
        stall_arm(o->stall, batch_what, -1);
        double t0 = MPI_Wtime();
        if (round_trips(p, size, 1, n) != 0) return -1;
        batch[b] = (MPI_Wtime() - t0) / (2.0 * (double)n) * 1e6;
    }
    stall_disarm();
    qsort(batch, BATCHES, sizeof *batch, cmp_double);
    if (p->initiator) {
        printf("latency %s %ld %.3f %.3f %ld\n", p->pair, size, batch[0], batch[BATCHES / 2], n);
        fflush(stdout);
    }
    return 0;
}
