/* The spawn of a wave, with errors reported instead of the default fatal handler, and the path
 * of this program found through /proc so that the workers run exactly the master's binary. */
#define _POSIX_C_SOURCE 200809L
#include "spawn.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "watchdog.h"

static const char *self_exe(void) {
    static char path[PATH_MAX];
    if (path[0]) return path;
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) return NULL;
    path[n] = '\0';
    return path;
}

static void report_spawn_error(int rc, int count, const int *errcodes) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    fprintf(stderr, "render: MPI_Comm_spawn of %d worker(s) failed: %s\n", count, text);
    for (int i = 0; errcodes && i < count; ++i) {
        if (errcodes[i] == MPI_SUCCESS) continue;
        MPI_Error_string(errcodes[i], text, &len);
        fprintf(stderr, "render:   worker %d: %s\n", i, text);
    }
}

int spawn_wave(MPI_Comm parents, int count, const int cfg[CFG_COUNT], MPI_Comm *inter,
               double *seconds) {
    int rank;
    MPI_Comm_rank(parents, &rank);
    MPI_Comm_set_errhandler(parents, MPI_ERRORS_RETURN);
    const char *exe = self_exe();
    if (!exe) {
        perror("render: readlink /proc/self/exe");
        return -1;
    }
    int *errcodes = NULL;
    if (rank == 0) {
        errcodes = malloc(sizeof *errcodes * (size_t)(count > 0 ? count : 1));
        if (!errcodes) return -1;
    }
    static char worker_flag[] = "--worker"; /* only for ps: a spawned process knows its parent */
    char *argv[] = {worker_flag, NULL};
    watchdog_phase("MPI_Comm_spawn to return");
    double t0 = MPI_Wtime();
    int rc = MPI_Comm_spawn(exe, argv, count, MPI_INFO_NULL, 0, parents, inter,
                            rank == 0 ? errcodes : MPI_ERRCODES_IGNORE);
    double took = MPI_Wtime() - t0;
    if (rc != MPI_SUCCESS) {
        if (rank == 0) report_spawn_error(rc, count, errcodes);
        free(errcodes);
        return -1;
    }
    free(errcodes);
    if (rank == 0) *seconds = took;
    watchdog_phase("the settings broadcast to the new workers (MPI_Bcast, inter-communicator)");
    MPI_Bcast((void *)cfg, CFG_COUNT, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, *inter);
    return 0;
}
