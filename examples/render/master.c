/* The master's tile queue over the first wave's inter-communicator, the grow (merge, collective
 * spawn, merge again), then the queue over the merged communicator; the end and the report. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "master.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "finish.h"
#include "job.h"
#include "png_write.h"
#include "spawn.h"
#include "watchdog.h"

typedef struct {
    const render_options *o;
    render_job job;
    links l;
    unsigned char *image, *buf;
    MPI_Comm queue; /* where requests arrive */
    int first_rank; /* rank of worker 0 in queue: 0 in inter1's remote group, 1 in all */
    int workers;    /* workers taking part now */
    int *assigned;  /* per worker: the tile it holds, -1 for none */
    int *tiles;     /* per worker: tiles it sent back */
    int done, stopped, told_to_grow, growing, grown;
    int grow_mark; /* tiles done when the grow began */
    double spawn_s[2], grow_began, pause_s;
} master;

static void command(master *m, int w, int what, int id) {
    int cmd[2] = {what, id};
    watchdog_phase("a worker to take a command (MPI_Send)");
    MPI_Send(cmd, 2, MPI_INT, w + m->first_rank, TAG_COMMAND, m->queue);
}

static int accept_tile(master *m, int w, MPI_Status *st) {
    int id = m->assigned[w], bytes;
    if (id < 0) {
        fprintf(stderr, "render: worker %d sent a tile it was not given\n", w);
        return -1;
    }
    pixel_rect r = tiles_rect(&m->job.queue, id);
    MPI_Get_count(st, MPI_UNSIGNED_CHAR, &bytes);
    if (bytes != r.w * r.h * 3) {
        fprintf(stderr, "render: worker %d sent %d bytes for tile %d, expected %d\n", w, bytes, id,
                r.w * r.h * 3);
        return -1;
    }
    tiles_place(&m->job.queue, id, m->buf, m->image);
    m->assigned[w] = -1;
    m->tiles[w]++;
    m->done++;
    return 0;
}

/* Every first-wave worker has been told to grow: merge with them, spawn the second wave with
 * them, merge everyone, and serve the queue over the merged communicator from now on. */
static int grow(master *m) {
    int cfg[CFG_COUNT];
    memcpy(cfg, m->job.cfg, sizeof cfg);
    cfg[CFG_WAVE] = 1;
    watchdog_phase("MPI_Intercomm_merge with the first wave before the grow");
    MPI_Intercomm_merge(m->l.inter1, 0, &m->l.intra1);
    if (spawn_wave(m->l.intra1, m->o->grow, cfg, &m->l.inter2, &m->spawn_s[1]) != 0) return -1;
    watchdog_phase("MPI_Intercomm_merge with the second wave");
    MPI_Intercomm_merge(m->l.inter2, 0, &m->l.all);
    m->queue = m->l.all;
    m->first_rank = 1;
    m->workers += m->o->grow;
    m->growing = 0;
    m->grown = 1;
    m->pause_s = MPI_Wtime() - m->grow_began;
    return 0;
}

/* The grow starts once the share of tiles is back, and only while no worker has been stopped
 * (a stopped worker waits in the final merge and cannot take part in a spawn). */
static int grow_due(const master *m) {
    return m->o->grow > 0 && !m->grown && !m->growing && m->stopped == 0 &&
           m->done >= m->o->grow_at * m->job.queue.count;
}

static int answer(master *m, int w) {
    if (grow_due(m)) {
        m->growing = 1;
        m->grow_began = MPI_Wtime();
        m->grow_mark = m->done;
    }
    if (m->growing) {
        command(m, w, CMD_GROW, -1);
        return ++m->told_to_grow == m->workers ? grow(m) : 0;
    }
    int id = tiles_take(&m->job.queue);
    if (id < 0) {
        command(m, w, CMD_STOP, -1);
        m->stopped++;
    } else {
        m->assigned[w] = id;
        command(m, w, CMD_TILE, id);
    }
    return 0;
}

static int serve(master *m) {
    int max_bytes = 3 * m->o->tile * m->o->tile;
    while (m->stopped < m->workers) {
        MPI_Status st;
        watchdog_phase("a tile or a request from any worker (MPI_Recv)");
        MPI_Recv(m->buf, max_bytes, MPI_UNSIGNED_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, m->queue, &st);
        int w = st.MPI_SOURCE - m->first_rank;
        if (w < 0 || w >= m->workers || (st.MPI_TAG != TAG_TILE && st.MPI_TAG != TAG_READY)) {
            fprintf(stderr, "render: unexpected message (source %d, tag %d)\n", st.MPI_SOURCE,
                    st.MPI_TAG);
            return -1;
        }
        if (st.MPI_TAG == TAG_TILE && accept_tile(m, w, &st) != 0) return -1;
        if (answer(m, w) != 0) return -1;
    }
    return 0;
}

