/* Every inter-communicator collective of MPI-2.2, checked element by element against a
 * sequential model (coll_util.h), on inter-communicators of unequal groups: MPI_COMM_WORLD
 * split into A = world ranks [0, k) and B = [k, n) for k = 3, 1, 2 (with 8 ranks: 3/5, 1/7,
 * 2/6; A's local order reversed for odd k), joined by MPI_Intercomm_create. Rooted collectives
 * run with every rank of either group as the root (MPI_ROOT there, MPI_PROC_NULL for the rest of
 * its group, whose buffers must stay untouched; the other group names the root's rank), at
 * least at the small sizes. Barrier: nobody leaves before every rank of the other group entered.
 * Bcast, Gather(v), Scatter(v); Allgather(v) and Alltoall(v)(w) with different block sizes in the
 * two directions; Reduce, Allreduce, Reduce_scatter, Reduce_scatter_block with the other group's
 * contributions folded in its rank order (non-commutative user op included).
 *
 *   coll_inter [--sizes 0,1,7,1000,20000] [--colls bcast,...] */
#include "coll_util.h"

#define DEFAULT_SIZES "0,1,7,1000,20000"
#define SMALL 7

static long calls, checks;
static int g_argc;
static char **g_argv;

typedef struct {
    MPI_Comm inter;
    int k, side, lr, ln, rn;
    char name[64];
} ictx;

static char what_buf[512];
#define WHAT(...) (snprintf(what_buf, sizeof what_buf, __VA_ARGS__), what_buf)

/* A rank's identity in seeds and contributions: its group and its rank there. */
static int id_of(int side, int rank) { return side * 32 + rank; }
static int my_id(const ictx *c) { return id_of(c->side, c->lr); }

static int nroots(const ictx *c, int side, long m)
{
    int n = side == c->side ? c->ln : c->rn;
    return m <= SMALL ? n : (n > 1 ? 2 : 1);
}
static int root_at(const ictx *c, int side, long m, int i)
{
    int n = side == c->side ? c->ln : c->rn;
    return m <= SMALL ? i : (i == 0 ? 0 : n - 1);
}
/* root argument for this rank when rank `root` of group `side` is the root */
static int root_arg(const ictx *c, int side, int root)
{
    if (side != c->side)
        return root;
    return c->lr == root ? MPI_ROOT : MPI_PROC_NULL;
}

static long vunits(long m, int q) { return m + q % 3 - (m > 0 ? 1 : 0); }
static int reverse_displs(int n, const int *counts, int *displs)
{
    int pos = 0;
    for (int q = n - 1; q >= 0; --q) {
        displs[q] = pos + 1;
        pos += 1 + counts[q];
    }
    return pos;
}

static double now_monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ barrier */

static void test_barrier(ictx *c)
{
    for (int w = 0; w < tu_size; ++w) {
        double entered = 0;
        ++calls;
        if (tu_rank == w) {
            tu_sleep_ms(20);
            entered = now_monotonic();
        }
        CHECK_MPI(MPI_Barrier(c->inter));
        double left = now_monotonic();
        CHECK_MPI(MPI_Bcast(&entered, 1, MPI_DOUBLE, w, MPI_COMM_WORLD));
        int w_side = w < c->k ? 0 : 1;
        if (w_side != c->side)
            CHECK(left >= entered, "MPI_Barrier on %s returned %.6f s before world rank %d of the "
                  "other group entered it", c->name, entered - left, w);
        ++checks;
    }
    for (int i = 0; i < 20; ++i, ++calls)
        CHECK_MPI(MPI_Barrier(c->inter));
}

/* ------------------------------------------------------------------ rooted data movement */

