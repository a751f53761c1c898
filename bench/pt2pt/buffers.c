/* Message buffers of the point-to-point benchmarks (see buffers.h). */
#include "buffers.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *pt2pt_alloc(size_t size, int fill) {
    void *buf = NULL;
    long page = sysconf(_SC_PAGESIZE);
    if (posix_memalign(&buf, page > 0 ? (size_t)page : 4096, size ? size : 1)) {
        fprintf(stderr, "pt2pt: cannot allocate %zu bytes\n", size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(buf, fill, size ? size : 1);
    return buf;
}

static unsigned char pattern(size_t i, size_t size, int sender) {
    return (unsigned char)(i * 131 + size * 7 + (size_t)sender * 29 + 1);
}

void pt2pt_fill(unsigned char *buf, size_t size, int sender) {
    for (size_t i = 0; i < size; i++) buf[i] = pattern(i, size, sender);
}

void pt2pt_check(const unsigned char *buf, size_t size, int sender, int receiver,
                 const char *bench) {
    for (size_t i = 0; i < size; i++) {
        if (buf[i] != pattern(i, size, sender)) {
            fprintf(stderr,
                    "%s: rank %d received wrong data from rank %d in a %zu-byte message: "
                    "byte %zu is 0x%02x, expected 0x%02x\n",
                    bench, receiver, sender, size, i, buf[i], pattern(i, size, sender));
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
}
