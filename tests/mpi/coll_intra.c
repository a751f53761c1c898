/* Every intra-communicator collective, checked element by element against a sequential model
 * (coll_util.h): Barrier (no rank leaves before the last one entered), Bcast, Gather(v),
 * Scatter(v), Allgather(v), Alltoall(v)(w) with bytes, ints and a vector type with holes on
 * either side (holes, gaps between the v-variants' displaced blocks and the space after the
 * buffer must stay untouched), and Reduce, Allreduce, Reduce_scatter(_block), Scan, Exscan for
 * every predefined operation on types MPI allows it for, MINLOC/MAXLOC pairs with ties, a
 * non-commutative user op (2x2 matrix product on a derived type) and a commutative one. Every
 * block size of --sizes (element counts; the default crosses every algorithm threshold), every
 * root at the small sizes, MPI_IN_PLACE wherever MPI-2.2 allows it, on MPI_COMM_WORLD and (small
 * sizes) on a reversed copy of it and on its two halves at once.
 *
 *   coll_intra [--sizes 0,1,7,257,10250,76850] [--colls barrier,bcast,...]
 *
 * --colls picks the collectives (names as in the MPI function, lower case, without MPI_). */
#include "coll_util.h"

/* Odd block counts above the small sizes: a partition into p pieces then depends on the type
 * (a vector of 2 ints vs ints), which a correct algorithm must not let it. */
#define DEFAULT_SIZES "0,1,7,257,10250,76850"
#define SMALL 7 /* sizes up to this run every root, every layout pair and every (type, op) */
/* Reduction vectors stop at this many bytes: enough to pass every algorithm threshold, and the
 * sequential model (every rank folds every rank's contribution) stays cheap at 8 ranks. */
#define MAX_REDUCTION_BYTES ((size_t)300 << 10)

static long calls;  /* every collective call so far: seeds its data */
static long checks; /* results compared */
static int g_argc;
static char **g_argv;

typedef struct {
    MPI_Comm comm;
    const char *name;
    int rank, size;
    int ranks[CU_MAX_RANKS]; /* 0, 1, ..., size-1: the fold order */
} ctx_t;

static char what_buf[512];
#define WHAT(...) (snprintf(what_buf, sizeof what_buf, __VA_ARGS__), what_buf)

static double now_monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ barrier */

/* Rank k enters late; nobody may leave before it entered (CLOCK_MONOTONIC is one clock for all
 * processes of the machine). Then many barriers in a row. */
static void test_barrier(ctx_t *c)
{
    for (int k = 0; k < c->size; ++k) {
        double entered = 0;
        ++calls;
        if (c->rank == k) {
            tu_sleep_ms(20);
            entered = now_monotonic();
        }
        CHECK_MPI(MPI_Barrier(c->comm));
        double left = now_monotonic();
        CHECK_MPI(MPI_Bcast(&entered, 1, MPI_DOUBLE, k, c->comm));
        CHECK(left >= entered, "%s: MPI_Barrier on %s returned %.6f s before rank %d entered it",
              "barrier", c->name, entered - left, k);
        ++checks;
    }
    for (int i = 0; i < 50; ++i, ++calls)
        CHECK_MPI(MPI_Barrier(c->comm));
}

/* ------------------------------------------------------------------ data movement helpers */

/* The pair of layouts of size index s and root (rotating, so every pair occurs at every small
 * size); the large sizes run two roots, so they rotate by size and round instead, which gives
 * both mixed int/vector pairs among them. */
static cu_pair pair_for(int s, int root) { return cu_pairs[(s + root) % CU_NPAIRS]; }
static cu_pair pair_large(int s, int round) { return cu_pairs[(2 * s + round + 1) % CU_NPAIRS]; }

static int roots_at(const ctx_t *c, long m) { return m <= SMALL ? c->size : (c->size > 1 ? 2 : 1); }
static int root_number(const ctx_t *c, long m, int i) { return m <= SMALL ? i : (i == 0 ? 0 : c->size - 1); }

/* Units of rank q's block in the v-variants: m, m+1, m+2 by rank (zero-length blocks occur). */
static long vunits(long m, int q) { return m + q % 3 - (m > 0 ? 1 : 0); }

/* Displacements (in elements) of n blocks of counts[] placed in reverse rank order with a gap of
 * one element before each; returns the elements spanned. */