static void test_bcast(ictx *c, const long *sizes, int nsizes)
{
    for (int s = 0; s < nsizes; ++s)
        for (int rs = 0; rs < 2; ++rs)
            for (int i = 0; i < nroots(c, rs, sizes[s]); ++i) {
                int root = root_at(c, rs, sizes[s], i);
                cu_pair p = cu_pairs[(s + i + rs) % CU_NPAIRS];
                size_t bytes = cu_pair_bytes(p, sizes[s]);
                int is_root = rs == c->side && c->lr == root, idle = rs == c->side && !is_root;
                int l = is_root ? p.send : p.recv;
                size_t span = cu_span(l, bytes);
                long call = ++calls;
                unsigned char *buf = cu_guarded(span), *want = cu_guarded(span);
                if (!idle)
                    cu_place(l, want, bytes, cu_seed(id_of(rs, root), -1, bytes, call));
                if (is_root)
                    memcpy(buf, want, span);
                CHECK_MPI(MPI_Bcast(buf, cu_count(l, bytes), cu_layout_type(l), root_arg(c, rs, root), c->inter));
                CU_COMPARE(buf, want, span,
                           WHAT("MPI_Bcast on %s: root %d of group %c%s, %zu bytes", c->name, root,
                                "AB"[rs], idle ? " (this rank MPI_PROC_NULL)" : "", bytes));
                ++checks;
                free(buf);
                free(want);
            }
}

/* Gather(v) (scatter 0) and Scatter(v) (scatter 1): blocks between the root and every rank of
 * the other group. */
static void test_rooted(ictx *c, const long *sizes, int nsizes, int scatter, int vector)
{
    static const char *const names[2][2] = {{"MPI_Gather", "MPI_Gatherv"}, {"MPI_Scatter", "MPI_Scatterv"}};
    for (int s = 0; s < nsizes; ++s)
        for (int rs = 0; rs < 2; ++rs)
            for (int i = 0; i < nroots(c, rs, sizes[s]); ++i) {
                long m = sizes[s];
                int root = root_at(c, rs, m, i);
                cu_pair p = cu_pairs[(s + i + rs + 1) % CU_NPAIRS];
                if (scatter && vector && CU_INTER_SCATTERV_SAME_TYPE)
                    p.recv = p.send;
                int is_root = rs == c->side && c->lr == root, idle = rs == c->side && !is_root;
                int other_n = rs == c->side ? c->rn : c->ln; /* size of the non-root group */
                int counts[CU_MAX_RANKS], displs[CU_MAX_RANKS];
                size_t bytes[CU_MAX_RANKS];
                int total = 0, root_l = scatter ? p.send : p.recv, leaf_l = scatter ? p.recv : p.send;
                for (int q = 0; q < other_n; ++q) {
                    bytes[q] = cu_pair_bytes(p, vector ? vunits(m, q) : m);
                    counts[q] = cu_count(root_l, bytes[q]);
                    displs[q] = q * counts[q];
                    total += counts[q];
                }
                if (vector)
                    total = reverse_displs(other_n, counts, displs);
                long call = ++calls;
                int root_id = id_of(rs, root);
                size_t rspan = is_root ? (size_t)total * cu_layout_extent(root_l) : 0;
                unsigned char *rootbuf = cu_guarded(rspan), *want = cu_guarded(rspan);
                for (int q = 0; is_root && q < other_n; ++q) {
                    int leaf_id = id_of(1 - rs, q);
                    uint64_t seed = scatter ? cu_seed(root_id, leaf_id, bytes[q], call)
                                            : cu_seed(leaf_id, root_id, bytes[q], call);
                    cu_place(root_l, want + (size_t)displs[q] * cu_layout_extent(root_l), bytes[q], seed);
                }
                if (is_root && scatter)
                    memcpy(rootbuf, want, rspan);
                size_t lb = !idle && !is_root ? bytes[c->lr] : 0, lspan = cu_span(leaf_l, lb);
                unsigned char *leaf = cu_guarded(lspan), *leaf_want = cu_guarded(lspan);
                if (lb > 0 || (!idle && !is_root)) {
                    uint64_t seed = scatter ? cu_seed(root_id, my_id(c), lb, call) : cu_seed(my_id(c), root_id, lb, call);
                    cu_place(leaf_l, leaf_want, lb, seed);
                    if (!scatter)
                        memcpy(leaf, leaf_want, lspan);
                }
                int ra = root_arg(c, rs, root), lcount = cu_count(leaf_l, lb);
                MPI_Datatype rt = cu_layout_type(root_l), lt = cu_layout_type(leaf_l);
                if (!scatter && !vector)
                    CHECK_MPI(MPI_Gather(leaf, lcount, lt, rootbuf, counts[0], rt, ra, c->inter));
                else if (!scatter)
                    CHECK_MPI(MPI_Gatherv(leaf, lcount, lt, rootbuf, counts, displs, rt, ra, c->inter));
                else if (!vector)
                    CHECK_MPI(MPI_Scatter(rootbuf, counts[0], rt, leaf, lcount, lt, ra, c->inter));
                else
                    CHECK_MPI(MPI_Scatterv(rootbuf, counts, displs, rt, leaf, lcount, lt, ra, c->inter));
                const char *what = WHAT("%s on %s: root %d of group %c, %ld units, %s -> %s%s",
                                        names[scatter][vector], c->name, root, "AB"[rs], m,
                                        cu_layout_name[p.send], cu_layout_name[p.recv],
                                        idle ? " (this rank MPI_PROC_NULL)" : is_root ? " (this rank MPI_ROOT)" : "");
                CU_COMPARE(rootbuf, want, rspan, what);
                CU_COMPARE(leaf, leaf_want, lspan, what);
                ++checks;
                free(rootbuf);
                free(want);
                free(leaf);
                free(leaf_want);
            }
}

