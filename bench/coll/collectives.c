/* The six timed collectives, their data patterns and result checks (see collectives.h). Types
 * and operations are OSU's: MPI_CHAR for Bcast, Allgather and Alltoall, MPI_FLOAT with MPI_SUM for
 * Reduce and Allreduce; the root is rank 0. */
#include "collectives.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static unsigned char byte_pattern(size_t i, size_t size, int from, int to) {
    return (unsigned char)(i * 131 + size * 7 + (size_t)from * 29 + (size_t)to * 53 + 1);
}

/* Every rank contributes (rank + 1) * (i % 13 + 1) at element i: the sum over n ranks,
 * n (n + 1) / 2 * (i % 13 + 1), is an exact float. */
static float float_pattern(size_t i, int rank) {
    return (float)((rank + 1) * (int)(i % 13 + 1));
}

static int floats(const coll_buffers *b) {
    return (int)(b->size / sizeof(float));
}

static void wrong_byte(const char *coll, const coll_buffers *b, size_t at, unsigned got,
                       unsigned want) {
    fprintf(stderr,
            "coll_bench: %s of %zu bytes on %d ranks: rank %d received a wrong result: byte %zu "
            "is 0x%02x, expected 0x%02x\n",
            coll, b->size, b->ranks, b->rank, at, got, want);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

/* ---- barrier ---- */
static void barrier_call(const coll_buffers *b) {
    (void)b;
    MPI_Barrier(MPI_COMM_WORLD);
}

static void nothing(const coll_buffers *b) {
    (void)b;
}

/* ---- bcast ---- */
static void bcast_call(const coll_buffers *b) {
    MPI_Bcast(b->send, (int)b->size, MPI_CHAR, 0, MPI_COMM_WORLD);
}

static void bcast_fill(const coll_buffers *b) {
    for (size_t i = 0; i < b->size; i++)
        b->send[i] = b->rank == 0 ? byte_pattern(i, b->size, 0, 0) : 0xee;
}

static void bcast_check(const coll_buffers *b) {
    for (size_t i = 0; i < b->size; i++)
        if (b->send[i] != byte_pattern(i, b->size, 0, 0))
            wrong_byte("bcast", b, i, b->send[i], byte_pattern(i, b->size, 0, 0));
}

/* ---- reduce and allreduce ---- */
static void reduce_call(const coll_buffers *b) {
    MPI_Reduce(b->send, b->recv, floats(b), MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
}

static void allreduce_call(const coll_buffers *b) {
    MPI_Allreduce(b->send, b->recv, floats(b), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

static void sum_fill(const coll_buffers *b) {
    float *in = (float *)b->send, *out = (float *)b->recv;
    for (int i = 0; i < floats(b); i++) {
        in[i] = float_pattern((size_t)i, b->rank);
        out[i] = -1.0f;
    }
}

static void sum_check_on(const coll_buffers *b, const char *coll) {
    const float *out = (const float *)b->recv;
    float ranks_sum = (float)(b->ranks * (b->ranks + 1) / 2);
    for (int i = 0; i < floats(b); i++) {
        float want = ranks_sum * (float)(i % 13 + 1);
        if (out[i] != want) {
            fprintf(stderr,
                    "coll_bench: %s of %d floats (MPI_SUM) on %d ranks: rank %d got %g at "
                    "element %d, expected %g\n",
                    coll, floats(b), b->ranks, b->rank, (double)out[i], i, (double)want);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
}

static void reduce_check(const coll_buffers *b) {
    if (b->rank == 0) sum_check_on(b, "reduce");
}

static void allreduce_check(const coll_buffers *b) {
    sum_check_on(b, "allreduce");
}

/* ---- allgather ---- */
static void allgather_call(const coll_buffers *b) {
    MPI_Allgather(b->send, (int)b->size, MPI_CHAR, b->recv, (int)b->size, MPI_CHAR,
                  MPI_COMM_WORLD);
}

static void allgather_fill(const coll_buffers *b) {
    for (size_t i = 0; i < b->size; i++) b->send[i] = byte_pattern(i, b->size, b->rank, 0);
    memset(b->recv, 0xee, b->size * (size_t)b->ranks);
}

static void allgather_check(const coll_buffers *b) {
    for (int from = 0; from < b->ranks; from++) {
        const unsigned char *block = b->recv + (size_t)from * b->size;
        for (size_t i = 0; i < b->size; i++)
            if (block[i] != byte_pattern(i, b->size, from, 0))
                wrong_byte("allgather", b, (size_t)from * b->size + i, block[i],
                           byte_pattern(i, b->size, from, 0));
    }
}

/* ---- alltoall ---- */
static void alltoall_call(const coll_buffers *b) {
    MPI_Alltoall(b->send, (int)b->size, MPI_CHAR, b->recv, (int)b->size, MPI_CHAR,
                 MPI_COMM_WORLD);
}

static void alltoall_fill(const coll_buffers *b) {
    for (int to = 0; to < b->ranks; to++)
        for (size_t i = 0; i < b->size; i++)
            b->send[(size_t)to * b->size + i] = byte_pattern(i, b->size, b->rank, to);
    memset(b->recv, 0xee, b->size * (size_t)b->ranks);
}

static void alltoall_check(const coll_buffers *b) {
    for (int from = 0; from < b->ranks; from++) {
        const unsigned char *block = b->recv + (size_t)from * b->size;
        for (size_t i = 0; i < b->size; i++)
            if (block[i] != byte_pattern(i, b->size, from, b->rank))
                wrong_byte("alltoall", b, (size_t)from * b->size + i, block[i],
                           byte_pattern(i, b->size, from, b->rank));
    }
}

static const coll_kind kinds[] = {
    {"barrier", 0, barrier_call, nothing, nothing},
    {"bcast", 1, bcast_call, bcast_fill, bcast_check},
    {"reduce", 1, reduce_call, sum_fill, reduce_check},
    {"allreduce", 1, allreduce_call, sum_fill, allreduce_check},
    {"allgather", 1, allgather_call, allgather_fill, allgather_check},
    {"alltoall", 1, alltoall_call, alltoall_fill, alltoall_check},
};

const coll_kind *coll_find(const char *name) {
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (!strcmp(kinds[k].name, name)) return &kinds[k];
    return NULL;
}

const char *coll_names(void) {
    return "barrier,bcast,reduce,allreduce,allgather,alltoall";
}

size_t coll_buffer_bytes(size_t size, int ranks) {
    return size * (size_t)ranks;
}