static int reverse_displs(int n, const int *counts, int *displs)
{
    int pos = 0;
    for (int q = n - 1; q >= 0; --q) {
        displs[q] = pos + 1;
        pos += 1 + counts[q];
    }
    return pos;
}

/* The blocks of a gather, scatter or allgather: rank q's bytes, its count in layout l and its
 * displacement, in rank order, or (reverse: the v-variants) by reverse_displs, so that displs
 * really matters. Returns the elements spanned. */
static int lay_out_blocks(int n, cu_pair p, int l, long m, int vector, int reverse, size_t *bytes, int *counts,
                          int *displs)
{
    int total = 0;
    for (int q = 0; q < n; ++q) {
        bytes[q] = cu_pair_bytes(p, vector ? vunits(m, q) : m);
        counts[q] = cu_count(l, bytes[q]);
        displs[q] = q * counts[q];
        total += counts[q];
    }
    return reverse ? reverse_displs(n, counts, displs) : total;
}

/* ------------------------------------------------------------------ bcast */

static void test_bcast(ctx_t *c, const long *sizes, int nsizes)
{
    for (int s = 0; s < nsizes; ++s) {
        long m = sizes[s];
        for (int ri = 0; ri < roots_at(c, m); ++ri) {
            int root = root_number(c, m, ri);
            cu_pair p = m <= SMALL ? pair_for(s, root) : pair_large(s, ri);
            size_t bytes = cu_pair_bytes(p, m);
            int l = c->rank == root ? p.send : p.recv;
            size_t span = cu_span(l, bytes);
            long call = ++calls;
            unsigned char *buf = cu_guarded(span), *want = cu_guarded(span);
            cu_place(l, want, bytes, cu_seed(root, -1, bytes, call));
            if (c->rank == root)
                memcpy(buf, want, span);
            CHECK_MPI(MPI_Bcast(buf, cu_count(l, bytes), cu_layout_type(l), root, c->comm));
            CU_COMPARE(buf, want, span,
                       WHAT("MPI_Bcast on %s: root %d, %zu bytes, %s -> %s", c->name, root, bytes,
                            cu_layout_name[p.send], cu_layout_name[p.recv]));
            ++checks;
            free(buf);
            free(want);
        }
    }
}

/* ------------------------------------------------------------------ gather(v) */

static void test_gather(ctx_t *c, const long *sizes, int nsizes, int vector)
{
    const char *fn = vector ? "MPI_Gatherv" : "MPI_Gather";
    int n = c->size;
    for (int s = 0; s < nsizes; ++s) {
        long m = sizes[s];
        for (int ri = 0; ri < roots_at(c, m) + 1; ++ri) {
            int in_place = ri == roots_at(c, m); /* one more round: the root gathers in place */
            int root = in_place ? s % n : root_number(c, m, ri);
            cu_pair p = m <= SMALL ? pair_for(s, root) : pair_large(s, ri);
            int counts[CU_MAX_RANKS], displs[CU_MAX_RANKS];
            size_t bytes[CU_MAX_RANKS];
            int total = lay_out_blocks(n, p, p.recv, m, vector, vector, bytes, counts, displs);
            long call = ++calls;
            size_t span = (size_t)total * cu_layout_extent(p.recv);
            unsigned char *recv = cu_guarded(span), *want = cu_guarded(span);
            for (int q = 0; q < n; ++q)
                cu_place(p.recv, want + (size_t)displs[q] * cu_layout_extent(p.recv), bytes[q],
                         cu_seed(q, root, bytes[q], call));
            size_t my = bytes[c->rank];
            unsigned char *send = cu_guarded(cu_span(p.send, my));
            cu_place(p.send, send, my, cu_seed(c->rank, root, my, call));
            const void *sendbuf = send;
            if (in_place && c->rank == root) {
                sendbuf = MPI_IN_PLACE;
                size_t at = (size_t)displs[root] * cu_layout_extent(p.recv);
                memcpy(recv + at, want + at, cu_span(p.recv, my));
            }
            int scount = cu_count(p.send, my);
            MPI_Datatype st = cu_layout_type(p.send), rt = cu_layout_type(p.recv);
            void *recvbuf = c->rank == root ? recv : NULL;
            if (vector)
                CHECK_MPI(MPI_Gatherv(sendbuf, scount, st, recvbuf, counts, displs, rt, root, c->comm));
            else
                CHECK_MPI(MPI_Gather(sendbuf, scount, st, recvbuf, counts[0], rt, root, c->comm));
            if (c->rank == root) {
                CU_COMPARE(recv, want, span,
                           WHAT("%s on %s: root %d%s, %ld units, %s -> %s", fn, c->name, root,
                                in_place ? " (MPI_IN_PLACE)" : "", m, cu_layout_name[p.send],
                                cu_layout_name[p.recv]));
                ++checks;
            }
            free(send);
            free(recv);
            free(want);
        }
    }
}

