/* Collectives whose blocks carry no data, described differently on the two sides of a transfer
 * (issue 15, item 5; the situation of MPICH's test/mpi/coll/alltoallw_zeros.c). MPI matches a
 * block by its type signature, not its count: "0 of MPI_INT", "1 of MPI_Type_contiguous(0,
 * MPI_INT)" and "2 of a struct of one zero-length block" all describe the same empty block, and
 * each side of a transfer may pick any of them. An implementation that decides by the count
 * whether to send or receive posts a receive no send will match (a hang) or sends a message no
 * receive takes (a stray that the next collective of the same kind then takes instead of its own
 * data).
 *
 * Every collective with per-block counts or types (Alltoallv, Alltoallw, Gatherv, Scatterv,
 * Allgatherv, and Alltoall, Allgather, Gather, Scatter, whose counts may differ between processes
 * too) runs in rounds that pair every way of describing the empty block on the sending side with
 * every way on the receiving side, on MPI_COMM_WORLD and on an inter-communicator of unequal
 * groups (plus MPI_IN_PLACE for Alltoallv/w, and Alltoallw rounds that mix real and empty
 * blocks). Empty blocks must leave every receive buffer untouched. Each zero-size call is followed
 * on the same communicator by the same collective with one MPI_INT per block, checked value by
 * value (a stray message from the empty call would be taken in place of a value), and then by the
 * next collective. MPI_Bcast of an empty message described differently by the root and the
 * receivers, too. A hang becomes a failure by the launcher's --timeout.
 *
 * Usage: coll_zero_size (2-8 ranks) */
#include "test_util.h"

enum { FLAVORS = 3, GUARD = -7777 };

/* Reference bugs: Open MPI 4.1.4 and MPICH 4.0.2 pass MPICH's alltoallw_zeros test (intra-
 * communicator Alltoallv and Alltoallw), but not several of the other collectives when processes
 * describe the same empty blocks with different counts, which MPI allows (the signatures match):
 * Open MPI fails Allgather(v), Gather(v), Scatter and the inter-communicator Alltoallv
 * (MPI_ERR_TRUNCATE, MPI_ERR_OTHER, a hang), MPICH Alltoall and Allgather(v) (MPI_ERR_TRUNCATE,
 * lost data). For them everything but the intra-communicator Alltoallv and Alltoallw uses one
 * flavor on every process (still zero-size types, but the same count everywhere). */
#if (defined(OPEN_MPI) && OPEN_MPI && OMPI_MAJOR_VERSION < 5) ||                                  \
    (defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000)
#define CZ_MIXED_ONLY_INTRA_VW 1
#else
#define CZ_MIXED_ONLY_INTRA_VW 0
#endif

static MPI_Datatype zero_contig, zero_struct;

/* The ways to describe an empty block: 0 of MPI_INT, 1 of a contiguous type of nothing, 2 of a
 * struct whose only block has length 0. */
static MPI_Datatype flavor_type(int f) { return f == 0 ? MPI_INT : f == 1 ? zero_contig : zero_struct; }
static int flavor_count(int f) { return f; }

/* The sending and receiving flavors of block (src -> dst) in round k: over rounds 0..8 every pair
 * of flavors meets on every block. */
static int send_flavor(int src, int dst, int k) { return (src + dst + k) % FLAVORS; }
static int recv_flavor(int src, int dst, int k) { return (src + dst + k + 1 + k / 3) % FLAVORS; }
typedef struct {
    MPI_Comm comm;
    const char *name;
    int inter, side, rank, peers; /* peers: the size, or the remote size of an inter-communicator */
} Comm;

/* Process ids unique across both groups of an inter-communicator. */
static int my_id(const Comm *c) { return c->side * 100 + c->rank; }
static int peer_id(const Comm *c, int j) { return (c->inter ? 1 - c->side : c->side) * 100 + j; }
static int value(int src_id, int dst_id, int salt) { return (salt * 256 + src_id) * 256 + dst_id; }

/* Whether processes may describe one block differently in this call (see the reference bugs). */
static int mixed(const Comm *c, int alltoall_vw) { return !CZ_MIXED_ONLY_INTRA_VW || (!c->inter && alltoall_vw); }
/* The flavors at process `me` of a collective with one type per side and process. */
static int side_send_flavor(const Comm *c, int vw, int me, int k) { return mixed(c, vw) ? send_flavor(me, 0, k) : k % FLAVORS; }
static int side_recv_flavor(const Comm *c, int vw, int me, int k) { return mixed(c, vw) ? recv_flavor(me, 0, k) : k % FLAVORS; }