/* ------------------------------------------------------------------ all-to-all data movement */

/* Units a rank of group `side` sends each remote rank: the groups differ. */
static long side_units(long m, int side) { return m + side; }

static void test_allgather(ictx *c, const long *sizes, int nsizes, int vector)
{
    for (int s = 0; s < nsizes; ++s)
        for (int ri = 0; ri < (sizes[s] <= SMALL ? CU_NPAIRS : 2); ++ri) {
            long m = sizes[s];
            cu_pair p = cu_pairs[(s + ri) % CU_NPAIRS];
            int other = 1 - c->side;
            long mine_u = side_units(m, c->side), theirs_u = side_units(m, other);
            size_t mine = cu_pair_bytes(p, vector ? vunits(mine_u, c->lr) : mine_u);
            int counts[CU_MAX_RANKS], displs[CU_MAX_RANKS];
            size_t bytes[CU_MAX_RANKS];
            int total = 0;
            for (int q = 0; q < c->rn; ++q) {
                bytes[q] = cu_pair_bytes(p, vector ? vunits(theirs_u, q) : theirs_u);
                counts[q] = cu_count(p.recv, bytes[q]);
                displs[q] = q * counts[q];
                total += counts[q];
            }
            if (vector)
                total = reverse_displs(c->rn, counts, displs);
            long call = ++calls;
            size_t ext = cu_layout_extent(p.recv), span = (size_t)total * ext;
            unsigned char *send = cu_guarded(cu_span(p.send, mine)), *recv = cu_guarded(span), *want = cu_guarded(span);
            cu_place(p.send, send, mine, cu_seed(my_id(c), -1, mine, call));
            for (int q = 0; q < c->rn; ++q)
                cu_place(p.recv, want + (size_t)displs[q] * ext, bytes[q], cu_seed(id_of(other, q), -1, bytes[q], call));
            int sc = cu_count(p.send, mine);
            MPI_Datatype st = cu_layout_type(p.send), rt = cu_layout_type(p.recv);
            if (vector)
                CHECK_MPI(MPI_Allgatherv(send, sc, st, recv, counts, displs, rt, c->inter));
            else
                CHECK_MPI(MPI_Allgather(send, sc, st, recv, counts[0], rt, c->inter));
            CU_COMPARE(recv, want, span,
                       WHAT("%s on %s: %ld units from group A, %ld from B, %s -> %s",
                            vector ? "MPI_Allgatherv" : "MPI_Allgather", c->name, side_units(m, 0),
                            side_units(m, 1), cu_layout_name[p.send], cu_layout_name[p.recv]));
            ++checks;
            free(send);
            free(recv);
            free(want);
        }
}

static long a2a_units(long m, int from, int to) { return m + (from + 2 * to) % 3 - (m > 0 ? 1 : 0); }