/* ------------------------------------------------------------------ scatter(v) */

static void test_scatter(ctx_t *c, const long *sizes, int nsizes, int vector)
{
    const char *fn = vector ? "MPI_Scatterv" : "MPI_Scatter";
    int n = c->size;
    for (int s = 0; s < nsizes; ++s) {
        long m = sizes[s];
        for (int ri = 0; ri < roots_at(c, m) + 1; ++ri) {
            int in_place = ri == roots_at(c, m);
            int root = in_place ? (s + 1) % n : root_number(c, m, ri);
            cu_pair p = m <= SMALL ? pair_for(s, root) : pair_large(s, ri);
            int counts[CU_MAX_RANKS], displs[CU_MAX_RANKS];
            size_t bytes[CU_MAX_RANKS];
            int total = lay_out_blocks(n, p, p.send, m, vector, vector, bytes, counts, displs);
            long call = ++calls;
            size_t span = (size_t)total * cu_layout_extent(p.send);
            unsigned char *send = cu_guarded(span), *send_copy = cu_guarded(span);
            for (int q = 0; q < n; ++q)
                cu_place(p.send, send + (size_t)displs[q] * cu_layout_extent(p.send), bytes[q],
                         cu_seed(root, q, bytes[q], call));
            memcpy(send_copy, send, span + TU_GUARD_SIZE);
            size_t my = bytes[c->rank], rspan = cu_span(p.recv, my);
            unsigned char *recv = cu_guarded(rspan), *want = cu_guarded(rspan);
            cu_place(p.recv, want, my, cu_seed(root, c->rank, my, call));
            void *recvbuf = in_place && c->rank == root ? MPI_IN_PLACE : recv;
            const void *sendbuf = c->rank == root ? send : NULL;
            int rcount = cu_count(p.recv, my);
            MPI_Datatype st = cu_layout_type(p.send), rt = cu_layout_type(p.recv);
            if (vector)
                CHECK_MPI(MPI_Scatterv(sendbuf, counts, displs, st, recvbuf, rcount, rt, root, c->comm));
            else
                CHECK_MPI(MPI_Scatter(sendbuf, counts[0], st, recvbuf, rcount, rt, root, c->comm));
            const char *what = WHAT("%s on %s: root %d%s, %ld units, %s -> %s", fn, c->name, root,
                                    in_place ? " (MPI_IN_PLACE)" : "", m,
                                    cu_layout_name[p.send], cu_layout_name[p.recv]);
            if (recvbuf == MPI_IN_PLACE)
                CU_COMPARE(send, send_copy, span, what); /* the root's own block stays put */
            else
                CU_COMPARE(recv, want, rspan, what);
            ++checks;
            free(send);
            free(send_copy);
            free(recv);
            free(want);
        }
    }
}

/* ------------------------------------------------------------------ allgather(v) */