static int *ints(int n, int fill)
{
    int *p = tu_malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; ++i)
        p[i] = fill;
    return p;
}

/* buf[0..n] holds what it held before: GUARD, or the in-place data given by value(). */
static void expect_guard(const Comm *c, const int *buf, int n, const char *what, int round)
{
    for (int i = 0; i < n; ++i)
        CHECK(buf[i] == GUARD, "%s on %s, round %d: slot %d was written (%d) by an empty block", what,
              c->name, round, i, buf[i]);
}

static void expect_value(const Comm *c, int got, int want, const char *what, int slot)
{
    CHECK(got == want, "%s on %s: slot %d holds %d, expected %d (%s)", what, c->name, slot, got, want,
          got == GUARD ? "nothing arrived: a stray message from the zero-size call took its place?"
                       : "wrong data");
}

/* ------------------------------------------------------------------ all-to-all */

/* One MPI_INT per block: the same collective after a zero-size call must get its own data. */
static void real_alltoall(const Comm *c, int which, int salt)
{
    const int n = c->peers;
    int *send = ints(n, 0), *recv = ints(n + 1, GUARD), *counts = ints(n, 1), *displs = ints(n, 0);
    int *bytes = ints(n, 0);
    MPI_Datatype *types = tu_malloc(sizeof(MPI_Datatype) * (size_t)n);
    for (int j = 0; j < n; ++j) {
        send[j] = value(my_id(c), peer_id(c, j), salt);
        displs[j] = j;
        bytes[j] = j * (int)sizeof(int);
        types[j] = MPI_INT;
    }
    const char *what = which == 0 ? "MPI_Alltoall" : which == 1 ? "MPI_Alltoallv" : "MPI_Alltoallw";
    if (which == 0)
        CHECK_MPI(MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, c->comm));
    else if (which == 1)
        CHECK_MPI(MPI_Alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, c->comm));
    else
        CHECK_MPI(MPI_Alltoallw(send, counts, bytes, types, recv, counts, bytes, types, c->comm));
    for (int j = 0; j < n; ++j)
        expect_value(c, recv[j], value(peer_id(c, j), my_id(c), salt), what, j);
    expect_guard(c, recv + n, 1, what, -1);
    free(send), free(recv), free(counts), free(displs), free(bytes), free(types);
}

/* Alltoallw: per block, real (1 MPI_INT) where real_block says so, otherwise empty in the round's
 * flavors; real and empty blocks mixed in one call. */
static int real_block(int src, int dst, int k) { return (src + 2 * dst + k) % 4 == 0; }

static void zero_alltoallw(const Comm *c, int k)
{
    const int n = c->peers, me = my_id(c);
    int *send = ints(n, 0), *recv = ints(n + 1, GUARD), *sc = ints(n, 0), *rc = ints(n, 0);
    int *bytes = ints(n, 0);
    MPI_Datatype *st = tu_malloc(sizeof(MPI_Datatype) * (size_t)n);
    MPI_Datatype *rt = tu_malloc(sizeof(MPI_Datatype) * (size_t)n);
    for (int j = 0; j < n; ++j) {
        const int p = peer_id(c, j);
        bytes[j] = j * (int)sizeof(int);
        send[j] = value(me, p, 1000 + k);
        const int out_real = real_block(me, p, k), in_real = real_block(p, me, k);
        const int sf = mixed(c, 1) ? send_flavor(me, p, k) : k % FLAVORS;
        const int rf = mixed(c, 1) ? recv_flavor(p, me, k) : k % FLAVORS;
        st[j] = out_real ? MPI_INT : flavor_type(sf);
        sc[j] = out_real ? 1 : flavor_count(sf);
        rt[j] = in_real ? MPI_INT : flavor_type(rf);
        rc[j] = in_real ? 1 : flavor_count(rf);
    }
    CHECK_MPI(MPI_Alltoallw(send, sc, bytes, st, recv, rc, bytes, rt, c->comm));
    for (int j = 0; j < n; ++j) {
        const int p = peer_id(c, j);
        if (real_block(p, me, k))
            expect_value(c, recv[j], value(p, me, 1000 + k), "MPI_Alltoallw (real and empty blocks)", j);
        else
            expect_guard(c, recv + j, 1, "MPI_Alltoallw", k);
    }
    expect_guard(c, recv + n, 1, "MPI_Alltoallw", k);
    free(send), free(recv), free(sc), free(rc), free(bytes), free(st), free(rt);
}

