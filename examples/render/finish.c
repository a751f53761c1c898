/* Gather + reduce at the master, and the ordered disconnects. */
#include "finish.h"

#include "watchdog.h"

void links_init(links *l) {
    l->inter1 = l->intra1 = l->inter2 = l->all = MPI_COMM_NULL;
}

static void disconnect(MPI_Comm *c, const char *what) {
    if (*c == MPI_COMM_NULL) return;
    watchdog_phase(what);
    MPI_Comm_disconnect(c);
}

static void release(MPI_Comm *c) {
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

void links_disconnect(links *l) {
    /* The merged communicators are freed, not disconnected: Open MPI 4.1 hangs in
     * MPI_Comm_disconnect of a communicator merged from a spawn's inter-communicator (every
     * process waits there for ever); the jobs stay connected through the inter-communicators
     * until those are disconnected. */
    release(&l->all);
    release(&l->intra1);
    disconnect(&l->inter2, "MPI_Comm_disconnect of the second wave's inter-communicator");
    disconnect(&l->inter1, "MPI_Comm_disconnect of the first wave's inter-communicator");
}

void finish_stats(MPI_Comm all, const long long mine[STAT_COUNT], long long *each,
                  long long sum[STAT_COUNT]) {
    watchdog_phase("the final MPI_Gather and MPI_Reduce of the statistics");
    MPI_Gather((void *)mine, STAT_COUNT, MPI_LONG_LONG, each, STAT_COUNT, MPI_LONG_LONG, 0, all);
    MPI_Reduce((void *)mine, sum, STAT_COUNT, MPI_LONG_LONG, MPI_SUM, 0, all);
}