static void test_allgather(ctx_t *c, const long *sizes, int nsizes, int vector)
{
    const char *fn = vector ? "MPI_Allgatherv" : "MPI_Allgather";
    int n = c->size;
    for (int s = 0; s < nsizes; ++s) {
        long m = sizes[s];
        int rounds = m <= SMALL ? CU_NPAIRS : 2;
        for (int ri = 0; ri <= rounds; ++ri) {
            int in_place = ri == rounds;
            cu_pair p = in_place ? cu_pairs[s % CU_NPAIRS] : m <= SMALL ? cu_pairs[(ri + s) % CU_NPAIRS] : pair_large(s, ri);
            if (in_place)
                p.send = p.recv; /* the block is already where it belongs, in the recv layout */
            int counts[CU_MAX_RANKS], displs[CU_MAX_RANKS];
            size_t bytes[CU_MAX_RANKS];
            int reverse = vector && !(n == 1 && CU_ALLGATHERV_SELF_NO_DISPL);
            int total = lay_out_blocks(n, p, p.recv, m, vector, reverse, bytes, counts, displs);
            long call = ++calls;
            size_t ext = cu_layout_extent(p.recv), span = (size_t)total * ext;
            unsigned char *recv = cu_guarded(span), *want = cu_guarded(span);
            for (int q = 0; q < n; ++q)
                cu_place(p.recv, want + (size_t)displs[q] * ext, bytes[q], cu_seed(q, -1, bytes[q], call));
            size_t my = bytes[c->rank];
            unsigned char *send = cu_guarded(cu_span(p.send, my));
            cu_place(p.send, send, my, cu_seed(c->rank, -1, my, call));
            const void *sendbuf = send;
            if (in_place) {
                sendbuf = MPI_IN_PLACE;
                size_t at = (size_t)displs[c->rank] * ext;
                memcpy(recv + at, want + at, cu_span(p.recv, my));
            }
            int scount = cu_count(p.send, my);
            MPI_Datatype st = cu_layout_type(p.send), rt = cu_layout_type(p.recv);
            if (vector)
                CHECK_MPI(MPI_Allgatherv(sendbuf, scount, st, recv, counts, displs, rt, c->comm));
            else
                CHECK_MPI(MPI_Allgather(sendbuf, scount, st, recv, counts[0], rt, c->comm));
            CU_COMPARE(recv, want, span,
                       WHAT("%s on %s:%s %ld units, %s -> %s", fn, c->name,
                            in_place ? " MPI_IN_PLACE," : "", m, cu_layout_name[p.send],
                            cu_layout_name[p.recv]));
            ++checks;
            free(send);
            free(recv);
            free(want);
        }
    }
}

/* ------------------------------------------------------------------ alltoall(v)(w) */

/* Units rank a sends to rank b (v and w variants): symmetric in a and b, so the in-place forms
 * (which use the receive counts for both directions) are consistent. */
static long a2a_units(long m, int a, int b) { return m + (a + b) % 3 - (m > 0 ? 1 : 0); }

enum { A2A, A2AV, A2AW };

