/* What the third-party-style dynamic-process programs share, in the manner of the MPICH test
 * suite's mtest (tests/dpm3p/README.md): an error count, a check that counts and says what was
 * wrong, the children's counts collected by the parent root, and the one line a run prints at the
 * end: " No Errors" or " Found N errors". Plain MPI-2.2: the same source builds with any mpicc.
 * Every program also bounds itself with alarm(), so a hang is a failure, not a stuck CI job. */
#ifndef DPM3P_H
#define DPM3P_H

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int mt_errs = 0;

#define MT_CHECK(cond, ...)                                                              \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            ++mt_errs;                                                                   \
            fprintf(stderr, "%s:%d: check '%s' failed: ", __FILE__, __LINE__, #cond);    \
            fprintf(stderr, __VA_ARGS__);                                                \
            fputc('\n', stderr);                                                         \
        }                                                                                \
    } while (0)

/* An MPI call that must succeed (the error handler is MPI_ERRORS_RETURN where it matters). */
#define MT_MPI(call)                                                                     \
    do {                                                                                 \
        int mt_rc_ = (call);                                                             \
        if (mt_rc_ != MPI_SUCCESS) {                                                     \
            char mt_s_[MPI_MAX_ERROR_STRING];                                            \
            int mt_l_ = 0;                                                               \
            MPI_Error_string(mt_rc_, mt_s_, &mt_l_);                                     \
            ++mt_errs;                                                                   \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, mt_s_); \
        }                                                                                \
    } while (0)

static void mt_on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "dpm3p: no result within the time limit: hung\n";
    if (write(2, msg, sizeof msg - 1) < 0) _exit(3);
    _exit(3);
}

/* MPI_Init with a bound on the whole run (seconds). */
static inline void mt_init(int *argc, char ***argv, unsigned seconds)
{
    signal(SIGALRM, mt_on_alarm);
    alarm(seconds);
    MPI_Init(argc, argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

/* A child's part: its error count reaches the parent root (rank 0 of the remote group) through
 * parent, in a message of tag 999 that the parents collect with mt_collect. */
static inline void mt_report_to_parent(MPI_Comm parent)
{
    MT_MPI(MPI_Send(&mt_errs, 1, MPI_INT, 0, 999, parent));
}

/* At the parent root: the children's counts (one message per remote process) added in. */
static inline void mt_collect(MPI_Comm children)
{
    int rank, remote;
    MPI_Comm_rank(children, &rank);
    if (rank != 0) return;
    MPI_Comm_remote_size(children, &remote);
    for (int i = 0; i < remote; ++i) {
        int e = 0;
        MT_MPI(MPI_Recv(&e, 1, MPI_INT, i, 999, children, MPI_STATUS_IGNORE));
        mt_errs += e;
    }
}

/* The world's count at rank 0, the result line, MPI_Finalize. Returns the exit status. */
static inline int mt_finalize(void)
{
    int rank, total = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&mt_errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        if (total) printf(" Found %d errors\n", total);
        else printf(" No Errors\n");
        fflush(stdout);
    }
    MPI_Finalize();
    return total ? 1 : 0;
}

#endif
