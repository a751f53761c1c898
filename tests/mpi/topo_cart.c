/* Cartesian topologies against the sequential model (topo_model.h), at any number of ranks:
 * grids of 1-3 dimensions (every periodicity pattern of the 2-D ones, four of the 3-D ones),
 * smaller than the communicator, with one process, and Dims_create's shapes; on MPI_COMM_WORLD
 * (reorder 0 and 1) and on a reversed communicator (reorder 0). For each: who gets
 * MPI_COMM_NULL, Topo_test, Cartdim_get, Cart_get, Cart_coords and Cart_rank of every rank
 * (periodic coordinates out of range wrap), Cart_shift for every dimension and displacement
 * -3..3, a message to each shift neighbour (the new communicator connects the ranks its topology
 * names), which old rank each grid rank is (reorder 0: grid rank r is comm_old's rank r); and for
 * the reorder 0 grids: Comm_dup keeps the topology, Comm_split drops it, Cart_sub for every
 * subset of dimensions (sizes, ranks, the members by Allgather, the sub-grid); Cart_map (under
 * Plexus: rank r takes position r). --bind binds each rank to one CPU first, so that reorder 1
 * has bindings to place by (the PASS line says in how many grids it moved ranks). */
#define _GNU_SOURCE /* sched_setaffinity */
#include <dirent.h>
#include <sched.h>
#include <sys/types.h>

#include "topo_model.h"

static int grids, subs, moved_grids;

/* --bind: rank r runs on the (r mod n)-th of the n CPUs it may use, so that reorder 1 has
 * bindings to go by (the launcher leaves more ranks than cores unbound). */
static void bind_to_cpu(void)
{
    cpu_set_t allowed, one;
    int cpu, n = 0, pick;
    CHECK(sched_getaffinity(0, sizeof allowed, &allowed) == 0, "sched_getaffinity failed");
    pick = tu_rank % CPU_COUNT(&allowed);
    for (cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (!CPU_ISSET(cpu, &allowed))
            continue;
        if (n++ == pick)
            break;
    }
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    /* Every thread (MPI_Init started some): a process is bound where all of them are. */
    {
        DIR *tasks = opendir("/proc/self/task");
        struct dirent *t;
        CHECK(tasks != NULL, "cannot list /proc/self/task");
        while ((t = readdir(tasks)) != NULL)
            if (t->d_name[0] != '.')
                CHECK(sched_setaffinity((pid_t)atoi(t->d_name), sizeof one, &one) == 0,
                      "sched_setaffinity of thread %s to CPU %d failed", t->d_name, cpu);
        closedir(tasks);
    }
}

static void check_positions(MPI_Comm cart, int ndims, const int *dims, const int *periods)
{
    int n = tm_product(ndims, dims), r, d, c[TM_MAX_DIMS], want[TM_MAX_DIMS], got;
    for (r = 0; r < n; ++r) {
        tm_coords(ndims, dims, r, want);
        CHECK_MPI(MPI_Cart_coords(cart, r, ndims, c));
        for (d = 0; d < ndims; ++d)
            CHECK(c[d] == want[d], "Cart_coords(%d)[%d] = %d, expected %d", r, d, c[d], want[d]);
        CHECK_MPI(MPI_Cart_rank(cart, want, &got));
        CHECK_EQ(got, r);
        for (d = 0; d < ndims; ++d) { /* periodic dimensions wrap, twice around and backwards */
            if (!periods[d])
                continue;
            memcpy(c, want, sizeof c);
            c[d] = want[d] + 2 * dims[d];
            CHECK_MPI(MPI_Cart_rank(cart, c, &got));
            CHECK_EQ(got, r);
            c[d] = want[d] - dims[d];
            CHECK_MPI(MPI_Cart_rank(cart, c, &got));
            CHECK_EQ(got, r);
        }
    }
}

static void check_shifts(MPI_Comm cart, int ndims, const int *dims, const int *periods)
{
    int me, d, disp, src, dst, wsrc, wdst;
    MPI_Comm_rank(cart, &me);
    for (d = 0; d < ndims; ++d) {
        for (disp = -3; disp <= 3; ++disp) {
            CHECK_MPI(MPI_Cart_shift(cart, d, disp, &src, &dst));
            tm_shift(ndims, dims, periods, me, d, disp, &wsrc, &wdst);
            CHECK(src == wsrc && dst == wdst, "rank %d, Cart_shift(dim %d, disp %d) = (%d, %d), expected (%d, %d)",
                  me, d, disp, src, dst, wsrc, wdst);
        }
        /* The neighbours are reachable on this communicator: each sends its grid rank on. */
        CHECK_MPI(MPI_Cart_shift(cart, d, 1, &src, &dst));
        {
            int out = me, in = -7;
            MPI_Status st;
            CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, dst, 5, &in, 1, MPI_INT, src, 5, cart, &st));
            CHECK_EQ(in, src == MPI_PROC_NULL ? -7 : src);
        }
    }
}