static void test_alltoall(ctx_t *c, const long *sizes, int nsizes, int variant)
{
    static const char *const names[] = {"MPI_Alltoall", "MPI_Alltoallv", "MPI_Alltoallw"};
    int n = c->size, me = c->rank;
    if (variant == A2AW && n == 1 && CU_ALLTOALLW_SELF_BROKEN)
        return;
    for (int s = 0; s < nsizes; ++s) {
        long m = sizes[s];
        int rounds = m <= SMALL ? CU_NPAIRS : 2;
        for (int ri = 0; ri <= rounds; ++ri) {
            int in_place = ri == rounds;
            cu_pair p = in_place ? cu_pairs[s % CU_NPAIRS] : m <= SMALL ? cu_pairs[(ri + s) % CU_NPAIRS] : pair_large(s, ri);
            if (in_place)
                p.send = p.recv;
            /* per peer q: layouts, bytes, counts and displacements in bytes */
            int sl[CU_MAX_RANKS], rl[CU_MAX_RANKS];
            size_t sbytes[CU_MAX_RANKS], rbytes[CU_MAX_RANKS], soff[CU_MAX_RANKS], roff[CU_MAX_RANKS];
            int scounts[CU_MAX_RANKS], rcounts[CU_MAX_RANKS], sdispls[CU_MAX_RANKS], rdispls[CU_MAX_RANKS];
            MPI_Datatype stypes[CU_MAX_RANKS], rtypes[CU_MAX_RANKS];
            size_t sspan = 0, rspan = 0;
            for (int q = 0; q < n; ++q) {
                sl[q] = p.send;
                rl[q] = p.recv;
                if (variant == A2AW) { /* both int-based: any mix matches */
                    sl[q] = (q + me) % 2 ? L_VEC : L_INT;
                    rl[q] = in_place ? sl[q] : (q + me + ri) % 2 ? L_INT : L_VEC;
                }
                cu_pair sp = {sl[q], L_VEC}, rp = {L_VEC, rl[q]};
                long su = variant == A2A ? m : a2a_units(m, me, q);
                long ru = variant == A2A ? m : a2a_units(m, q, me);
                sbytes[q] = variant == A2AW ? cu_pair_bytes(sp, su) : cu_pair_bytes(p, su);
                rbytes[q] = variant == A2AW ? cu_pair_bytes(rp, ru) : cu_pair_bytes(p, ru);
                scounts[q] = cu_count(sl[q], sbytes[q]);
                rcounts[q] = cu_count(rl[q], rbytes[q]);
                stypes[q] = cu_layout_type(sl[q]);
                rtypes[q] = cu_layout_type(rl[q]);
            }
            /* placement: in rank order for Alltoall, reverse with gaps otherwise (in bytes for
             * w, in elements of the one type for v) */
            for (int i = 0; i < n; ++i) {
                int q = variant == A2A ? i : n - 1 - i;
                size_t gap = variant == A2A ? 0 : variant == A2AW ? 8 : cu_layout_extent(p.recv);
                size_t sgap = variant == A2A ? 0 : variant == A2AW ? 8 : cu_layout_extent(p.send);
                soff[q] = sspan + sgap;
                sspan += sgap + cu_span(sl[q], sbytes[q]);
                roff[q] = rspan + gap;
                rspan += gap + cu_span(rl[q], rbytes[q]);
                sdispls[q] = (int)(variant == A2AW ? soff[q] : soff[q] / cu_layout_extent(p.send));
                rdispls[q] = (int)(variant == A2AW ? roff[q] : roff[q] / cu_layout_extent(p.recv));
            }
            long call = ++calls;
            unsigned char *send = cu_guarded(sspan), *recv = cu_guarded(rspan), *want = cu_guarded(rspan);
            for (int q = 0; q < n; ++q) {
                cu_place(sl[q], send + soff[q], sbytes[q], cu_seed(me, q, sbytes[q], call));
                cu_place(rl[q], want + roff[q], rbytes[q], cu_seed(q, me, rbytes[q], call));
                if (in_place) /* what this rank sends to q starts where q's block will land */
                    cu_place(rl[q], recv + roff[q], rbytes[q], cu_seed(me, q, rbytes[q], call));
            }
            const void *sendbuf = in_place ? MPI_IN_PLACE : send;
            if (variant == A2A)
                CHECK_MPI(MPI_Alltoall(sendbuf, scounts[0], stypes[0], recv, rcounts[0], rtypes[0], c->comm));
            else if (variant == A2AV)
                CHECK_MPI(MPI_Alltoallv(sendbuf, scounts, sdispls, stypes[0], recv, rcounts, rdispls,
                                        rtypes[0], c->comm));
            else
                CHECK_MPI(MPI_Alltoallw(sendbuf, scounts, sdispls, stypes, recv, rcounts, rdispls,
                                        rtypes, c->comm));
            CU_COMPARE(recv, want, rspan,
                       WHAT("%s on %s:%s %ld units, %s -> %s", names[variant], c->name,
                            in_place ? " MPI_IN_PLACE," : "", m,
                            variant == A2AW ? "int/vector per peer" : cu_layout_name[p.send],
                            variant == A2AW ? "int/vector per peer" : cu_layout_name[p.recv]));
            ++checks;
            free(send);
            free(recv);
            free(want);
        }
    }
}

/* ------------------------------------------------------------------ reductions */

enum { R_REDUCE, R_ALLREDUCE, R_REDSCAT, R_REDSCAT_BLOCK, R_SCAN, R_EXSCAN };
static const char *const red_names[] = {"MPI_Reduce", "MPI_Allreduce", "MPI_Reduce_scatter",
                                        "MPI_Reduce_scatter_block", "MPI_Scan", "MPI_Exscan"};

/* One call of reduction collective fn with (type, op) rc: m elements per rank's result block
 * (Reduce, Allreduce, Scan, Exscan: the whole vector; Reduce_scatter: m + q % 3 - 1 for rank q;
 * _block: m each, at the large sizes m / size). */
