/* What the latency and bandwidth measurements of dpm_p2p share: the pair's context, the byte
 * pattern and its check, and the agreement on how many steps fill a batch. */
#ifndef DPM_BENCH_P2P_PARTS_H
#define DPM_BENCH_P2P_PARTS_H

#include <mpi.h>

#include "dpm_options.h"

typedef struct {
    MPI_Comm comm;
    int peer, initiator; /* the initiator sends first, decides the counts and reports */
    const char *pair;    /* intra, inter or merged */
    char *sbuf, *rbuf;   /* p2p_buffer_bytes(largest size) each */
} p2p_ctx;

/* One step function: n steps of size bytes, the first numbered from. */
typedef int (*p2p_steps_fn)(const p2p_ctx *p, long size, long long from, long n);

/* Messages in flight in one bandwidth window, and the buffer a size needs. */
long p2p_window(long size);
long p2p_buffer_bytes(long size);

void p2p_fill(char *buf, long size);
/* The first byte where a and b differ, or -1. */
long p2p_first_difference(const char *a, const char *b, long size);

/* A short trial of steps timed by the initiator, then the count that fills target_s (20 at least,
 * max at most), sent to the responder so that both run as many. -1 when a step failed. */
long p2p_agree_count(const p2p_ctx *p, double target_s, long max, long size, p2p_steps_fn steps);

int p2p_latency(const p2p_ctx *p, long size, const dpm_options *o);
int p2p_bandwidth(const p2p_ctx *p, long size, const dpm_options *o);

#endif
