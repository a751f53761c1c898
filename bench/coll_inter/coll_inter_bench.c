/* Inter-communicator collective latency, the paper's experiment (issue 21; seed 000, section
 * 7.6) on static inter-communicators: MPI_COMM_WORLD split into group A = world ranks [0, a) and
 * group B = [a, n), joined by MPI_Intercomm_create. For each collective and size: one checked
 * call, warm-up calls, then timed calls, each between (untimed) inter-communicator barriers as
 * the paper times Reduce, and the maximum over all ranks of the mean time per call.
 *
 * Collectives: bcast and reduce rooted at rank 0 of A (MPI_ROOT there, MPI_PROC_NULL for the
 * rest of A, root 0 in B); allreduce (MPI_FLOAT, MPI_SUM); allgather and alltoall (size: bytes
 * per block); barrier (back to back).
 *
 * With --spawn N, the paper's actual experiment: the processes started (group A, usually one)
 * spawn N children running this program (group B), and the inter-communicator is the one
 * MPI_Comm_spawn returns; maxima and minima are then taken over both groups merged.
 *
 * --mode osu times every point as bench/coll's --mode osu (and osu_bcast) do instead: after the
 * checked call, 10 untimed and --iters (200) timed calls, each timed alone and followed by an
 * MPI_Barrier on the inter-communicator (Barrier itself back to back), a fixed root; each rank's
 * mean, and over the ranks their average (OSU's number), minimum and maximum. The ranks that
 * leave early (a Bcast's root, MPI_PROC_NULL) pull the average down where the default's maximum
 * shows the slowest rank.
 *
 * Output on world rank 0 (of the parents), per point, flushed at once: "COLL SIZE max_us min_us
 * iterations", or with --mode osu "COLL SIZE avg_us min_us max_us iterations".
 *
 *   coll_inter_bench --a A | --spawn N [--colls LIST] [--sizes LIST] [--seconds S]
 *                    [--mode osu [--iters N]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    MPI_Comm inter;
    int in_a, lr, ln, rn;
} ictx;

static int has(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == 0)) return 1;
    return 0;
}

static void fail(const char *what)
{
    fprintf(stderr, "coll_inter_bench: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* One call of coll on size bytes; buffers big enough for every collective. */