/* Alltoall and Alltoallv: one type per side and process, so every block of a call is empty. */
static void zero_alltoall(const Comm *c, int which, int k)
{
    const int n = c->peers, me = my_id(c);
    const int sf = side_send_flavor(c, which == 1, me, k), rf = side_recv_flavor(c, which == 1, me, k);
    int *send = ints(n, 1), *recv = ints(n + 1, GUARD), *sc = ints(n, flavor_count(sf));
    int *rc = ints(n, flavor_count(rf)), *displs = ints(n, 0);
    for (int j = 0; j < n; ++j)
        displs[j] = j;
    if (which == 0)
        CHECK_MPI(MPI_Alltoall(send, flavor_count(sf), flavor_type(sf), recv, flavor_count(rf), flavor_type(rf),
                               c->comm));
    else
        CHECK_MPI(MPI_Alltoallv(send, sc, displs, flavor_type(sf), recv, rc, displs, flavor_type(rf), c->comm));
    expect_guard(c, recv, n + 1, which == 0 ? "MPI_Alltoall" : "MPI_Alltoallv", k);
    free(send), free(recv), free(sc), free(rc), free(displs);
}

/* MPI_IN_PLACE (intra only): the counts and types of block (i, j) describe both directions, so
 * they must have equal signatures at i and j; the flavors still differ between the two. */
static void zero_in_place(const Comm *c, int which, int k)
{
    const int n = c->peers, me = my_id(c);
    int *buf = ints(n + 1, GUARD), *counts = ints(n, 0), *displs = ints(n, 0);
    MPI_Datatype *types = tu_malloc(sizeof(MPI_Datatype) * (size_t)n);
    const int vf = (me + k) % FLAVORS; /* Alltoallv: one type per process */
    for (int j = 0; j < n; ++j) {
        const int real = which == 2 && (me + j + k) % 4 == 0; /* symmetric in (me, j) */
        const int f = which == 1 ? vf : (me + 2 * j + k) % FLAVORS;
        if (real)
            buf[j] = value(me, j, 2000 + k);
        types[j] = real ? MPI_INT : flavor_type(f);
        counts[j] = real ? 1 : flavor_count(f);
        displs[j] = which == 1 ? j : j * (int)sizeof(int);
    }
    if (which == 1)
        CHECK_MPI(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_INT, buf, counts, displs, flavor_type(vf), c->comm));
    else
        CHECK_MPI(MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, buf, counts, displs, types, c->comm));
    const char *what = which == 1 ? "in-place MPI_Alltoallv" : "in-place MPI_Alltoallw";
    for (int j = 0; j < n; ++j) {
        if (which == 2 && (me + j + k) % 4 == 0)
            expect_value(c, buf[j], value(j, me, 2000 + k), what, j);
        else
            expect_guard(c, buf + j, 1, what, k);
    }
    expect_guard(c, buf + n, 1, what, k);
    free(buf), free(counts), free(displs), free(types);
}

/* ------------------------------------------------------------------ all-gather */

static void real_allgather(const Comm *c, int v, int salt)
{
    const int n = c->peers;
    int mine = value(my_id(c), 0, salt);
    int *recv = ints(n + 1, GUARD), *counts = ints(n, 1), *displs = ints(n, 0);
    for (int j = 0; j < n; ++j)
        displs[j] = j;
    if (v)
        CHECK_MPI(MPI_Allgatherv(&mine, 1, MPI_INT, recv, counts, displs, MPI_INT, c->comm));
    else
        CHECK_MPI(MPI_Allgather(&mine, 1, MPI_INT, recv, 1, MPI_INT, c->comm));
    for (int j = 0; j < n; ++j)
        expect_value(c, recv[j], value(peer_id(c, j), 0, salt), v ? "MPI_Allgatherv" : "MPI_Allgather", j);
    expect_guard(c, recv + n, 1, v ? "MPI_Allgatherv" : "MPI_Allgather", -1);
    free(recv), free(counts), free(displs);
}