static void one_reduction(ctx_t *c, int fn, cu_red rc, long m, int root, int in_place)
{
    int n = c->size, me = c->rank;
    size_t es = cu_kind_size(rc.kind);
    if (m > SMALL && (size_t)m * es > MAX_REDUCTION_BYTES) /* the same bytes whatever the type */
        m = (long)(MAX_REDUCTION_BYTES / es);
    MPI_Datatype type = cu_kind_type(rc.kind);
    MPI_Op op = cu_op(rc.op);
    int counts[CU_MAX_RANKS];
    size_t first[CU_MAX_RANKS], total = 0;
    for (int q = 0; q < n; ++q) {
        if (fn == R_REDSCAT)
            counts[q] = (int)vunits(m > SMALL ? (m + n - 1) / n : m,
                                    in_place && CU_REDUCE_SCATTER_IN_PLACE_OVERLAP && q == 0 ? 2 : q);
        else if (fn == R_REDSCAT_BLOCK)
            counts[q] = (int)(m > SMALL ? (m + n - 1) / n : m);
        else
            counts[q] = (int)m;
        first[q] = fn == R_REDSCAT || fn == R_REDSCAT_BLOCK ? total : 0;
        total = fn == R_REDSCAT || fn == R_REDSCAT_BLOCK ? total + (size_t)counts[q] : (size_t)m;
    }
    long call = ++calls;
    unsigned char *send = cu_guarded(total * es), *copy = cu_guarded(total * es);
    cu_gen_buf(rc, send, me, 0, total, call);
    memcpy(copy, send, total * es);
    /* Reduce in place: only the root passes MPI_IN_PLACE. In place the receive buffer holds the
     * whole input vector. */
    int here_in_place = in_place && (fn != R_REDUCE || me == root);
    size_t rlen = here_in_place ? total : (size_t)counts[me];
    unsigned char *recv = cu_guarded(rlen * es);
    const void *sendbuf = send;
    if (here_in_place) {
        memcpy(recv, send, total * es);
        sendbuf = MPI_IN_PLACE;
    }
    switch (fn) {
    case R_REDUCE: CHECK_MPI(MPI_Reduce(sendbuf, recv, (int)m, type, op, root, c->comm)); break;
    case R_ALLREDUCE: CHECK_MPI(MPI_Allreduce(sendbuf, recv, (int)m, type, op, c->comm)); break;
    case R_REDSCAT: CHECK_MPI(MPI_Reduce_scatter(sendbuf, recv, counts, type, op, c->comm)); break;
    case R_REDSCAT_BLOCK:
        CHECK_MPI(MPI_Reduce_scatter_block(sendbuf, recv, counts[0], type, op, c->comm));
        break;
    case R_SCAN: CHECK_MPI(MPI_Scan(sendbuf, recv, (int)m, type, op, c->comm)); break;
    case R_EXSCAN: CHECK_MPI(MPI_Exscan(sendbuf, recv, (int)m, type, op, c->comm)); break;
    }
    const char *what = WHAT("%s on %s: %s on %s, %d elements%s%s", red_names[fn], c->name,
                            cu_op_name[rc.op], cu_kind_name[rc.kind], counts[me],
                            fn == R_REDUCE ? (root == me ? ", this rank the root" : ", not the root") : "",
                            in_place ? ", MPI_IN_PLACE" : "");
    if (!here_in_place)
        CHECK(memcmp(send, copy, total * es) == 0, "%s: the send buffer changed", what);
    int folded = fn == R_SCAN ? me + 1 : fn == R_EXSCAN ? me : n;
    if (fn == R_REDUCE && me != root) {
        /* a non-root's receive buffer is not significant: untouched */
        tu_check_guard_at(__FILE__, __LINE__, recv, rlen * es + TU_GUARD_SIZE, what);
    } else if (folded > 0) {
        CU_CHECK_FOLD(rc, recv, c->ranks, folded, first[me], (size_t)counts[me], call, what);
        ++checks;
    }
    tu_check_guard_at(__FILE__, __LINE__, recv + rlen * es, TU_GUARD_SIZE, what);
    free(send);
    free(copy);
    free(recv);
}

static void test_reduction(ctx_t *c, const long *sizes, int nsizes, int fn)
{
    for (int s = 0; s < nsizes; ++s) {
        long m = sizes[s];
        /* every (type, op) pair at the largest small size of the world, the first few elsewhere */
        int nreds = m == SMALL && c->comm == MPI_COMM_WORLD ? CU_NREDS : CU_NREDS_LARGE;
        for (int i = 0; i < nreds; ++i) {
            /* every root at the small sizes (cycling with the pairs), root 0 and the last one
             * alternately above */
            int root = m <= SMALL ? (i + s) % c->size : (i % 2 ? c->size - 1 : 0);
            one_reduction(c, fn, cu_reds[i], m, root, 0);
        }
        /* in place: the first pairs, and at the small sizes every root */
        int rounds = m <= SMALL ? (c->size > CU_NREDS_LARGE ? c->size : CU_NREDS_LARGE) : 3;
        for (int i = 0; i < rounds; ++i)
            one_reduction(c, fn, cu_reds[i % CU_NREDS_LARGE], m,
                          CU_REDUCE_IN_PLACE_ROOT0_ONLY ? 0 : i % c->size, 1);
    }
}

