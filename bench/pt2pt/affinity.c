/* Prints each rank's CPU affinity on rank 0 (see affinity.h); gathered with point-to-point calls.
 */
#define _GNU_SOURCE
#include "affinity.h"

#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

enum { TAG_AFFINITY = 30010, TEXT_MAX = 256 };

/* "0,1" style list of the CPUs this process may run on; "?" when the kernel does not say. */
static void cpu_list(char *text) {
    cpu_set_t set;
    size_t used = 0;
    text[0] = '\0';
    if (sched_getaffinity(0, sizeof set, &set)) {
        strcpy(text, "?");
        return;
    }
    for (int cpu = 0; cpu < CPU_SETSIZE && used + 8 < TEXT_MAX; cpu++)
        if (CPU_ISSET(cpu, &set))
            used += (size_t)snprintf(text + used, TEXT_MAX - used, "%s%d", used ? "," : "", cpu);
}

void pt2pt_print_affinity(void) {
    int rank, n;
    char text[TEXT_MAX];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    cpu_list(text);
    if (rank != 0) {
        MPI_Send(text, TEXT_MAX, MPI_CHAR, 0, TAG_AFFINITY, MPI_COMM_WORLD);
        return;
    }
    printf("# cpus per rank: %s", text);
    for (int r = 1; r < n; r++) {
        MPI_Recv(text, TEXT_MAX, MPI_CHAR, r, TAG_AFFINITY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf(" | %s", text);
    }
    printf("\n");
    fflush(stdout);
}