static void test_alltoall(ictx *c, const long *sizes, int nsizes, int variant)
{
    static const char *const names[] = {"MPI_Alltoall", "MPI_Alltoallv", "MPI_Alltoallw"};
    int other = 1 - c->side, me = my_id(c);
    for (int s = 0; s < nsizes; ++s)
        for (int ri = 0; ri < (sizes[s] <= SMALL ? CU_NPAIRS : 2); ++ri) {
            long m = sizes[s];
            cu_pair p = cu_pairs[(s + ri) % CU_NPAIRS];
            int n = c->rn, sl[CU_MAX_RANKS], rl[CU_MAX_RANKS];
            size_t sb[CU_MAX_RANKS], rb[CU_MAX_RANKS], so[CU_MAX_RANKS], ro[CU_MAX_RANKS], sspan = 0, rspan = 0;
            int sc[CU_MAX_RANKS], rc[CU_MAX_RANKS], sd[CU_MAX_RANKS], rd[CU_MAX_RANKS];
            MPI_Datatype stt[CU_MAX_RANKS], rtt[CU_MAX_RANKS];
            for (int q = 0; q < n; ++q) {
                int peer = id_of(other, q);
                sl[q] = variant == 2 ? ((q + ri) % 2 ? L_VEC : L_INT) : p.send;
                rl[q] = variant == 2 ? ((q + ri + c->lr) % 2 ? L_INT : L_VEC) : p.recv;
                cu_pair sp = {sl[q], L_VEC}, rp = {L_VEC, rl[q]};
                long su = variant == 0 ? side_units(m, c->side) : a2a_units(m, me, peer);
                long ru = variant == 0 ? side_units(m, other) : a2a_units(m, peer, me);
                sb[q] = variant == 2 ? cu_pair_bytes(sp, su) : cu_pair_bytes(p, su);
                rb[q] = variant == 2 ? cu_pair_bytes(rp, ru) : cu_pair_bytes(p, ru);
                sc[q] = cu_count(sl[q], sb[q]);
                rc[q] = cu_count(rl[q], rb[q]);
                stt[q] = cu_layout_type(sl[q]);
                rtt[q] = cu_layout_type(rl[q]);
            }
            for (int i = 0; i < n; ++i) {
                int q = variant == 0 ? i : n - 1 - i;
                size_t sg = variant == 0 ? 0 : variant == 2 ? 8 : cu_layout_extent(p.send);
                size_t rg = variant == 0 ? 0 : variant == 2 ? 8 : cu_layout_extent(p.recv);
                so[q] = sspan + sg;
                sspan += sg + cu_span(sl[q], sb[q]);
                ro[q] = rspan + rg;
                rspan += rg + cu_span(rl[q], rb[q]);
                sd[q] = (int)(variant == 2 ? so[q] : so[q] / cu_layout_extent(p.send));
                rd[q] = (int)(variant == 2 ? ro[q] : ro[q] / cu_layout_extent(p.recv));
            }
            long call = ++calls;
            unsigned char *send = cu_guarded(sspan), *recv = cu_guarded(rspan), *want = cu_guarded(rspan);
            for (int q = 0; q < n; ++q) {
                int peer = id_of(other, q);
                cu_place(sl[q], send + so[q], sb[q], cu_seed(me, peer, sb[q], call));
                cu_place(rl[q], want + ro[q], rb[q], cu_seed(peer, me, rb[q], call));
            }
            if (variant == 0)
                CHECK_MPI(MPI_Alltoall(send, sc[0], stt[0], recv, rc[0], rtt[0], c->inter));
            else if (variant == 1)
                CHECK_MPI(MPI_Alltoallv(send, sc, sd, stt[0], recv, rc, rd, rtt[0], c->inter));
            else
                CHECK_MPI(MPI_Alltoallw(send, sc, sd, stt, recv, rc, rd, rtt, c->inter));
            CU_COMPARE(recv, want, rspan,
                       WHAT("%s on %s: %ld units, %s -> %s", names[variant], c->name, m,
                            variant == 2 ? "int/vector per peer" : cu_layout_name[p.send],
                            variant == 2 ? "int/vector per peer" : cu_layout_name[p.recv]));
            ++checks;
            free(send);
            free(recv);
            free(want);
        }
}

