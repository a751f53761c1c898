/* An ordinary MPI program for the profiling tool's test (tests/pmpi/pmpi_tool.sh): it knows
 * nothing of tools, makes a fixed number of calls of each kind on an even number of ranks, checks
 * what it receives, and prints "pmpi_workload: PASS: N ranks" from rank 0. Per rank it calls:
 *   MPI_Send and MPI_Recv 5 times each (100 bytes, with its partner rank ^ 1);
 *   MPI_Isend and MPI_Irecv 4 times each (3 x 256 bytes completed by one MPI_Waitall, then
 *   64 bytes completed by 2 MPI_Wait); MPI_Sendrecv once (32 bytes each way);
 *   MPI_Bcast once (1000 ints), MPI_Reduce twice (10 ints), MPI_Allreduce once (8 doubles);
 *   MPI_Barrier 4 times, one of them between MPI_Pcontrol(0) and MPI_Pcontrol(1);
 *   MPI_Keyval_create and MPI_Attr_put once each (the MPI-1 names of MPI_Comm_create_keyval and
 *   MPI_Comm_set_attr, which the library implements by calling those);
 *   MPI_Init and MPI_Finalize once. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

#define CHECK(cond)                                                                               \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "pmpi_workload: rank %d: FAILED at %s:%d: %s\n", rank, __FILE__, __LINE__, \
                    #cond);                                                                       \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                         \
        }                                                                                         \
    } while (0)
#define CHECK_MPI(call) CHECK((call) == MPI_SUCCESS)

/* The byte of message `seq` at offset i from `from`, so a receiver can tell one from another. */
static unsigned char pattern(int from, int seq, int i) { return (unsigned char)(from * 31 + seq * 7 + i); }

static void fill(unsigned char *buf, int n, int from, int seq) {
    for (int i = 0; i < n; ++i) buf[i] = pattern(from, seq, i);
}

static void verify(const unsigned char *buf, int n, int from, int seq) {
    for (int i = 0; i < n; ++i) CHECK(buf[i] == pattern(from, seq, i));
}

static void blocking(int partner) {
    unsigned char out[100], in[100];
    for (int seq = 0; seq < 5; ++seq) {
        fill(out, 100, rank, seq);
        if (rank % 2 == 0) {
            CHECK_MPI(MPI_Send(out, 100, MPI_BYTE, partner, seq, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Recv(in, 100, MPI_BYTE, partner, seq, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Recv(in, 100, MPI_BYTE, partner, seq, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Send(out, 100, MPI_BYTE, partner, seq, MPI_COMM_WORLD));
        }
        verify(in, 100, partner, seq);
    }
}

static void nonblocking(int partner) {
    unsigned char out[3][256], in[3][256], small_out[16], small_in[16];
    MPI_Request requests[6];
    for (int k = 0; k < 3; ++k) {
        fill(out[k], 256, rank, 10 + k);
        CHECK_MPI(MPI_Irecv(in[k], 256, MPI_BYTE, partner, 10 + k, MPI_COMM_WORLD, &requests[k]));
        CHECK_MPI(MPI_Isend(out[k], 256, MPI_BYTE, partner, 10 + k, MPI_COMM_WORLD, &requests[3 + k]));
    }
    CHECK_MPI(MPI_Waitall(6, requests, MPI_STATUSES_IGNORE));
    for (int k = 0; k < 3; ++k) verify(in[k], 256, partner, 10 + k);

    /* 64 bytes as 16 ints: the tool counts bytes from the datatype's size. */
    fill(small_out, 16, rank, 20);
    int ints_out[16], ints_in[16];
    for (int i = 0; i < 16; ++i) ints_out[i] = small_out[i];
    CHECK_MPI(MPI_Irecv(ints_in, 16, MPI_INT, partner, 20, MPI_COMM_WORLD, &requests[0]));
    CHECK_MPI(MPI_Isend(ints_out, 16, MPI_INT, partner, 20, MPI_COMM_WORLD, &requests[1]));
    CHECK_MPI(MPI_Wait(&requests[0], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&requests[1], MPI_STATUS_IGNORE));
    for (int i = 0; i < 16; ++i) small_in[i] = (unsigned char)ints_in[i];
    verify(small_in, 16, partner, 20);

    unsigned char sr_out[32], sr_in[32];
    fill(sr_out, 32, rank, 30);
    CHECK_MPI(MPI_Sendrecv(sr_out, 32, MPI_BYTE, partner, 30, sr_in, 32, MPI_BYTE, partner, 30, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    verify(sr_in, 32, partner, 30);
}

static void collectives(void) {
    int data[1000], values[10], sums[10];
    double d[8], dsum[8];
    for (int i = 0; i < 1000; ++i) data[i] = rank == 0 ? 3 * i + 1 : -1;
    CHECK_MPI(MPI_Bcast(data, 1000, MPI_INT, 0, MPI_COMM_WORLD));
    for (int i = 0; i < 1000; ++i) CHECK(data[i] == 3 * i + 1);

    for (int root = 0; root < 2; ++root) {
        for (int i = 0; i < 10; ++i) values[i] = rank + i;
        CHECK_MPI(MPI_Reduce(values, sums, 10, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
        if (rank == root)
            for (int i = 0; i < 10; ++i) CHECK(sums[i] == size * (size - 1) / 2 + size * i);
    }

    for (int i = 0; i < 8; ++i) d[i] = rank * 0.5 + i;
    CHECK_MPI(MPI_Allreduce(d, dsum, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < 8; ++i) CHECK(dsum[i] == 0.5 * size * (size - 1) / 2 + size * i);

    for (int k = 0; k < 3; ++k) CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pcontrol(0));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pcontrol(1));
}

static void attributes(void) {
    int keyval = MPI_KEYVAL_INVALID, flag = 0;
    static int value = 42;
    void *got = NULL;
    CHECK_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &keyval, NULL));
    CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, keyval, &value));
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &got, &flag));
    CHECK(flag && got == &value);
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval));
    CHECK_MPI(MPI_Comm_free_keyval(&keyval));
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size % 2 == 0);
    blocking(rank ^ 1);
    nonblocking(rank ^ 1);
    collectives();
    attributes();
    if (rank == 0) printf("pmpi_workload: PASS: %d ranks\n", size);
    fflush(stdout);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
