/* One-sided communication benchmark: put, get and accumulate latency and bandwidth under fence,
 * post/start/complete/wait (PSCW) and lock/unlock (the paper's Fig. 3-4, OSU's method), and the
 * nearest-neighbour ghost-cell update of its Fig. 2/5 (one put per boundary buffer, and one put
 * per double), with fence and with PSCW. Plain MPI-2.2, so the same source builds with Plexus,
 * Open MPI and MPICH; bench/osc/run.sh runs it with each. Windows come from MPI_Win_create on
 * malloc'd memory, as in the reference numbers. Every point ends by checking the bytes
 * that arrived, so a broken fast path cannot pass for a fast one.
 *
 * usage: osc_bench [--tests LIST] [--sizes LIST] [--ghost-sizes LIST] [--seconds S]
 *                  [--batches N] [--max-iters N]
 * Output, one line per point: TEST SIZE BEST MEDIAN WORST ITERS (latency and ghost: us per
 * operation or iteration, lower is better; bandwidth: MB/s, higher is better; BEST is the best
 * batch, ITERS the iterations per batch). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_numbers.h"

enum kind { LAT, BW, GHOST_BUF, GHOST_DOUBLE };
enum op { PUT, GET, ACC };
enum sync { FENCE, PSCW, LOCK };

struct test {
    const char *name;
    enum kind kind;
    enum op op;
    enum sync sync;
};

static const struct test kTests[] = {
    {"put_lat_fence", LAT, PUT, FENCE},       {"get_lat_fence", LAT, GET, FENCE},
    {"acc_lat_fence", LAT, ACC, FENCE},       {"put_lat_pscw", LAT, PUT, PSCW},
    {"get_lat_pscw", LAT, GET, PSCW},         {"acc_lat_pscw", LAT, ACC, PSCW},
    {"put_lat_lock", LAT, PUT, LOCK},         {"get_lat_lock", LAT, GET, LOCK},
    {"acc_lat_lock", LAT, ACC, LOCK},         {"put_bw_fence", BW, PUT, FENCE},
    {"get_bw_fence", BW, GET, FENCE},         {"put_bw_pscw", BW, PUT, PSCW},
    {"get_bw_pscw", BW, GET, PSCW},           {"put_bw_lock", BW, PUT, LOCK},
    {"ghost_buf_fence", GHOST_BUF, PUT, FENCE}, {"ghost_buf_pscw", GHOST_BUF, PUT, PSCW},
    {"ghost_double_fence", GHOST_DOUBLE, PUT, FENCE}, {"ghost_double_pscw", GHOST_DOUBLE, PUT, PSCW},
};
enum { kNumTests = sizeof kTests / sizeof kTests[0] };
enum { kWindow = 32 };  /* operations per epoch in the bandwidth tests (OSU: 64) */
enum { kMaxSizes = 32 };

static int g_rank, g_size;

static void die(const char *what, const char *test, size_t size, size_t at) {
    fprintf(stderr, "osc_bench: rank %d: %s: %s size %zu, at %zu\n", g_rank, what, test, size, at);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* ---- the pattern a rank's data carries, so that every arrival can be checked */
static unsigned char byte_of(int rank, size_t i) { return (unsigned char)(rank * 37 + i * 11 + 1); }
static double double_of(int rank, int slot, size_t i) { return rank * 1e7 + slot * 1e6 + (double)i; }

/* ---- one operation of `bytes` bytes (accumulate: ints, MPI_SUM) at byte displacement disp */
static void do_op(enum op op, void *buf, size_t bytes, int target, size_t disp, MPI_Win win) {
    const int n = (int)bytes;
    if (op == PUT) MPI_Put(buf, n, MPI_BYTE, target, (MPI_Aint)disp, n, MPI_BYTE, win);
    else if (op == GET) MPI_Get(buf, n, MPI_BYTE, target, (MPI_Aint)disp, n, MPI_BYTE, win);
    else MPI_Accumulate(buf, n / 4, MPI_INT, target, (MPI_Aint)disp, n / 4, MPI_INT, MPI_SUM, win);
}

/* ---- a point's state */
struct point {
    const struct test *t;
    size_t size;        /* bytes (LAT, BW) or doubles per neighbour (GHOST) */
    MPI_Win win;
    unsigned char *mem; /* the window */
    unsigned char *buf; /* origin buffers */
    double *dmem, *dbuf;
    MPI_Group peer_group, nbr_group;
    int peer;           /* LAT, BW: the other of ranks 0 and 1 (-1 for the others) */
    int nbrs[2];
    long ops_by_peer;   /* accumulates the peer issued into this window */
};

/* ---- latency: one operation and its synchronisation, each of ranks 0 and 1 in turn */
static void lat_iters(struct point *p, long n) {
    const struct test *t = p->t;
    const int me = g_rank;
    for (long i = 0; i < n; ++i) {
        if (t->sync == FENCE) {
            if (me == 0) do_op(t->op, p->buf, p->size, 1, 0, p->win);
            MPI_Win_fence(0, p->win);
            if (me == 1) do_op(t->op, p->buf, p->size, 0, 0, p->win);
            MPI_Win_fence(0, p->win);
            p->ops_by_peer += me < 2;
        } else if (t->sync == PSCW) {
            if (me > 1) continue;
            for (int turn = 0; turn < 2; ++turn) {
                if (me == turn) {
                    MPI_Win_start(p->peer_group, 0, p->win);
                    do_op(t->op, p->buf, p->size, p->peer, 0, p->win);
                    MPI_Win_complete(p->win);
                } else {
                    MPI_Win_post(p->peer_group, 0, p->win);
                    MPI_Win_wait(p->win);
                }
            }
            p->ops_by_peer++;
        } else if (me == 0) {  /* lock: rank 0 only; rank 1 waits in the batch's barrier */
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, p->win);
            do_op(t->op, p->buf, p->size, 1, 0, p->win);
            MPI_Win_unlock(1, p->win);
        } else if (me == 1) {
            p->ops_by_peer++;
        }
    }
}

