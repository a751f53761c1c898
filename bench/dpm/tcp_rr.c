/* tcp_rr: what a reliable connection between two roots costs here over TCP on loopback, the
 * per-message costs the scale model (model.py) needs for dpm_ud's rc mode beside bench/dgram's
 * datagram costs. A forked server answers; measured at the client:
 *   connect    socket + connect + accept + a 32-byte request answered with 32 bytes + close
 *              (what setting up a connection between the roots and proving it costs)
 *   exchange   a request of N bytes answered with N bytes over an established connection
 * Prints CSV: kind,bytes,median_us,mean_us,iters.
 *
 *   tcp_rr [--sizes 0,64,1024,...] [--iters N] */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MAX_SIZES = 32, HELLO = 32 };

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int io_all(int fd, void *buf, size_t n, int writing) {
    char *p = buf;
    while (n > 0) {
        ssize_t k = writing ? write(fd, p, n) : read(fd, p, n);
        if (k <= 0) return -1;
        p += k, n -= (size_t)k;
    }
    return 0;
}

/* A length-prefixed message each way. */
static int send_msg(int fd, const char *buf, uint32_t n) {
    uint32_t be = htonl(n);
    return io_all(fd, &be, 4, 1) || io_all(fd, (void *)buf, n, 1) ? -1 : 0;
}

static int recv_msg(int fd, char *buf, uint32_t cap, uint32_t *n) {
    uint32_t be;
    if (io_all(fd, &be, 4, 0)) return -1;
    *n = ntohl(be);
    return *n > cap ? -1 : io_all(fd, buf, *n, 0);
}

static void nodelay(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* The server: every connection is answered message for message until it closes. */
static void serve(int lfd, char *buf, uint32_t cap) {
    for (;;) {
        int fd = accept(lfd, NULL, NULL);
        if (fd < 0) _exit(0);
        nodelay(fd);
        uint32_t n;
        while (recv_msg(fd, buf, cap, &n) == 0 && send_msg(fd, buf, n) == 0) {
        }
        close(fd);
    }
}

static int dial(const struct sockaddr_in *a) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, (const struct sockaddr *)a, sizeof *a) != 0) {
        if (fd >= 0) close(fd);
        return -1;
    }
    nodelay(fd);
    return fd;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *kind, long bytes, double *t, int n) {
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += t[i];
    qsort(t, (size_t)n, sizeof *t, cmp);
    printf("%s,%ld,%.1f,%.1f,%d\n", kind, bytes, t[n / 2], sum / n, n);
    fflush(stdout);
}

static int iters_for(long size, int iters) {
    long n = (16L << 20) / (size + 4096);
    n = n < 5 ? 5 : n > iters ? iters : n;
    return (int)n;
}

int main(int argc, char **argv) {
    long sizes[MAX_SIZES] = {0, 64, 1024, 16384, 65536, 262144, 1 << 20, 4 << 20};
    int nsizes = 8, iters = 300;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--iters")) iters = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--sizes")) {
            nsizes = 0;
            for (char *t = strtok(argv[i + 1], ","); t && nsizes < MAX_SIZES; t = strtok(NULL, ","))
                sizes[nsizes++] = atol(t);
        } else {
            fprintf(stderr, "usage: tcp_rr [--sizes 0,64,1024,...] [--iters N]\n");
            return 2;
        }
    }
    if (iters < 5 || nsizes == 0) {
        fprintf(stderr, "tcp_rr: --iters wants 5 or more, --sizes at least one size\n");
        return 2;
    }
    long largest = HELLO;
    for (int i = 0; i < nsizes; ++i) largest = sizes[i] > largest ? sizes[i] : largest;
    char *buf = calloc(1, (size_t)largest), *back = calloc(1, (size_t)largest);
    double *t = calloc((size_t)iters, sizeof *t);
    struct sockaddr_in a = {0};
    socklen_t alen = sizeof a;
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    if (!buf || !back || !t || lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof a) != 0 ||
        listen(lfd, 64) != 0 || getsockname(lfd, (struct sockaddr *)&a, &alen) != 0) {
        perror("tcp_rr: listening socket");
        return 1;
    }
    pid_t server = fork();
    if (server == 0) serve(lfd, back, (uint32_t)largest);
    close(lfd);
    printf("kind,bytes,median_us,mean_us,iters\n");
    int rc = 0, n = iters;
    for (int i = -1; i < n && rc == 0; ++i) { /* the first one warms up */
        double t0 = now_us();
        uint32_t got;
        int fd = dial(&a);
        rc = fd < 0 || send_msg(fd, buf, HELLO) || recv_msg(fd, back, HELLO, &got) ? -1 : 0;
        if (fd >= 0) close(fd);
        if (i >= 0) t[i] = now_us() - t0;
    }
    if (rc == 0) report("connect", HELLO, t, n);
    int fd = rc == 0 ? dial(&a) : -1;
    for (int s = 0; s < nsizes && fd >= 0 && rc == 0; ++s) {
        n = iters_for(sizes[s], iters);
        for (long k = 0; k < sizes[s]; ++k) buf[k] = (char)(k * 131 + 7);
        for (int i = -1; i < n && rc == 0; ++i) {
            uint32_t got = 0;
            double t0 = now_us();
            rc = send_msg(fd, buf, (uint32_t)sizes[s]) || recv_msg(fd, back, (uint32_t)largest, &got)
                     ? -1
                     : 0;
            if (i >= 0) t[i] = now_us() - t0;
            if (rc == 0 && (got != sizes[s] || memcmp(buf, back, (size_t)got) != 0)) {
                fprintf(stderr, "tcp_rr: the answer of %ld bytes differs\n", sizes[s]);
                rc = -1;
            }
        }
        if (rc == 0) report("exchange", sizes[s], t, n);
    }
    if (fd >= 0) close(fd);
    if (rc != 0) fprintf(stderr, "tcp_rr: a connection or an exchange failed\n");
    kill(server, SIGTERM);
    waitpid(server, NULL, 0);
    free(buf), free(back), free(t);
    return rc == 0 ? 0 : 1;
}