static void zero_allgather(const Comm *c, int v, int k)
{
    const int n = c->peers, me = my_id(c);
    const int sf = side_send_flavor(c, 0, me, k), rf = side_recv_flavor(c, 0, me, k);
    int mine = 1;
    int *recv = ints(n + 1, GUARD), *counts = ints(n, flavor_count(rf)), *displs = ints(n, 0);
    for (int j = 0; j < n; ++j)
        displs[j] = j;
    if (v)
        CHECK_MPI(MPI_Allgatherv(&mine, flavor_count(sf), flavor_type(sf), recv, counts, displs, flavor_type(rf),
                                 c->comm));
    else
        CHECK_MPI(MPI_Allgather(&mine, flavor_count(sf), flavor_type(sf), recv, flavor_count(rf), flavor_type(rf),
                                c->comm));
    expect_guard(c, recv, n + 1, v ? "MPI_Allgatherv" : "MPI_Allgather", k);
    free(recv), free(counts), free(displs);
}

/* ------------------------------------------------------------------ rooted */

/* The root: rank r of the group root_side (an intra-communicator has one group, side 0). */
typedef struct {
    int side, rank;
} Root;

static int is_root(const Comm *c, Root r) { return c->side == r.side && c->rank == r.rank; }
/* Whether this process sends to (Gather) or receives from (Scatter) the root. */
static int is_leaf(const Comm *c, Root r) { return !c->inter || c->side != r.side; }
static int root_arg(const Comm *c, Root r)
{
    if (!c->inter || c->side != r.side)
        return r.rank;
    return c->rank == r.rank ? MPI_ROOT : MPI_PROC_NULL;
}
static int root_id(Root r) { return r.side * 100 + r.rank; }

/* which: 0 Gather, 1 Gatherv, 2 Scatter, 3 Scatterv; one MPI_INT per block. */
static const char *rooted_name(int which)
{
    static const char *names[] = {"MPI_Gather", "MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv"};
    return names[which];
}

static void real_rooted(const Comm *c, int which, Root r, int salt)
{
    const int n = c->peers, gather = which < 2;
    int *many = ints(n + 1, GUARD), *counts = ints(n, 1), *displs = ints(n, 0), one = GUARD;
    for (int j = 0; j < n; ++j) {
        displs[j] = j;
        if (!gather)
            many[j] = value(root_id(r), peer_id(c, j), salt);
    }
    if (gather)
        one = value(my_id(c), 0, salt);
    const int ra = root_arg(c, r);
    switch (which) {
    case 0: CHECK_MPI(MPI_Gather(&one, 1, MPI_INT, many, 1, MPI_INT, ra, c->comm)); break;
    case 1: CHECK_MPI(MPI_Gatherv(&one, 1, MPI_INT, many, counts, displs, MPI_INT, ra, c->comm)); break;
    case 2: CHECK_MPI(MPI_Scatter(many, 1, MPI_INT, &one, 1, MPI_INT, ra, c->comm)); break;
    default: CHECK_MPI(MPI_Scatterv(many, counts, displs, MPI_INT, &one, 1, MPI_INT, ra, c->comm)); break;
    }
    if (gather && is_root(c, r)) {
        for (int j = 0; j < n; ++j)
            expect_value(c, many[j], value(peer_id(c, j), 0, salt), rooted_name(which), j);
        expect_guard(c, many + n, 1, rooted_name(which), -1);
    } else if (!gather && is_leaf(c, r)) {
        expect_value(c, one, value(root_id(r), my_id(c), salt), rooted_name(which), 0);
    }
    free(many), free(counts), free(displs);
}

/* Every block empty: the root describes them in one flavor, each leaf in its own. */
static void zero_rooted(const Comm *c, int which, Root r, int k)
{
    const int n = c->peers, me = my_id(c);
    const int lf = side_send_flavor(c, 0, me, k), rf = side_recv_flavor(c, 0, root_id(r), k);
    int *many = ints(n + 1, GUARD), *counts = ints(n, flavor_count(rf)), *displs = ints(n, 0), one = GUARD;
    for (int j = 0; j < n; ++j)
        displs[j] = j;
    const MPI_Datatype lt = flavor_type(lf), rt = flavor_type(rf);
    const int lc = flavor_count(lf), rc = flavor_count(rf), ra = root_arg(c, r);
    switch (which) {
    case 0: CHECK_MPI(MPI_Gather(&one, lc, lt, many, rc, rt, ra, c->comm)); break;
    case 1: CHECK_MPI(MPI_Gatherv(&one, lc, lt, many, counts, displs, rt, ra, c->comm)); break;
    case 2: CHECK_MPI(MPI_Scatter(many, rc, rt, &one, lc, lt, ra, c->comm)); break;
    default: CHECK_MPI(MPI_Scatterv(many, counts, displs, rt, &one, lc, lt, ra, c->comm)); break;
    }
    expect_guard(c, many, n + 1, rooted_name(which), k);
    expect_guard(c, &one, 1, rooted_name(which), k);
    free(many), free(counts), free(displs);
}

