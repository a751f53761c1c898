/* A first message over btl_tcp that must leave its sender before the sender's next MPI call
 * (components/btl_tcp/README.md, "On first use"; issue 19's MPI_Comm_join setup). The ranks'
 * other channel is a FIFO in the job's private runtime directory, so that nothing crosses the TCP
 * connection before the message under test, and a rank blocked in it makes no MPI call.
 *   (default)  rank 0 sends 8 bytes to rank 1, then blocks reading the FIFO; rank 1 receives them
 *              and writes its answer into the FIFO: rank 0 must have sent it without progress.
 *   --both     both ranks send first at once; then rank 1 blocks reading the FIFO until rank 0
 *              has received rank 1's message (rank 1's send must have left without progress).
 *   --busy     rank 1 makes no MPI call for 2.5 s (it computes) before its receive, longer than
 *              the case's btl_tcp_connect_timeout (1000 ms): rank 0's MPI_Isend returns at once,
 *              its MPI_Wait when the message is out, and the job goes on (the connection's
 *              deadline counts no time a live peer takes to answer).
 * 2 ranks, over `--mca btl tcp,self`. */
#include "test_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define TAG 7

static char fifo[512];

static void make_fifo(void)
{
    const char *dir = getenv("XDG_RUNTIME_DIR");
    CHECK(dir != NULL && *dir, "XDG_RUNTIME_DIR is not set: run the case through tests/mpi/run_case.sh");
    snprintf(fifo, sizeof fifo, "%s/tcp_first_send.fifo", dir);
    CHECK(mkfifo(fifo, 0600) == 0 || errno == EEXIST, "mkfifo %s: %s", fifo, strerror(errno));
}

/* Blocks (no MPI call) until the other rank writes an int into the FIFO. */
static int read_fifo(void)
{
    int fd = open(fifo, O_RDONLY);
    CHECK(fd >= 0, "open %s: %s", fifo, strerror(errno));
    int v = 0;
    ssize_t n;
    while ((n = read(fd, &v, sizeof v)) < 0 && errno == EINTR)
        continue;
    CHECK(n == (ssize_t)sizeof v, "read %s: %zd bytes (%s)", fifo, n, n < 0 ? strerror(errno) : "short");
    close(fd);
    return v;
}

static void write_fifo(int v)
{
    int fd = open(fifo, O_WRONLY);
    CHECK(fd >= 0, "open %s: %s", fifo, strerror(errno));
    CHECK(write(fd, &v, sizeof v) == (ssize_t)sizeof v, "write %s: %s", fifo, strerror(errno));
    close(fd);
}

static int64_t word(int rank) { return 0x0102030405060708LL * (rank + 1); }

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 2);
    const char *mode = argc > 1 ? argv[1] : "";
    make_fifo();
    const int other = 1 - tu_rank;
    int64_t in = 0, out = word(tu_rank);
    if (strcmp(mode, "--busy") == 0) {
        if (tu_rank == 1) {
            struct timespec busy = {2, 500000000};
            while (nanosleep(&busy, &busy) < 0 && errno == EINTR)
                continue;
            CHECK_MPI(MPI_Recv(&in, 1, MPI_INT64_T, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(in == word(0), "got %llx, expected %llx", (unsigned long long)in, (unsigned long long)word(0));
        } else {
            MPI_Request req;
            CHECK_MPI(MPI_Isend(&out, 1, MPI_INT64_T, 1, TAG, MPI_COMM_WORLD, &req));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
    } else if (strcmp(mode, "--both") == 0) {
        CHECK_MPI(MPI_Send(&out, 1, MPI_INT64_T, other, TAG, MPI_COMM_WORLD));
        if (tu_rank == 1) CHECK_EQ(read_fifo(), 1);
        CHECK_MPI(MPI_Recv(&in, 1, MPI_INT64_T, other, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(in == word(other), "rank %d got %llx, expected %llx", tu_rank, (unsigned long long)in,
              (unsigned long long)word(other));
        if (tu_rank == 0) write_fifo(1);
    } else {
        CHECK(*mode == 0, "unknown mode %s (valid: none, --both, --busy)", mode);
        if (tu_rank == 0) {
            CHECK_MPI(MPI_Send(&out, 1, MPI_INT64_T, 1, TAG, MPI_COMM_WORLD));
            CHECK_EQ(read_fifo(), 42);
        } else {
            CHECK_MPI(MPI_Recv(&in, 1, MPI_INT64_T, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(in == word(0), "got %llx, expected %llx", (unsigned long long)in, (unsigned long long)word(0));
            write_fifo(42);
        }
    }
    tu_barrier();
    if (tu_rank == 0) unlink(fifo);
    return tu_finish("a first message over btl_tcp left its sender before the sender's next MPI call (%s)",
                     *mode ? mode + 2 : "send, then block");
}