static void check_queries(MPI_Comm cart, int ndims, const int *dims, const int *periods)
{
    int status, nd, me, d, gd[TM_MAX_DIMS], gp[TM_MAX_DIMS], gc[TM_MAX_DIMS], want[TM_MAX_DIMS];
    CHECK_MPI(MPI_Topo_test(cart, &status));
    CHECK_EQ(status, MPI_CART);
    CHECK_MPI(MPI_Cartdim_get(cart, &nd));
    CHECK_EQ(nd, ndims);
    MPI_Comm_rank(cart, &me);
    tm_coords(ndims, dims, me, want);
    CHECK_MPI(MPI_Cart_get(cart, TM_MAX_DIMS, gd, gp, gc));
    for (d = 0; d < ndims; ++d) {
        CHECK(gd[d] == dims[d] && !!gp[d] == !!periods[d] && gc[d] == want[d],
              "Cart_get dimension %d: dims %d periods %d coords %d, expected %d %d %d", d, gd[d], gp[d], gc[d],
              dims[d], periods[d], want[d]);
    }
}

/* Cart_sub keeping the dimensions of mask: the members are the ranks that share my dropped
 * coordinates, in the row-major order of the kept ones. */
static void check_sub(MPI_Comm cart, int ndims, const int *dims, const int *periods, int mask)
{
    int remain[TM_MAX_DIMS], kd[TM_MAX_DIMS], kp[TM_MAX_DIMS], nk = 0, d, me, mine[TM_MAX_DIMS], size, rank;
    int *members, j, status, gd[TM_MAX_DIMS], gp[TM_MAX_DIMS], gc[TM_MAX_DIMS], kc[TM_MAX_DIMS];
    MPI_Comm sub;
    MPI_Comm_rank(cart, &me);
    tm_coords(ndims, dims, me, mine);
    for (d = 0; d < ndims; ++d) {
        remain[d] = (mask >> d) & 1;
        if (remain[d]) {
            kd[nk] = dims[d];
            kp[nk] = periods[d];
            kc[nk++] = mine[d];
        }
    }
    CHECK_MPI(MPI_Cart_sub(cart, remain, &sub));
    CHECK(sub != MPI_COMM_NULL, "Cart_sub gave MPI_COMM_NULL");
    MPI_Comm_size(sub, &size);
    MPI_Comm_rank(sub, &rank);
    CHECK_EQ(size, tm_product(nk, kd));
    CHECK_EQ(rank, tm_rank(nk, kd, kp, kc));
    CHECK_MPI(MPI_Topo_test(sub, &status));
    CHECK_EQ(status, MPI_CART);
    CHECK_MPI(MPI_Cartdim_get(sub, &d));
    CHECK_EQ(d, nk);
    CHECK_MPI(MPI_Cart_get(sub, TM_MAX_DIMS, gd, gp, gc));
    for (d = 0; d < nk; ++d)
        CHECK(gd[d] == kd[d] && !!gp[d] == !!kp[d] && gc[d] == kc[d], "Cart_sub mask %d dimension %d", mask, d);
    members = (int *)tu_malloc(sizeof(int) * (size_t)size);
    CHECK_MPI(MPI_Allgather(&me, 1, MPI_INT, members, 1, MPI_INT, sub));
    for (j = 0; j < size; ++j) {
        int c[TM_MAX_DIMS], sc[TM_MAX_DIMS], k = 0;
        tm_coords(nk, kd, j, sc);
        for (d = 0; d < ndims; ++d)
            c[d] = remain[d] ? sc[k++] : mine[d];
        CHECK(members[j] == tm_rank(ndims, dims, periods, c),
              "Cart_sub mask %d: sub rank %d is grid rank %d, expected %d", mask, j, members[j],
              tm_rank(ndims, dims, periods, c));
    }
    free(members);
    check_shifts(sub, nk, kd, kp);
    MPI_Comm_free(&sub);
    ++subs;
}

static void check_dup_split(MPI_Comm cart, int ndims, const int *dims, const int *periods)
{
    MPI_Comm dup, split;
    int status;
    CHECK_MPI(MPI_Comm_dup(cart, &dup));
    check_queries(dup, ndims, dims, periods);
    check_shifts(dup, ndims, dims, periods);
    CHECK_MPI(MPI_Comm_split(cart, 0, 0, &split));
    CHECK_MPI(MPI_Topo_test(split, &status));
    CHECK_EQ(status, MPI_UNDEFINED);
    MPI_Comm_free(&split);
    MPI_Comm_free(&dup);
}