static void run_one(const char *coll, const ictx *c, long size, char *sbuf, char *rbuf)
{
    int count = (int)size;
    if (strcmp(coll, "barrier") == 0) {
        MPI_Barrier(c->inter);
    } else if (strcmp(coll, "bcast") == 0) {
        int root = c->in_a ? (c->lr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        MPI_Bcast(sbuf, count, MPI_CHAR, root, c->inter);
    } else if (strcmp(coll, "reduce") == 0) {
        int root = c->in_a ? (c->lr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        MPI_Reduce(sbuf, rbuf, count / 4 > 0 ? count / 4 : 1, MPI_FLOAT, MPI_SUM, root, c->inter);
    } else if (strcmp(coll, "allreduce") == 0) {
        MPI_Allreduce(sbuf, rbuf, count / 4 > 0 ? count / 4 : 1, MPI_FLOAT, MPI_SUM, c->inter);
    } else if (strcmp(coll, "allgather") == 0) {
        MPI_Allgather(sbuf, count, MPI_CHAR, rbuf, count, MPI_CHAR, c->inter);
    } else if (strcmp(coll, "alltoall") == 0) {
        MPI_Alltoall(sbuf, count, MPI_CHAR, rbuf, count, MPI_CHAR, c->inter);
    }
}

/* OSU's loop (--mode osu): 10 untimed and iters timed calls, each followed by a barrier; every
 * rank's mean time per call in microseconds. */
static double time_osu(const char *coll, const ictx *c, long size, char *sbuf, char *rbuf, long iters)
{
    const int skip = 10, barrier = strcmp(coll, "barrier") == 0;
    double in_calls = 0;
    MPI_Barrier(c->inter);
    for (long i = 0; i < skip + iters; i++) {
        double t0 = MPI_Wtime();
        run_one(coll, c, size, sbuf, rbuf);
        if (i >= skip) in_calls += MPI_Wtime() - t0;
        if (!barrier) MPI_Barrier(c->inter);
    }
    return in_calls / (double)iters * 1e6;
}

/* The default loop: as many calls as fill `seconds`, each between untimed barriers; every rank's
 * mean time per call in microseconds, and the iterations in *iters. */
static double time_paper(const char *coll, const ictx *c, long size, char *sbuf, char *rbuf, double seconds,
                         MPI_Comm all, long *iters)
{
    const int barrier = strcmp(coll, "barrier") == 0;
    for (int w = 0; w < 5; w++) run_one(coll, c, size, sbuf, rbuf);
    /* Iterations: from a short trial (each call between barriers, as timed) on the slowest rank,
     * so that a root that returns at once does not pick thousands of iterations the others need
     * milliseconds for; everyone runs that many. */
    double t0 = MPI_Wtime();
    for (int w = 0; w < 5; w++) {
        if (!barrier) MPI_Barrier(c->inter);
        run_one(coll, c, size, sbuf, rbuf);
    }
    double mine = (MPI_Wtime() - t0) / 5, per = 0;
    MPI_Allreduce(&mine, &per, 1, MPI_DOUBLE, MPI_MAX, all);
    long n = per > 0 ? (long)(seconds / per) : 1000;
    if (n < 10) n = 10;
    if (n > 10000) n = 10000;
    double total = 0;
    for (long i = 0; i < n; i++) {
        if (!barrier) MPI_Barrier(c->inter);
        double s = MPI_Wtime();
        run_one(coll, c, size, sbuf, rbuf);
        total += MPI_Wtime() - s;
    }
    *iters = n;
    return total / (double)n * 1e6;
}

/* The first call's result, so that a broken implementation is not timed. */
static void check(const char *coll, const ictx *c, long size, char *sbuf, char *rbuf)
{
    if (strcmp(coll, "bcast") == 0 && !c->in_a && size > 0) {
        for (long i = 0; i < size; i++)
            if (sbuf[i] != (char)(i * 7 + 1)) fail("bcast delivered wrong bytes");
    }
    if (strcmp(coll, "allreduce") == 0 && size >= 4) {
        float want = (float)c->rn; /* every remote rank gave 1.0 */
        if (((float *)rbuf)[0] != want) fail("allreduce gave a wrong sum");
    }
    if (strcmp(coll, "allgather") == 0 && size > 0) {
        for (int r = 0; r < c->rn; r++)
            if (rbuf[(long)r * size] != (char)(c->in_a ? 'B' : 'A')) fail("allgather delivered wrong blocks");
    }
}

/* What each process sends: floats of 1.0 for the reductions, the bcast pattern at the root, its
 * group's letter otherwise (so that a block shows which group it came from). */
static void fill(const char *coll, const ictx *c, long size, char *sbuf, long bytes)
{
    memset(sbuf, c->in_a ? 'A' : 'B', (size_t)bytes);
    if (strcmp(coll, "reduce") == 0 || strcmp(coll, "allreduce") == 0) {
        const float one = 1.0f;
        for (long i = 0; i + 4 <= bytes; i += 4) memcpy(sbuf + i, &one, 4);
    } else if (strcmp(coll, "bcast") == 0 && c->in_a && c->lr == 0) {
        for (long i = 0; i < size; i++) sbuf[i] = (char)(i * 7 + 1);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int a = 1, spawn = 0;
    const char *colls = "bcast,reduce,allreduce,allgather,alltoall,barrier";
    const char *sizes = "8,64,512,4096,32768,262144,524288,2097152";
    double seconds = 0.2;
    int osu = 0;
    long osu_iters = 200;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--a") == 0) a = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--colls") == 0) colls = argv[i + 1];
        else if (strcmp(argv[i], "--sizes") == 0) sizes = argv[i + 1];
        else if (strcmp(argv[i], "--seconds") == 0) seconds = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--spawn") == 0) spawn = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--mode") == 0 && strcmp(argv[i + 1], "osu") == 0) osu = 1;
        else if (strcmp(argv[i], "--mode") == 0 && strcmp(argv[i + 1], "paper") == 0) osu = 0;
        else if (strcmp(argv[i], "--iters") == 0 && atol(argv[i + 1]) > 0) osu_iters = atol(argv[i + 1]);
        else fail("usage: coll_inter_bench --a A | --spawn N [--colls LIST] [--sizes LIST] [--seconds S] "
                  "[--mode paper|osu] [--iters N]");
    }

    ictx c;
    MPI_Comm local = MPI_COMM_NULL, all = MPI_COMM_WORLD, parent = MPI_COMM_NULL;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL || spawn > 0) {
        /* Children get the parents' arguments (without --spawn), so both sides run the same points. */
        c.in_a = parent == MPI_COMM_NULL;
        if (c.in_a) {
            char **child_argv = calloc((size_t)argc + 1, sizeof *child_argv);
            int k = 0;
            for (int i = 1; i < argc; i++) {
                if (strcmp(argv[i], "--spawn") == 0) { i++; continue; }
                child_argv[k++] = argv[i];
            }
            child_argv[k] = NULL;
            MPI_Comm_spawn(argv[0], child_argv, spawn, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &c.inter,
                           MPI_ERRCODES_IGNORE);
            free(child_argv);
        } else {
            c.inter = parent;
        }
        MPI_Intercomm_merge(c.inter, !c.in_a, &all);
        MPI_Comm_rank(all, &rank);
        MPI_Comm_size(all, &n);
    } else {
        if (a < 1 || a >= n) fail("--a must leave both groups at least one rank");
        c.in_a = rank < a;
        MPI_Comm_split(MPI_COMM_WORLD, c.in_a, rank, &local);
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, c.in_a ? a : 0, 77, &c.inter);
    }
    MPI_Comm_rank(c.inter, &c.lr);
    MPI_Comm_size(c.inter, &c.ln);
    MPI_Comm_remote_size(c.inter, &c.rn);

    long max_size = 0;
    char list[1024];
    snprintf(list, sizeof list, "%s", sizes);
    for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) max_size = atol(t) > max_size ? atol(t) : max_size;
    const long bytes = (max_size + 64) * (n > 8 ? n : 8);
    char *sbuf = malloc((size_t)bytes), *rbuf = malloc((size_t)bytes);
    if (!sbuf || !rbuf) fail("out of memory");
    memset(rbuf, 0, (size_t)bytes);
    if (rank == 0) {
        if (osu)
            printf("# coll_inter_bench: groups %d + %d%s, osu mode: 10 untimed and %ld timed calls per point, a "
                   "barrier after each; us per call, average, min and max over ranks of the mean\n",
                   c.ln, c.rn, all != MPI_COMM_WORLD ? " (spawned)" : "", osu_iters);
        else
            printf("# coll_inter_bench: groups %d + %d%s, %.2f s per point; us per call, max and min over ranks of "
                   "the mean\n",
                   c.ln, c.rn, all != MPI_COMM_WORLD ? " (spawned)" : "", seconds);
        fflush(stdout);
    }
    int everyone = 0;
    MPI_Comm_size(all, &everyone);

    char clist[256];
    snprintf(clist, sizeof clist, "%s", colls);
    const char *order[] = {"bcast", "reduce", "allreduce", "allgather", "alltoall", "barrier"};
    for (int k = 0; k < 6; k++) {
        const char *coll = order[k];
        if (!has(clist, coll)) continue;
        snprintf(list, sizeof list, "%s", sizes);
        for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
            long size = strcmp(coll, "barrier") == 0 ? 0 : atol(t);
            fill(coll, &c, size, sbuf, bytes);
            run_one(coll, &c, size, sbuf, rbuf);
            check(coll, &c, size, sbuf, rbuf);
            long iters = osu_iters;
            double mean = osu ? time_osu(coll, &c, size, sbuf, rbuf, iters)
                              : time_paper(coll, &c, size, sbuf, rbuf, seconds, all, &iters);
            double hi = 0, lo = 0, sum = 0;
            MPI_Reduce(&mean, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, all);
            MPI_Reduce(&mean, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, all);
            MPI_Reduce(&mean, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, all);
            if (rank == 0) {
                if (osu) printf("%s %ld %.3f %.3f %.3f %ld\n", coll, size, sum / everyone, lo, hi, iters);
                else printf("%s %ld %.3f %.3f %ld\n", coll, size, hi, lo, iters);
                fflush(stdout);
            }
            if (strcmp(coll, "barrier") == 0) break;
        }
    }
    free(sbuf);
    free(rbuf);
    if (all != MPI_COMM_WORLD) MPI_Comm_free(&all);
    if (local != MPI_COMM_NULL) MPI_Comm_free(&local);
    if (parent != MPI_COMM_NULL || spawn > 0) MPI_Comm_disconnect(&c.inter);
    else MPI_Comm_free(&c.inter);
    MPI_Finalize();
    return 0;
}