/* Bcast: the root's message and the receivers' buffers empty in different flavors (on an
 * inter-communicator the receiving group's local phase must agree that there is nothing to pass
 * on), then a message of one MPI_INT. */
static void zero_bcast(const Comm *c, Root r, int k)
{
    const int f = is_root(c, r) ? side_recv_flavor(c, 0, root_id(r), k) : side_send_flavor(c, 0, my_id(c), k);
    int buf[2] = {GUARD, GUARD};
    CHECK_MPI(MPI_Bcast(buf, flavor_count(f), flavor_type(f), root_arg(c, r), c->comm));
    expect_guard(c, buf, 2, "MPI_Bcast", k);
    int one = is_root(c, r) ? value(root_id(r), 0, 3000 + k) : GUARD;
    CHECK_MPI(MPI_Bcast(&one, 1, MPI_INT, root_arg(c, r), c->comm));
    if (is_leaf(c, r))
        expect_value(c, one, value(root_id(r), 0, 3000 + k), "MPI_Bcast", 0);
}

/* ------------------------------------------------------------------ the sequence */

static void run_all(const Comm *c)
{
    int salt = 1;
    for (int k = 0; k < 9; ++k) {
        zero_alltoallw(c, k);
        real_alltoall(c, 2, salt++);
        for (int which = 0; which < 2; ++which) {
            zero_alltoall(c, which, k);
            real_alltoall(c, which, salt++);
        }
        if (!c->inter) {
            zero_in_place(c, 1, k);
            real_alltoall(c, 1, salt++);
            zero_in_place(c, 2, k);
            real_alltoall(c, 2, salt++);
        }
        for (int v = 0; v < 2; ++v) {
            zero_allgather(c, v, k);
            real_allgather(c, v, salt++);
        }
        /* Roots: every rank of an intra-communicator in turn; rank 0 or the last rank of either
         * group of an inter-communicator (its size is the local size there, the remote one here). */
        Root r = {0, k % c->peers};
        if (c->inter) {
            int root_group = c->peers;
            if (c->side == k % 2)
                CHECK_MPI(MPI_Comm_size(c->comm, &root_group));
            r = (Root){k % 2, k % 4 < 2 ? 0 : root_group - 1};
        }
        for (int which = 0; which < 4; ++which) {
            zero_rooted(c, which, r, k);
            real_rooted(c, which, r, salt++);
        }
        zero_bcast(c, r, k);
    }
}

static MPI_Datatype zero_size_struct(void)
{
    int len = 0;
    MPI_Aint disp = 0;
    MPI_Datatype member = MPI_INT, t;
    CHECK_MPI(MPI_Type_create_struct(1, &len, &disp, &member, &t));
    return t;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 8);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &zero_contig));
    CHECK_MPI(MPI_Type_commit(&zero_contig));
    zero_struct = zero_size_struct();
    CHECK_MPI(MPI_Type_commit(&zero_struct));
    int size = -1;
    CHECK_MPI(MPI_Type_size(zero_struct, &size));
    CHECK_EQ(size, 0);

    Comm world = {MPI_COMM_WORLD, "MPI_COMM_WORLD", 0, 0, tu_rank, tu_size};
    run_all(&world);

    /* Groups of unequal size where possible: 1/1, 1/4, 2/6. */
    const int low = tu_size / 3 > 0 ? tu_size / 3 : 1, side = tu_rank >= low;
    MPI_Comm local, inter;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, tu_rank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side ? 0 : low, 15, &inter));
    CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
    char name[64];
    snprintf(name, sizeof name, "an inter-communicator %d/%d", low, tu_size - low);
    Comm ic = {inter, name, 1, side, 0, 0};
    CHECK_MPI(MPI_Comm_rank(inter, &ic.rank));
    CHECK_MPI(MPI_Comm_remote_size(inter, &ic.peers));
    run_all(&ic);
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));

    CHECK_MPI(MPI_Type_free(&zero_contig));
    CHECK_MPI(MPI_Type_free(&zero_struct));
    return tu_finish("Alltoall(v,w) (also in place), Allgather(v), Gather(v), Scatter(v), Bcast "
                     "with empty blocks described as 0 x MPI_INT, 1 x contiguous(0), 2 x empty "
                     "struct on either side, each followed by the same collective with data");
}