/* ---- bandwidth: kWindow operations per epoch from rank 0 to rank 1 */
static void bw_iters(struct point *p, long n) {
    const struct test *t = p->t;
    for (long i = 0; i < n; ++i) {
        if (t->sync == FENCE) {
            if (g_rank == 0)
                for (int j = 0; j < kWindow; ++j) do_op(t->op, p->buf + j * p->size, p->size, 1, j * p->size, p->win);
            MPI_Win_fence(0, p->win);
        } else if (t->sync == PSCW) {
            if (g_rank == 0) {
                MPI_Win_start(p->peer_group, 0, p->win);
                for (int j = 0; j < kWindow; ++j) do_op(t->op, p->buf + j * p->size, p->size, 1, j * p->size, p->win);
                MPI_Win_complete(p->win);
            } else if (g_rank == 1) {
                MPI_Win_post(p->peer_group, 0, p->win);
                MPI_Win_wait(p->win);
            }
        } else if (g_rank == 0) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, p->win);
            for (int j = 0; j < kWindow; ++j) do_op(t->op, p->buf + j * p->size, p->size, 1, j * p->size, p->win);
            MPI_Win_unlock(1, p->win);
        }
    }
}

/* ---- the ghost-cell update (Fig. 2): slot j of the send buffer goes to neighbour j, into the
 * slot by which that neighbour knows this rank (this rank is its neighbour 1 - j). */
static void ghost_puts(struct point *p) {
    const int count = (int)p->size;
    for (int j = 0; j < 2; ++j) {
        const MPI_Aint disp = (MPI_Aint)(1 - j) * count;
        double *src = p->dbuf + (size_t)j * p->size;
        if (p->t->kind == GHOST_BUF) {
            MPI_Put(src, count, MPI_DOUBLE, p->nbrs[j], disp, count, MPI_DOUBLE, p->win);
        } else {
            for (int i = 0; i < count; ++i) MPI_Put(src + i, 1, MPI_DOUBLE, p->nbrs[j], disp + i, 1, MPI_DOUBLE, p->win);
        }
    }
}

static void ghost_iters(struct point *p, long n) {
    for (long i = 0; i < n; ++i) {
        if (p->t->sync == FENCE) {
            MPI_Win_fence(MPI_MODE_NOPRECEDE, p->win);
            ghost_puts(p);
            MPI_Win_fence(0, p->win);
        } else {
            MPI_Win_post(p->nbr_group, 0, p->win);
            MPI_Win_start(p->nbr_group, 0, p->win);
            ghost_puts(p);
            MPI_Win_complete(p->win);
            MPI_Win_wait(p->win);
        }
    }
}

static void run_iters(struct point *p, long n) {
    switch (p->t->kind) {
    case LAT: lat_iters(p, n); break;
    case BW: bw_iters(p, n); break;
    default: ghost_iters(p, n); break;
    }
}

/* ---- window and buffers of a point */
static void make_group(int n, const int ranks[], MPI_Group *out) {
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, n, ranks, out);
    MPI_Group_free(&world);
}