/* ------------------------------------------------------------------ reductions */

enum { R_REDUCE, R_ALLREDUCE, R_REDSCAT, R_REDSCAT_BLOCK };
static const char *const red_names[] = {"MPI_Reduce", "MPI_Allreduce", "MPI_Reduce_scatter",
                                        "MPI_Reduce_scatter_block"};

static void one_reduction(ictx *c, int fn, cu_red rc, long m, int root_side, int root)
{
    int other = 1 - c->side, ln = c->ln;
    size_t es = cu_kind_size(rc.kind);
    int counts[CU_MAX_RANKS];
    size_t first = 0, total = (size_t)m;
    if (fn == R_REDSCAT) { /* the same total on both sides, split by each over its own ranks */
        total = (size_t)m * 4 + 3;
        for (int q = 0; q < ln; ++q)
            counts[q] = (int)(total / (size_t)ln + ((size_t)q < total % (size_t)ln));
    } else if (fn == R_REDSCAT_BLOCK) { /* ln * count equal on both sides */
        int per = (int)(m > SMALL ? m / 8 : m) * (c->side ? (c->k) : (tu_size - c->k));
        total = (size_t)per * (size_t)ln;
        for (int q = 0; q < ln; ++q)
            counts[q] = per;
    } else {
        for (int q = 0; q < ln; ++q)
            counts[q] = (int)m;
    }
    if (fn == R_REDSCAT || fn == R_REDSCAT_BLOCK)
        for (int q = 0; q < c->lr; ++q)
            first += (size_t)counts[q];
    int is_root = fn == R_REDUCE && root_side == c->side && c->lr == root;
    int idle = fn == R_REDUCE && root_side == c->side && !is_root;
    long call = ++calls;
    unsigned char *send = cu_guarded(total * es), *recv = cu_guarded((size_t)counts[c->lr] * es);
    cu_gen_buf(rc, send, my_id(c), 0, total, call);
    MPI_Datatype type = cu_kind_type(rc.kind);
    MPI_Op op = cu_op(rc.op);
    switch (fn) {
    case R_REDUCE:
        CHECK_MPI(MPI_Reduce(send, recv, (int)m, type, op, root_arg(c, root_side, root), c->inter));
        break;
    case R_ALLREDUCE: CHECK_MPI(MPI_Allreduce(send, recv, (int)m, type, op, c->inter)); break;
    case R_REDSCAT: CHECK_MPI(MPI_Reduce_scatter(send, recv, counts, type, op, c->inter)); break;
    case R_REDSCAT_BLOCK:
        CHECK_MPI(MPI_Reduce_scatter_block(send, recv, counts[0], type, op, c->inter));
        break;
    }
    const char *what = WHAT("%s on %s: %s on %s, %d elements%s", red_names[fn], c->name,
                            cu_op_name[rc.op], cu_kind_name[rc.kind], counts[c->lr],
                            fn != R_REDUCE ? "" : is_root ? " (this rank MPI_ROOT)" : idle ? " (this rank MPI_PROC_NULL)" : " (sending)");
    int ids[CU_MAX_RANKS];
    for (int q = 0; q < c->rn; ++q)
        ids[q] = id_of(other, q);
    if (fn != R_REDUCE || is_root) {
        CU_CHECK_FOLD(rc, recv, ids, c->rn, first, (size_t)counts[c->lr], call, what);
        tu_check_guard_at(__FILE__, __LINE__, recv + (size_t)counts[c->lr] * es, TU_GUARD_SIZE, what);
        ++checks;
    } else {
        tu_check_guard_at(__FILE__, __LINE__, recv, (size_t)counts[c->lr] * es + TU_GUARD_SIZE, what);
    }
    free(send);
    free(recv);
}

