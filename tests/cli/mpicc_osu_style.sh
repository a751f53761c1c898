#!/bin/sh
# A program written the way the OSU micro-benchmarks' osu_latency is (buffers from
# MPI_Alloc_mem, page-aligned by hand, MPI_Free_mem at the end; a warm-up, then a timed
# ping-pong per size) compiles warning-free with the build-tree mpicc and runs at 2 ranks under
# plexrun, each rank checking the bytes it received. Before MPI_Alloc_mem existed it did not
# compile.
set -u
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/lib/checks.sh"
build=${PLEXUS_TOP_BUILDDIR:?run through make check}

cat >"$work/osu_style_latency.c" <<'CEOF'
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZE (1 << 22)
#define MPI_CHECK(stmt)                                                              \
    do {                                                                             \
        int mpi_errno = (stmt);                                                      \
        if (mpi_errno != MPI_SUCCESS) {                                              \
            fprintf(stderr, "[%s:%d] MPI call failed with %d\n", __FILE__, __LINE__, \
                    mpi_errno);                                                      \
            exit(EXIT_FAILURE);                                                      \
        }                                                                            \
    } while (0)

static int allocate_memory(char **sbuf, char **rbuf, size_t align) {
    MPI_CHECK(MPI_Alloc_mem(MAX_SIZE + align, MPI_INFO_NULL, sbuf));
    MPI_CHECK(MPI_Alloc_mem(MAX_SIZE + align, MPI_INFO_NULL, rbuf));
    return 0;
}

static char *align_buffer(char *p, size_t align) {
    return (char *)(((uintptr_t)p + align - 1) / align * align);
}

int main(int argc, char **argv) {
    int rank, size, bad = 0;
    char *s_buf_orig, *r_buf_orig, *s_buf, *r_buf;
    const size_t align = 4096;
    MPI_Status status;
    MPI_CHECK(MPI_Init(&argc, &argv));
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "This test requires exactly two processes\n");
        MPI_CHECK(MPI_Finalize());
        return EXIT_FAILURE;
    }
    allocate_memory(&s_buf_orig, &r_buf_orig, align);
    s_buf = align_buffer(s_buf_orig, align);
    r_buf = align_buffer(r_buf_orig, align);
    if (rank == 0) printf("# OSU-style MPI Latency Test\n# Size          Latency (us)\n");
    for (int n = 0; n <= MAX_SIZE; n = n ? n * 4 : 1) {
        const int skip = 10, iters = n > 65536 ? 10 : 100;
        memset(s_buf, 'a' + rank, (size_t)n);
        memset(r_buf, 'x', (size_t)n);
        double t_start = 0;
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        for (int i = 0; i < iters + skip; ++i) {
            if (i == skip) t_start = MPI_Wtime();
            if (rank == 0) {
                MPI_CHECK(MPI_Send(s_buf, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD));
                MPI_CHECK(MPI_Recv(r_buf, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &status));
            } else {
                MPI_CHECK(MPI_Recv(r_buf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &status));
                MPI_CHECK(MPI_Send(s_buf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD));
            }
        }
        const double latency = (MPI_Wtime() - t_start) * 1e6 / (2.0 * iters);
        for (int k = 0; k < n; ++k) bad += r_buf[k] != 'a' + (1 - rank);
        if (rank == 0) printf("%-10d%18.2f\n", n, latency);
    }
    MPI_CHECK(MPI_Free_mem(s_buf_orig));
    MPI_CHECK(MPI_Free_mem(r_buf_orig));
    if (bad) fprintf(stderr, "rank %d: %d bytes received wrong\n", rank, bad);
    else printf("rank %d: all bytes right\n", rank);
    MPI_CHECK(MPI_Finalize());
    return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
CEOF

run compile "$build/tools/mpicc/mpicc-build-tree" -O2 -Wall -Wextra -Werror \
  "$work/osu_style_latency.c" -o "$work/osu_style_latency"
expect_status 0
run -t 120 latency "$build/tools/plexrun/plexrun" -n 2 --timeout 100 "$work/osu_style_latency"
expect_status 0
expect_contains "# Size          Latency (us)"
expect_count 13 '^[0-9]+ +[0-9]+\.[0-9]+$'
expect_line "rank 0: all bytes right"
expect_line "rank 1: all bytes right"
finish