/* ------------------------------------------------------------------ driver */

static void run_all(ctx_t *c, const long *sizes, int nsizes)
{
    for (int q = 0; q < c->size; ++q)
        c->ranks[q] = q;
#define SEL(name) cu_selected(g_argc, g_argv, name)
    if (SEL("barrier")) test_barrier(c);
    if (SEL("bcast")) test_bcast(c, sizes, nsizes);
    if (SEL("gather")) test_gather(c, sizes, nsizes, 0);
    if (SEL("gatherv")) test_gather(c, sizes, nsizes, 1);
    if (SEL("scatter")) test_scatter(c, sizes, nsizes, 0);
    if (SEL("scatterv")) test_scatter(c, sizes, nsizes, 1);
    if (SEL("allgather")) test_allgather(c, sizes, nsizes, 0);
    if (SEL("allgatherv")) test_allgather(c, sizes, nsizes, 1);
    if (SEL("alltoall")) test_alltoall(c, sizes, nsizes, A2A);
    if (SEL("alltoallv")) test_alltoall(c, sizes, nsizes, A2AV);
    if (SEL("alltoallw")) test_alltoall(c, sizes, nsizes, A2AW);
    if (SEL("reduce")) test_reduction(c, sizes, nsizes, R_REDUCE);
    if (SEL("allreduce")) test_reduction(c, sizes, nsizes, R_ALLREDUCE);
    if (SEL("reduce_scatter")) test_reduction(c, sizes, nsizes, R_REDSCAT);
    if (SEL("reduce_scatter_block")) test_reduction(c, sizes, nsizes, R_REDSCAT_BLOCK);
    if (SEL("scan")) test_reduction(c, sizes, nsizes, R_SCAN);
    if (SEL("exscan")) test_reduction(c, sizes, nsizes, R_EXSCAN);
#undef SEL
}

static ctx_t make_ctx(MPI_Comm comm, const char *name)
{
    ctx_t c;
    c.comm = comm;
    c.name = name;
    CHECK_MPI(MPI_Comm_rank(comm, &c.rank));
    CHECK_MPI(MPI_Comm_size(comm, &c.size));
    CHECK(c.size <= CU_MAX_RANKS, "at most %d ranks, not %d", CU_MAX_RANKS, c.size);
    return c;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    g_argc = argc;
    g_argv = argv;
    tu_require_ranks(1, CU_MAX_RANKS);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    long sizes[CU_MAX_SIZES], small[CU_MAX_SIZES];
    int nsizes = cu_option_sizes(argc, argv, sizes, DEFAULT_SIZES), nsmall = 0;
    for (int i = 0; i < nsizes; ++i)
        if (sizes[i] <= SMALL)
            small[nsmall++] = sizes[i];
    cu_layouts_init();
    cu_ops_init();

    ctx_t world = make_ctx(MPI_COMM_WORLD, "MPI_COMM_WORLD");
    run_all(&world, sizes, nsizes);

    /* The same calls with ranks renumbered (collectives go by communicator rank), and on two
     * disjoint halves at once (of unequal size when the world is odd). */
    MPI_Comm reversed, half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, tu_size - 1 - tu_rank, &reversed));
    CHECK_MPI(MPI_Comm_set_errhandler(reversed, MPI_ERRORS_RETURN));
    ctx_t rev = make_ctx(reversed, "reversed MPI_COMM_WORLD");
    run_all(&rev, small, nsmall);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, tu_rank % 2, tu_rank, &half));
    CHECK_MPI(MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN));
    ctx_t h = make_ctx(half, tu_rank % 2 ? "odd half of MPI_COMM_WORLD" : "even half of MPI_COMM_WORLD");
    long calls_before = calls;
    run_all(&h, small, nsmall);
    calls = calls_before; /* the halves may differ in size: keep the world's count for the summary */
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Comm_free(&reversed));

    cu_ops_free();
    cu_layouts_free();
    long total_checks = 0;
    CHECK_MPI(MPI_Reduce(&checks, &total_checks, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
    return tu_finish("%ld collective calls on MPI_COMM_WORLD and its reversed copy, %ld results "
                     "checked; sizes up to %ld units",
                     calls, total_checks, sizes[nsizes - 1]);
}