static void test_reduction(ictx *c, const long *sizes, int nsizes, int fn)
{
    for (int s = 0; s < nsizes; ++s) {
        long m = sizes[s];
        int nreds = m == SMALL && fn <= R_ALLREDUCE ? CU_NREDS : CU_NREDS_LARGE;
        for (int i = 0; i < nreds; ++i) {
            if (fn != R_REDUCE) {
                one_reduction(c, fn, cu_reds[i], m, 0, 0);
                continue;
            }
            /* every root of both groups at the small sizes, cycling through the pairs */
            for (int rs = 0; rs < 2; ++rs) {
                int n = rs == c->side ? c->ln : c->rn;
                if (m <= SMALL && nreds == CU_NREDS_LARGE)
                    for (int r = 0; r < n; ++r)
                        one_reduction(c, fn, cu_reds[(i + r) % CU_NREDS], m, rs, r);
                else
                    one_reduction(c, fn, cu_reds[i], m, rs, (i + rs) % n);
            }
        }
    }
}

/* ------------------------------------------------------------------ driver */

static void run_split(int k, const long *sizes, int nsizes)
{
    ictx c;
    c.k = k;
    c.side = tu_rank < k ? 0 : 1;
    int reversed = c.side == 0 && k % 2;
    MPI_Comm local;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, c.side, reversed ? -tu_rank : tu_rank, &local));
    int a_leader = k % 2 ? k - 1 : 0, b_leader = k; /* world ranks of local rank 0 */
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, c.side ? a_leader : b_leader, 77, &c.inter));
    CHECK_MPI(MPI_Comm_set_errhandler(c.inter, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_rank(c.inter, &c.lr));
    CHECK_MPI(MPI_Comm_size(c.inter, &c.ln));
    CHECK_MPI(MPI_Comm_remote_size(c.inter, &c.rn));
    snprintf(c.name, sizeof c.name, "inter-communicator %d/%d%s", k, tu_size - k, reversed ? " (A reversed)" : "");
#define SEL(name) cu_selected(g_argc, g_argv, name)
    if (SEL("barrier")) test_barrier(&c);
    if (SEL("bcast")) test_bcast(&c, sizes, nsizes);
    if (SEL("gather")) test_rooted(&c, sizes, nsizes, 0, 0);
    if (SEL("gatherv")) test_rooted(&c, sizes, nsizes, 0, 1);
    if (SEL("scatter")) test_rooted(&c, sizes, nsizes, 1, 0);
    if (SEL("scatterv")) test_rooted(&c, sizes, nsizes, 1, 1);
    if (SEL("allgather")) test_allgather(&c, sizes, nsizes, 0);
    if (SEL("allgatherv")) test_allgather(&c, sizes, nsizes, 1);
    if (SEL("alltoall")) test_alltoall(&c, sizes, nsizes, 0);
    if (SEL("alltoallv")) test_alltoall(&c, sizes, nsizes, 1);
    if (SEL("alltoallw")) test_alltoall(&c, sizes, nsizes, 2);
    if (SEL("reduce")) test_reduction(&c, sizes, nsizes, R_REDUCE);
    if (SEL("allreduce")) test_reduction(&c, sizes, nsizes, R_ALLREDUCE);
    if (SEL("reduce_scatter")) test_reduction(&c, sizes, nsizes, R_REDSCAT);
    if (SEL("reduce_scatter_block")) test_reduction(&c, sizes, nsizes, R_REDSCAT_BLOCK);
#undef SEL
    CHECK_MPI(MPI_Comm_free(&c.inter));
    CHECK_MPI(MPI_Comm_free(&local));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    g_argc = argc;
    g_argv = argv;
    tu_require_ranks(2, 32);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    long sizes[CU_MAX_SIZES];
    int nsizes = cu_option_sizes(argc, argv, sizes, DEFAULT_SIZES);
    cu_layouts_init();
    cu_ops_init();
    static const int splits[] = {3, 1, 2};
    char done[128] = "";
    for (size_t i = 0; i < sizeof splits / sizeof splits[0]; ++i) {
        int k = splits[i];
        if (k >= tu_size)
            continue;
        run_split(k, sizes, nsizes);
        snprintf(done + strlen(done), sizeof done - strlen(done), "%s%d/%d", *done ? ", " : "", k, tu_size - k);
    }
    cu_ops_free();
    cu_layouts_free();
    long total_checks = 0;
    CHECK_MPI(MPI_Reduce(&checks, &total_checks, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
    return tu_finish("groups %s: %ld collective calls, %ld results checked", done, calls, total_checks);
}