static void setup(struct point *p) {
    const struct test *t = p->t;
    p->peer = g_rank == 0 ? 1 : g_rank == 1 ? 0 : -1;
    p->nbrs[0] = (g_rank + g_size - 1) % g_size;
    p->nbrs[1] = (g_rank + 1) % g_size;
    p->ops_by_peer = 0;
    p->peer_group = MPI_GROUP_NULL;  /* ranks above 1 take no part in the two-rank tests */
    if (p->peer >= 0) make_group(1, &p->peer, &p->peer_group);
    make_group(p->nbrs[0] == p->nbrs[1] ? 1 : 2, p->nbrs, &p->nbr_group);
    if (t->kind == LAT || t->kind == BW) {
        const size_t n = t->kind == BW ? kWindow * p->size : p->size;
        p->mem = malloc(n);
        p->buf = malloc(n);
        if (!p->mem || !p->buf) die("out of memory", t->name, p->size, n);
        for (size_t i = 0; i < n; ++i) {
            p->mem[i] = t->op == GET ? byte_of(g_rank, i) : 0;
            p->buf[i] = t->op == GET ? 0 : byte_of(g_rank, i);
        }
        if (t->op == ACC) {
            for (size_t i = 0; i < n / 4; ++i) ((int *)p->buf)[i] = 1;
            memset(p->mem, 0, n);
        }
        MPI_Win_create(p->mem, (MPI_Aint)n, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p->win);
    } else {
        const size_t n = 2 * p->size;
        p->dmem = calloc(n, sizeof(double));
        p->dbuf = malloc(n * sizeof(double));
        if (!p->dmem || !p->dbuf) die("out of memory", t->name, p->size, n);
        for (size_t i = 0; i < n; ++i) p->dbuf[i] = double_of(g_rank, (int)(i / p->size), i % p->size);
        MPI_Win_create(p->dmem, (MPI_Aint)(n * sizeof(double)), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &p->win);
    }
    if (t->sync == FENCE && t->kind != GHOST_BUF && t->kind != GHOST_DOUBLE) MPI_Win_fence(MPI_MODE_NOPRECEDE, p->win);
}

/* What the window (put, accumulate) or the origin buffer (get) must hold after the point. */
static void check(struct point *p) {
    const struct test *t = p->t;
    if (t->kind == GHOST_BUF || t->kind == GHOST_DOUBLE) {
        for (size_t i = 0; i < p->size; ++i) {
            if (p->dmem[i] != double_of(p->nbrs[0], 1, i)) die("wrong data from the left neighbour", t->name, p->size, i);
            if (p->dmem[p->size + i] != double_of(p->nbrs[1], 0, i))
                die("wrong data from the right neighbour", t->name, p->size, i);
        }
        return;
    }
    if (g_rank > 1) return;
    const size_t n = t->kind == BW ? kWindow * p->size : p->size;
    const int origin_side = (t->sync == LOCK || t->kind == BW) ? g_rank == 0 : 1;
    const int target_side = (t->sync == LOCK || t->kind == BW) ? g_rank == 1 : 1;
    if (t->op == GET && origin_side) {
        for (size_t i = 0; i < n; ++i)
            if (p->buf[i] != byte_of(p->peer, i)) die("a get brought wrong data", t->name, p->size, i);
    } else if (t->op == PUT && target_side) {
        for (size_t i = 0; i < n; ++i)
            if (p->mem[i] != byte_of(p->peer, i)) die("a put left wrong data", t->name, p->size, i);
    } else if (t->op == ACC && target_side) {
        for (size_t i = 0; i < n / 4; ++i)
            if (((int *)p->mem)[i] != (int)p->ops_by_peer) die("an accumulate summed wrong", t->name, p->size, i);
    }
}

static void teardown(struct point *p) {
    if (p->t->sync == FENCE && p->t->kind != GHOST_BUF && p->t->kind != GHOST_DOUBLE)
        MPI_Win_fence(MPI_MODE_NOSUCCEED, p->win);
    MPI_Barrier(MPI_COMM_WORLD);  /* lock epochs: every unlock has returned */
    check(p);
    MPI_Win_free(&p->win);
    if (p->peer_group != MPI_GROUP_NULL) MPI_Group_free(&p->peer_group);
    MPI_Group_free(&p->nbr_group);
    free(p->mem), free(p->buf), free(p->dmem), free(p->dbuf);
    p->mem = p->buf = NULL;
    p->dmem = p->dbuf = NULL;
}

/* ---- timing: rank 0 decides the iterations per batch (all ranks must run the same epochs) */
static double timed(struct point *p, long n) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    run_iters(p, n);
    const double t = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t_rank0 = t;
    MPI_Bcast(&t_rank0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t_rank0;
}