/* The final reduction; the gathered counts must agree with what the master saw arrive. */
static int finish(master *m, long long *rays) {
    int size;
    if (m->l.all == MPI_COMM_NULL) {
        watchdog_phase("MPI_Intercomm_merge with the workers for the final reduction");
        MPI_Intercomm_merge(m->l.inter1, 0, &m->l.all);
    }
    MPI_Comm_size(m->l.all, &size);
    long long mine[STAT_COUNT] = {0}, sum[STAT_COUNT];
    long long *each = calloc((size_t)size * STAT_COUNT, sizeof *each);
    if (!each) return -1;
    finish_stats(m->l.all, mine, each, sum);
    int bad = sum[STAT_TILES] != m->job.queue.count;
    printf("%-7s %5s %6s %12s %9s\n", "worker", "wave", "tiles", "rays", "busy");
    for (int w = 0; w < m->workers; ++w) {
        const long long *s = each + (size_t)(w + 1) * STAT_COUNT;
        printf("%-7d %5d %6lld %12lld %7.2f s\n", w, w < m->o->workers ? 1 : 2, s[STAT_TILES],
               s[STAT_RAYS], s[STAT_BUSY_US] / 1e6);
        if (s[STAT_TILES] != m->tiles[w]) {
            fprintf(stderr, "render: worker %d reports %lld tiles, the master received %d\n", w,
                    s[STAT_TILES], m->tiles[w]);
            bad = 1;
        }
    }
    printf(
        "reduced over the merged communicator of %d processes (MPI_Intercomm_merge): %lld tiles, "
        "%lld rays\n",
        size, sum[STAT_TILES], sum[STAT_RAYS]);
    *rays = sum[STAT_RAYS];
    free(each);
    links_disconnect(&m->l);
    return bad ? -1 : 0;
}

static void report_spawns(const master *m) {
    printf("spawned %d workers in %.1f ms (MPI_Comm_spawn)\n", m->o->workers, m->spawn_s[0] * 1e3);
    if (m->grown)
        printf(
            "grew after %d of %d tiles: spawned %d more workers in %.1f ms (collective "
            "MPI_Comm_spawn of the master and the first wave); the queue paused %.1f ms\n",
            m->grow_mark, m->job.queue.count, m->o->grow, m->spawn_s[1] * 1e3, m->pause_s * 1e3);
    else if (m->o->grow > 0)
        printf("did not grow: the tiles ran out before %.0f%% of them were done\n",
               m->o->grow_at * 100);
}

static int distributed(master *m, long long *rays) {
    size_t n = (size_t)m->o->workers + (size_t)m->o->grow;
    m->assigned = malloc(n * sizeof *m->assigned);
    m->tiles = calloc(n, sizeof *m->tiles);
    m->buf = malloc(3 * (size_t)m->o->tile * (size_t)m->o->tile);
    if (!m->assigned || !m->tiles || !m->buf) return -1;
    for (size_t i = 0; i < n; ++i) m->assigned[i] = -1;
    if (spawn_wave(MPI_COMM_SELF, m->o->workers, m->job.cfg, &m->l.inter1, &m->spawn_s[0]) != 0)
        return -1;
    m->queue = m->l.inter1;
    m->workers = m->o->workers;
    if (serve(m) != 0 || finish(m, rays) != 0) return -1;
    report_spawns(m);
    return 0;
}

static void settings(const render_options *o, int cfg[CFG_COUNT]) {
    cfg[CFG_WIDTH] = o->width;
    cfg[CFG_HEIGHT] = o->height;
    cfg[CFG_TILE] = o->tile;
    cfg[CFG_SAMPLES] = o->samples;
    cfg[CFG_DEPTH] = o->depth;
    cfg[CFG_TIMEOUT] = o->timeout;
    cfg[CFG_WAVE] = 0;
}

int master_main(const render_options *o) {
    static master m; /* zeroed; the scene is not for the stack */
    int cfg[CFG_COUNT];
    settings(o, cfg);
    m.o = o;
    job_init(&m.job, cfg);
    links_init(&m.l);
    watchdog_start(o->timeout, "master");
    m.image = calloc((size_t)o->width * (size_t)o->height, 3);
    if (!m.image) return 1;
    printf("render: %dx%d, %d tiles of %d px, %d rays per pixel, reflections up to depth %d\n",
           o->width, o->height, m.job.queue.count, o->tile, o->samples * o->samples, o->depth);
    fflush(stdout);
    long long rays = 0;
    double t0 = MPI_Wtime();
    if (o->workers == 0) {
        pixel_rect all = {0, 0, o->width, o->height};
        rays = (long long)trace_rect(&m.job.scene, &m.job.cam, m.job.params, all, m.image);
        printf("rendered alone (--workers 0): %lld rays\n", rays);
    } else if (distributed(&m, &rays) != 0) {
        MPI_Abort(MPI_COMM_WORLD, 1);
        return 1;
    }
    printf("rendered in %.2f s\n", MPI_Wtime() - t0);
    if (png_write_file(o->output, m.image, o->width, o->height) != 0) {
        fprintf(stderr, "render: cannot write %s: ", o->output);
        perror(NULL);
        return 1;
    }
    char path[PATH_MAX];
    printf("image: %s\n", realpath(o->output, path) ? path : o->output);
    int status = o->check ? check_against_serial(&m.job, m.image, rays, o->output) : 0;
    free(m.image);
    free(m.buf);
    free(m.assigned);
    free(m.tiles);
    return status;
}
