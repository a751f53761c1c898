/* See dpm_p2p_parts.h. */
#include "dpm_p2p_parts.h"

enum { TRIAL_STEPS = 4, MIN_STEPS = 20, COUNT_TAG = 10 };

long p2p_window(long size) {
    /* OSU's 64 in flight, fewer for large messages so that a window's receive slots stay
     * within 8 MiB (two 4 MiB messages). */
    long w = (8L << 20) / size;
    return w > 64 ? 64 : w < 2 ? 2 : w;
}

long p2p_buffer_bytes(long size) {
    return p2p_window(size) * size;
}

void p2p_fill(char *buf, long size) {
    for (long i = 0; i < size; ++i) buf[i] = (char)(i * 131 + 7);
}

long p2p_first_difference(const char *a, const char *b, long size) {
    for (long i = 0; i < size; ++i)
        if (a[i] != b[i]) return i;
    return -1;
}

long p2p_agree_count(const p2p_ctx *p, double target_s, long max, long size, p2p_steps_fn steps) {
    double t0 = MPI_Wtime();
    if (steps(p, size, 1, TRIAL_STEPS) != 0) return -1;
    double per = (MPI_Wtime() - t0) / TRIAL_STEPS;
    long n = 0;
    if (p->initiator) {
        n = per > 0 ? (long)(target_s / per) : max;
        if (n > max) n = max;
        if (n < MIN_STEPS) n = MIN_STEPS;
        MPI_Send(&n, 1, MPI_LONG, p->peer, COUNT_TAG, p->comm);
    } else {
        MPI_Recv(&n, 1, MPI_LONG, p->peer, COUNT_TAG, p->comm, MPI_STATUS_IGNORE);
    }
    return n;
}