/* One grid on old (whose rank r is world rank world_of[r]). */
static void grid(MPI_Comm old, const int *world_of, int ndims, const int *dims, const int *periods, int reorder)
{
    int old_rank, old_size, n = tm_product(ndims, dims), in = 0, members = 0, mask, size, map, moved = 0, any;
    MPI_Comm cart;
    MPI_Comm_rank(old, &old_rank);
    MPI_Comm_size(old, &old_size);
    CHECK_MPI(MPI_Cart_create(old, ndims, dims, periods, reorder, &cart));
    in = cart != MPI_COMM_NULL;
    CHECK_MPI(MPI_Allreduce(&in, &members, 1, MPI_INT, MPI_SUM, old));
    CHECK_EQ(members, n);
    if (!reorder)
        CHECK(in == (old_rank < n), "old rank %d of %d: %s a grid of %d", old_rank, old_size,
              in ? "in" : "not in", n);
    CHECK_MPI(MPI_Cart_map(old, ndims, dims, periods, &map));
#ifdef PLEXUS_MPI
    CHECK_EQ(map, old_rank < n ? old_rank : MPI_UNDEFINED);
#elif !defined(OPEN_MPI) /* Open MPI 4.1 gives ranks beyond the grid their own rank */
    CHECK(map == MPI_UNDEFINED || (map >= 0 && map < n), "Cart_map gave %d for a grid of %d", map, n);
#endif
    if (in) {
        int me, world, *who = (int *)tu_malloc(sizeof(int) * (size_t)n), r;
        MPI_Comm_size(cart, &size);
        CHECK_EQ(size, n);
        MPI_Comm_rank(cart, &me);
        MPI_Comm_rank(MPI_COMM_WORLD, &world);
        CHECK_MPI(MPI_Allgather(&world, 1, MPI_INT, who, 1, MPI_INT, cart));
        for (r = 0; r < n && !reorder; ++r)
            CHECK(who[r] == world_of[r], "grid rank %d is world rank %d, expected comm_old's rank %d (world %d)",
                  r, who[r], r, world_of[r]);
        for (r = 0; r < n; ++r)
            moved |= who[r] != world_of[r];
        free(who);
        check_queries(cart, ndims, dims, periods);
        check_positions(cart, ndims, dims, periods);
        check_shifts(cart, ndims, dims, periods);
        if (!reorder) { /* the reordered grids' communicators are built the same way */
            check_dup_split(cart, ndims, dims, periods);
            /* MPICH 4.0.2 gives MPI_COMM_NULL for a sub-grid of no dimensions (mask 0) */
#ifdef MPICH_VERSION
            for (mask = 1; mask < (1 << ndims); ++mask)
#else
            for (mask = 0; mask < (1 << ndims); ++mask)
#endif
                check_sub(cart, ndims, dims, periods, mask);
        }
        MPI_Comm_free(&cart);
    }
    CHECK_MPI(MPI_Allreduce(&moved, &any, 1, MPI_INT, MPI_MAX, old));
    moved_grids += any;
    ++grids;
}

/* The grids on old; `both_orders`: with reorder 1 as well as 0 (the reversed communicator runs
 * reorder 0 only, which is where its order must show; this keeps the ASan run short). */
static void grids_on(MPI_Comm old, const int *world_of, int size, int both_orders)
{
    static const int patterns3[] = {0, 5, 6, 7}; /* none, two mixes, all periodic */
    int reorder, p, d2[2] = {0, 0}, d3[3] = {0, 0, 0};
    MPI_Dims_create(size, 2, d2);
    MPI_Dims_create(size, 3, d3);
    for (reorder = 0; reorder <= both_orders; ++reorder) {
        int one[1], per[3];
        one[0] = size, per[0] = 1;
        grid(old, world_of, 1, one, per, reorder);
        per[0] = 0;
        grid(old, world_of, 1, one, per, reorder);
        if (size > 1) {
            one[0] = size - 1; /* smaller than the communicator */
            grid(old, world_of, 1, one, per, reorder);
        }
        one[0] = 1;
        grid(old, world_of, 1, one, per, reorder);
        for (p = 0; p < 4; ++p) {
            per[0] = p & 1, per[1] = (p >> 1) & 1;
            grid(old, world_of, 2, d2, per, reorder);
        }
        for (p = 0; p < 4; ++p) {
            per[0] = patterns3[p] & 1, per[1] = (patterns3[p] >> 1) & 1, per[2] = (patterns3[p] >> 2) & 1;
            grid(old, world_of, 3, d3, per, reorder);
        }
        if (size >= 6) {
            int d[2] = {2, 3};
            per[0] = 1, per[1] = 0;
            grid(old, world_of, 2, d, per, reorder);
        }
    }
}

int main(int argc, char **argv)
{
    int *world_of, r;
    MPI_Comm reversed;
    tu_init(&argc, &argv);
    if (argc > 1 && strcmp(argv[1], "--bind") == 0)
        bind_to_cpu();
    world_of = (int *)tu_malloc(sizeof(int) * (size_t)tu_size);
    for (r = 0; r < tu_size; ++r)
        world_of[r] = r;
    grids_on(MPI_COMM_WORLD, world_of, tu_size, 1);
    /* comm_old's order, not the world's, is the grid's */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, tu_size - tu_rank, &reversed));
    for (r = 0; r < tu_size; ++r)
        world_of[r] = tu_size - 1 - r;
    grids_on(reversed, world_of, tu_size, 0);
    MPI_Comm_free(&reversed);
    free(world_of);
    return tu_finish("%d grids (%d reordered) and %d sub-grids equal the model (coordinates, ranks, shifts, "
                     "members, messages)", grids, moved_grids, subs);
}
