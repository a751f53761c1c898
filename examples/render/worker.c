/* The worker's loop: settings from the master, then request, render, send back, until told to
 * stop; a GROW in between makes it take part in spawning the next wave and move to the merged
 * communicator. */
#include "worker.h"

#include <stdio.h>
#include <stdlib.h>

#include "finish.h"
#include "job.h"
#include "spawn.h"
#include "watchdog.h"

typedef struct {
    render_job job;
    links l;
    MPI_Comm queue; /* where the master (rank 0 there) hands out tiles */
    long long stats[STAT_COUNT];
    unsigned char *rgb;
} worker;

static void render_one(worker *w, int id) {
    double t0 = MPI_Wtime();
    unsigned long long rays = job_render_tile(&w->job, id, w->rgb);
    w->stats[STAT_BUSY_US] += (long long)((MPI_Wtime() - t0) * 1e6);
    w->stats[STAT_RAYS] += (long long)rays;
    w->stats[STAT_TILES] += 1;
    pixel_rect r = tiles_rect(&w->job.queue, id);
    watchdog_phase("the master to take a tile (MPI_Send)");
    MPI_Send(w->rgb, r.w * r.h * 3, MPI_UNSIGNED_CHAR, 0, TAG_TILE, w->queue);
}

/* The first wave's part of the grow: merged with the master, it is one of the parents of the
 * collective spawn; then everyone merges into one communicator, parents first. */
static int join_grow(worker *w) {
    watchdog_phase("MPI_Intercomm_merge with the master before the grow");
    MPI_Intercomm_merge(w->l.inter1, 1, &w->l.intra1);
    double unused;
    if (spawn_wave(w->l.intra1, 0, w->job.cfg, &w->l.inter2, &unused) != 0) return -1;
    watchdog_phase("MPI_Intercomm_merge with the second wave");
    MPI_Intercomm_merge(w->l.inter2, 0, &w->l.all);
    w->queue = w->l.all;
    return 0;
}

static int serve(worker *w) {
    watchdog_phase("the master to take the first request (MPI_Send)");
    MPI_Send(NULL, 0, MPI_UNSIGNED_CHAR, 0, TAG_READY, w->queue);
    for (;;) {
        int cmd[2];
        watchdog_phase("a command from the master (MPI_Recv)");
        MPI_Recv(cmd, 2, MPI_INT, 0, TAG_COMMAND, w->queue, MPI_STATUS_IGNORE);
        if (cmd[0] == CMD_STOP) return 0;
        if (cmd[0] == CMD_TILE && cmd[1] >= 0 && cmd[1] < w->job.queue.count) {
            render_one(w, cmd[1]);
        } else if (cmd[0] == CMD_GROW && w->l.inter1 != MPI_COMM_NULL &&
                   w->l.all == MPI_COMM_NULL) {
            if (join_grow(w) != 0) return -1;
            MPI_Send(NULL, 0, MPI_UNSIGNED_CHAR, 0, TAG_READY, w->queue);
        } else {
            fprintf(stderr, "render: worker: unexpected command {%d, %d} from the master\n", cmd[0],
                    cmd[1]);
            return -1;
        }
    }
}

static int start(worker *w, MPI_Comm parent) {
    int cfg[CFG_COUNT];
    watchdog_phase("the render settings from the master (MPI_Bcast, inter-communicator)");
    MPI_Bcast(cfg, CFG_COUNT, MPI_INT, 0, parent);
    const char *problem = job_config_problem(cfg);
    if (problem) {
        fprintf(stderr, "render: worker: bad settings from the master: %s\n", problem);
        return -1;
    }
    watchdog_start(cfg[CFG_TIMEOUT], cfg[CFG_WAVE] ? "worker of the second wave" : "worker");
    job_init(&w->job, cfg);
    w->rgb = malloc(3 * (size_t)cfg[CFG_TILE] * (size_t)cfg[CFG_TILE]);
    if (!w->rgb) return -1;
    if (cfg[CFG_WAVE] == 0) {
        w->l.inter1 = w->queue = parent;
    } else {
        w->l.inter2 = parent;
        watchdog_phase("MPI_Intercomm_merge with the master and the first wave");
        MPI_Intercomm_merge(parent, 1, &w->l.all);
        w->queue = w->l.all;
    }
    return 0;
}

int worker_main(MPI_Comm parent) {
    static worker w; /* the scene is a few KB: not on the stack */
    watchdog_start(600, "worker");
    links_init(&w.l);
    if (start(&w, parent) != 0 || serve(&w) != 0) {
        MPI_Abort(parent, 1);
        return 1;
    }
    if (w.l.all == MPI_COMM_NULL) {
        watchdog_phase("MPI_Intercomm_merge with the master for the final reduction");
        MPI_Intercomm_merge(w.l.inter1, 1, &w.l.all);
    }
    finish_stats(w.l.all, w.stats, NULL, NULL);
    links_disconnect(&w.l);
    free(w.rgb);
    return 0;
}