static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void measure(struct point *p, double seconds, int batches, long max_iters) {
    run_iters(p, 2);  /* warm-up: connections, registrations */
    long n = 1;
    double t = timed(p, n);
    while (t < seconds / batches / 20 && n < max_iters) {  /* calibrate on rank 0's clock */
        n *= 2;
        t = timed(p, n);
    }
    long per_batch = (long)(seconds / batches / (t / n));
    if (per_batch < 1) per_batch = 1;
    if (per_batch > max_iters) per_batch = max_iters;
    MPI_Bcast(&per_batch, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    double v[64];
    if (batches > 64) batches = 64;
    const struct test *tt = p->t;
    for (int b = 0; b < batches; ++b) {
        const double s = timed(p, per_batch);
        const double per_iter = s / per_batch;
        if (tt->kind == BW) v[b] = (double)p->size * kWindow / per_iter / 1e6;          /* MB/s */
        else if (tt->kind == LAT && tt->sync != LOCK) v[b] = per_iter / 2 * 1e6;        /* two ops */
        else v[b] = per_iter * 1e6;
    }
    qsort(v, (size_t)batches, sizeof v[0], cmp_double);
    const double best = tt->kind == BW ? v[batches - 1] : v[0];
    const double worst = tt->kind == BW ? v[0] : v[batches - 1];
    if (g_rank == 0) {
        printf("%s %zu %.4f %.4f %.4f %ld\n", tt->name, p->size, best, v[batches / 2], worst, per_batch);
        fflush(stdout);
    }
}

/* ---- command line */
static int parse_list(const char *text, size_t out[], int max, unsigned long long limit) {
    char buf[512];
    int n = 0;
    if (strlen(text) >= sizeof buf) return -1;
    strcpy(buf, text);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (n == max || cli_parse_count(tok, limit, &out[n]) != 0 || out[n] == 0) return -1;
        ++n;
    }
    return n;
}

static int wanted(const char *list, const char *name) {
    if (!list) return 1;
    const size_t len = strlen(name);
    for (const char *s = list; (s = strstr(s, name)) != NULL; s += len)
        if ((s == list || s[-1] == ',') && (s[len] == ',' || s[len] == '\0')) return 1;
    return 0;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    const char *tests = NULL;
    size_t sizes[kMaxSizes] = {8, 64, 512, 4096, 32768, 262144}, ghost[kMaxSizes] = {1, 8, 64, 512};
    int nsizes = 6, nghost = 4, batches = 5;
    double seconds = 0.2;
    size_t max_iters = 100000;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = !v;
        if (!bad && strcmp(a, "--tests") == 0) tests = v;
        else if (!bad && strcmp(a, "--sizes") == 0) bad = (nsizes = parse_list(v, sizes, kMaxSizes, 1 << 24)) < 0;
        else if (!bad && strcmp(a, "--ghost-sizes") == 0) bad = (nghost = parse_list(v, ghost, kMaxSizes, 1 << 20)) < 0;
        else if (!bad && strcmp(a, "--seconds") == 0) bad = cli_parse_seconds(v, 60, &seconds) != 0;
        else if (!bad && strcmp(a, "--batches") == 0) {
            size_t b = 0;
            bad = cli_parse_count(v, 64, &b) != 0 || b == 0;
            batches = (int)b;
        } else if (!bad && strcmp(a, "--max-iters") == 0) bad = cli_parse_count(v, 1u << 30, &max_iters) != 0 || !max_iters;
        else bad = 1;
        if (bad) {
            if (g_rank == 0)
                fprintf(stderr, "usage: osc_bench [--tests LIST] [--sizes LIST] [--ghost-sizes LIST] [--seconds S] "
                                "[--batches N] [--max-iters N] (bad or incomplete option '%s')\n", a);
            MPI_Finalize();
            return 2;
        }
        ++i;
    }
    if (g_rank == 0)
        printf("# osc_bench: %d ranks; %d batches sharing %.2f s per point; latency in us per operation, "
               "bandwidth in MB/s (%d operations per epoch), ghost in us per iteration\n",
               g_size, batches, seconds, kWindow);
    for (int k = 0; k < kNumTests; ++k) {
        const struct test *t = &kTests[k];
        if (!wanted(tests, t->name)) continue;
        const int ghost_test = t->kind == GHOST_BUF || t->kind == GHOST_DOUBLE;
        if (!ghost_test && g_size < 2) continue;
        const size_t *list = ghost_test ? ghost : sizes;
        for (int s = 0; s < (ghost_test ? nghost : nsizes); ++s) {
            if (t->op == ACC && list[s] % 4 != 0) continue;
            struct point p;
            memset(&p, 0, sizeof p);
            p.t = t;
            p.size = list[s];
            setup(&p);
            measure(&p, seconds, batches, (long)max_iters);
            teardown(&p);
        }
    }
    MPI_Finalize();
    return 0;
}
