/* The first message between two ranks, connection setup included, then the steady 8-byte
 * latency on the connection it made (bench/pt2pt/first_message.sh runs it A/B). Both ranks run on
 * one host, so CLOCK_MONOTONIC is one clock for both: rank 1 stamps the moment its receive of the
 * first message returns, rank 0 the moment it called MPI_Send and the moment it returned.
 * Before the first message nothing crosses between the two ranks over MPI, so the first send pays
 * for the whole connection: rank 1 says it is about to wait in MPI_Recv through a FIFO in
 * $XDG_RUNTIME_DIR (or /tmp), and rank 0 then sleeps 20 ms more, so that rank 1 waits there
 * (and its progress engine has backed off to sleeping) when the message starts.
 * Prints one line: send_return_us first_oneway_us first_roundtrip_us steady_8B_us. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "first_message runs on 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int iters = argc > 1 ? atoi(argv[1]) : 5000;
    int64_t word = 42;
    double stamps[3] = {0, 0, 0}, received = 0;
    char fifo[512];
    const char *dir = getenv("XDG_RUNTIME_DIR");
    snprintf(fifo, sizeof fifo, "%s/first_message.fifo", dir && *dir ? dir : "/tmp");
    if (mkfifo(fifo, 0600) != 0 && errno != EEXIST) {
        perror(fifo);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0) {
        char ready = 0;
        int fd = open(fifo, O_RDONLY);
        if (fd < 0 || read(fd, &ready, 1) != 1) {
            perror(fifo);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        close(fd);
        unlink(fifo);
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
        stamps[0] = now_us();
        MPI_Send(&word, 1, MPI_INT64_T, 1, 0, MPI_COMM_WORLD);
        stamps[1] = now_us();
        MPI_Recv(&word, 1, MPI_INT64_T, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        stamps[2] = now_us();
        MPI_Recv(&received, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        int fd = open(fifo, O_WRONLY);
        if (fd < 0 || write(fd, "r", 1) != 1) {
            perror(fifo);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        close(fd);
        MPI_Recv(&word, 1, MPI_INT64_T, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        received = now_us();
        MPI_Send(&word, 1, MPI_INT64_T, 0, 0, MPI_COMM_WORLD);
        MPI_Send(&received, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    }
    char buf[8] = {0};
    double start = 0;
    for (int i = -100; i < iters; ++i) {
        if (i == 0) start = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(buf, 8, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
            MPI_Recv(buf, 8, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, 8, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
        }
    }
    const double steady = (MPI_Wtime() - start) * 1e6 / (2.0 * iters);
    if (rank == 0)
        printf("%.1f %.1f %.1f %.2f\n", stamps[1] - stamps[0], received - stamps[0], stamps[2] - stamps[0], steady);
    MPI_Finalize();
    return 0;
}
