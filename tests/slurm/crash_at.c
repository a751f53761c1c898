/* An MPI program that fails on purpose, for the tests of how a job ends (tests/slurm/README.md):
 *
 *   crash_at POINT RANK
 *
 * Every rank first checks a ring exchange byte for byte (so that the shared-memory paths are in
 * use), then rank RANK fails at POINT and the others wait in a receive that never completes:
 *   none        nobody fails: prints "crash_at: PASS: N ranks" and exits 0
 *   init        right after MPI_Init, before any communication (SIGSEGV)
 *   traffic     after the ring exchange (SIGSEGV)
 *   transfer    while an 8 MiB message to it is in flight (SIGKILL)
 *   abort       MPI_Abort(MPI_COMM_WORLD, 7)
 *   exit        exit(5) without MPI_Finalize
 *   spawn       nobody fails: MPI_Comm_spawn of 2 copies where the launcher cannot start processes
 *               (Slurm's PMIx plugin) returns MPI_ERR_SPAWN at every rank with every errcode set;
 *               rank 0 prints "crash_at: PASS: spawn refused: <its message>", all finalize
 * Its own failures print "crash_at: FAILED: ..." and exit 1. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;

static void fail(const char *what) {
    fprintf(stderr, "crash_at: FAILED: rank %d: %s\n", rank, what);
    exit(1);
}

static void ring_exchange(void) {
    enum { kLen = 256 * 1024 };
    unsigned char *out = malloc(kLen), *in = malloc(kLen);
    if (!out || !in) fail("no memory");
    for (int i = 0; i < kLen; ++i) out[i] = (unsigned char)(rank * 31 + i);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Sendrecv(out, kLen, MPI_BYTE, right, 1, in, kLen, MPI_BYTE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < kLen; ++i)
        if (in[i] != (unsigned char)(left * 31 + i)) fail("ring data differ");
    free(out);
    free(in);
}

/* The others wait for a message that never comes: only the launcher can end them. */
static void wait_for_ever(void) {
    int x;
    MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fail("received a message nobody sent");
}

static void fail_at(const char *point) {
    if (strcmp(point, "traffic") == 0) raise(SIGSEGV);
    if (strcmp(point, "abort") == 0) MPI_Abort(MPI_COMM_WORLD, 7);
    if (strcmp(point, "exit") == 0) exit(5);
    if (strcmp(point, "transfer") == 0) {
        enum { kBig = 8 << 20 };
        char *buf = malloc(kBig);
        MPI_Request r;
        MPI_Irecv(buf, kBig, MPI_BYTE, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &r);
        int flag = 0;
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE); /* let the transfer start */
        raise(SIGKILL);
    }
    fail("unknown point");
}

/* Spawn refused by the launcher: the class, no inter-communicator, every errcode, and the job
 * goes on (a barrier and a clean finalize). */
static int spawn_refused(const char *self) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char *args[] = {"none", "0", NULL};
    MPI_Comm child = MPI_COMM_WORLD;
    int codes[2] = {-7, -7};
    const int rc = MPI_Comm_spawn(self, args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &child, codes);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_SPAWN) fail("MPI_Comm_spawn did not fail with MPI_ERR_SPAWN");
    if (child != MPI_COMM_NULL) fail("a refused spawn left the inter-communicator set");
    for (int i = 0; i < 2; ++i) {
        int c = -1;
        MPI_Error_class(codes[i], &c);
        if (c != MPI_ERR_SPAWN) fail("an errcode of the refused spawn is not MPI_ERR_SPAWN");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        printf("crash_at: PASS: spawn refused: %s\n", msg);
    }
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: crash_at none|init|traffic|transfer|abort|exit|spawn RANK\n");
        return 2;
    }
    const char *point = argv[1];
    const int victim = atoi(argv[2]);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (strcmp(point, "init") == 0 && rank == victim) raise(SIGSEGV);
    if (strcmp(point, "init") != 0) ring_exchange();
    if (strcmp(point, "spawn") == 0) return spawn_refused(argv[0]);
    if (strcmp(point, "none") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) printf("crash_at: PASS: %d ranks\n", size);
        MPI_Finalize();
        return 0;
    }
    if (strcmp(point, "transfer") == 0 && rank != victim) {
        enum { kBig = 8 << 20 };
        char *buf = calloc(1, kBig);
        if (rank == (victim + 1) % size) MPI_Send(buf, kBig, MPI_BYTE, victim, 2, MPI_COMM_WORLD);
    }
    if (rank == victim) fail_at(point);
    wait_for_ever();
    return 1;
}
