/* Inter-communicators of unequal groups: MPI_COMM_WORLD split into sides A = world ranks
 * [0, k) and B = [k, n) for k = 3, 1, 2, 4 (with 8 ranks: 3/5, 1/7, 2/6, 4/4), the local
 * communicators sometimes in reverse order, joined by MPI_Intercomm_create over a bridge (a
 * reversed copy of WORLD, so the remote leader's rank there is not its world rank; then WORLD
 * itself) with a tag, the local leader the last local rank on A and the first on B. Checked
 * against the model of both sides: test_inter, size/rank, the local group and remote_size /
 * remote_group; point-to-point from every rank of one side to every rank of the other (ANY_SOURCE
 * and named sources, the status giving the remote rank, data verified); compare (IDENT,
 * CONGRUENT for a dup and for a second Intercomm_create of the same groups, UNEQUAL against an
 * intra-communicator); Comm_dup of the intercomm (its messages never match the original's);
 * Intercomm_merge with A low, with A high, and with both the same (either order, consistent);
 * the MPI-2.2 inter forms of Comm_create (each side's chosen subgroup; non-members get
 * MPI_COMM_NULL) and Comm_split (colors on both sides meet; a color of one side only, or
 * MPI_UNDEFINED, gives MPI_COMM_NULL); free. */
#include "comm_util.h"

static long checks;
static int nworld;

static const char *compare_name(int c)
{
    return c == MPI_IDENT ? "MPI_IDENT" : c == MPI_CONGRUENT ? "MPI_CONGRUENT" : c == MPI_SIMILAR ? "MPI_SIMILAR" : c == MPI_UNEQUAL ? "MPI_UNEQUAL" : "?";
}

static void check_compare_at(int line, MPI_Comm a, MPI_Comm b, int want, const char *what)
{
    int got = -1;
    CHECK_MPI(MPI_Comm_compare(a, b, &got));
    if (got != want)
        tu_fail(__FILE__, line, what, "MPI_Comm_compare gave %d (%s), expected %s", got,
                compare_name(got), compare_name(want));
    ++checks;
}
#define CHECK_COMPARE(a, b, want, what) check_compare_at(__LINE__, (a), (b), (want), (what))

/* The two sides of one split: members as world ranks, in local rank order. */
typedef struct {
    int k;               /* A = world ranks [0, k) */
    int reversed[2];     /* is side s's local communicator in reverse world order? */
    int n[2];
    int m[2][CU_MAX_RANKS];
    int side;            /* this rank's */
} sides_t;

static sides_t make_sides(int k)
{
    sides_t s;
    s.k = k;
    s.reversed[0] = k % 2;  /* A reversed for odd k */
    s.reversed[1] = k == 2; /* B reversed once */
    for (int side = 0; side < 2; ++side) {
        int lo = side ? k : 0, hi = side ? nworld : k;
        s.n[side] = hi - lo;
        for (int i = 0; i < s.n[side]; ++i)
            s.m[side][i] = s.reversed[side] ? hi - 1 - i : lo + i;
    }
    s.side = tu_rank < k ? 0 : 1;
    return s;
}

/* An inter-communicator whose local group is local[0..nl) and remote group remote[0..nr). */
static void check_inter_at(int line, MPI_Comm c, const int *local, int nl, const int *remote,
                           int nr, const char *what)
{
    int inter = -1, size = -1, rank = -1, rsize = -1;
    MPI_Group g;
    if (c == MPI_COMM_NULL)
        tu_fail(__FILE__, line, what, "got MPI_COMM_NULL, expected an inter-communicator");
    CHECK_MPI(MPI_Comm_test_inter(c, &inter));
    if (!inter)
        tu_fail(__FILE__, line, what, "MPI_Comm_test_inter says 0, expected true");
    CHECK_MPI(MPI_Comm_size(c, &size));
    CHECK_MPI(MPI_Comm_rank(c, &rank));
    CHECK_MPI(MPI_Comm_remote_size(c, &rsize));
    if (size != nl || rank != cu_index_of(local, nl, tu_rank) || rsize != nr)
        tu_fail(__FILE__, line, what, "size %d, rank %d, remote size %d; expected %d, %d, %d", size,
                rank, rsize, nl, cu_index_of(local, nl, tu_rank), nr);
    CHECK_MPI(MPI_Comm_group(c, &g));
    cu_check_group_at(__FILE__, line, g, local, nl, what);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Comm_remote_group(c, &g));
    char rwhat[160];
    snprintf(rwhat, sizeof rwhat, "%s: remote group", what);
    cu_check_group_at(__FILE__, line, g, remote, nr, rwhat);
    CHECK_MPI(MPI_Group_free(&g));
    ++checks;
}
#define CHECK_INTER(c, local, nl, remote, nr, what)                                               \
    check_inter_at(__LINE__, (c), (local), (nl), (remote), (nr), (what))

/* Both directions across, small and (when big) rendezvous-sized; tags differ per call. */
static void traffic(MPI_Comm c, const int *local, int nl, const int *remote, int nr, int tag,
                    int big, const char *what)
{
    CU_TRAFFIC(c, local, nl, remote, nr, tag, tag, 48, what);
    if (big)
        CU_TRAFFIC(c, local, nl, remote, nr, tag + 1, tag + 1, 256 * 1024 + 5, what);
    ++checks;
}

/* The same (source, tag) on the dup first and the original last: each receive, on the original
 * first, gets its own communicator's message. Local rank i sends to remote rank i % nr. */
static void isolation(MPI_Comm orig, MPI_Comm dup, int nl, int nr, int tag)
{
    int me = -1;
    CHECK_MPI(MPI_Comm_rank(orig, &me));
    int out[2][2] = {{1, me}, {0, me}}, in[2];
    MPI_Request reqs[2];
    CHECK_MPI(MPI_Isend(out[0], 2, MPI_INT, me % nr, tag, dup, &reqs[0]));
    CHECK_MPI(MPI_Isend(out[1], 2, MPI_INT, me % nr, tag, orig, &reqs[1]));
    for (int i = 0; i < nr; ++i) {
        if (i % nl != me)
            continue;
        for (int which = 0; which < 2; ++which) { /* 0: the original */
            MPI_Status st;
            CHECK_MPI(MPI_Recv(in, 2, MPI_INT, i, tag, which ? dup : orig, &st));
            CHECK(in[0] == which && in[1] == i && st.MPI_SOURCE == i,
                  "%s of an inter-communicator received the message sent on the %s by remote "
                  "rank %d (status source %d), expected its own from %d",
                  which ? "the dup" : "the original", in[0] ? "dup" : "original", in[1],
                  st.MPI_SOURCE, i);
        }
    }
    CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    ++checks;
}

/* The members (world ranks, local order) of side `side` choosing color c in the inter split:
 * color by local rank (A: i % 2; B: i % 3, 2 meaning MPI_UNDEFINED); key A: i, B: -i. */
static int split_color(int side, int i) { return side == 0 ? i % 2 : (i % 3 == 2 ? MPI_UNDEFINED : i % 3); }
static int split_key(int side, int i) { return side == 0 ? i : -i; }
static int split_members(const sides_t *s, int side, int color, int *out)
{
    int k = 0, keys[CU_MAX_RANKS];
    for (int i = 0; i < s->n[side]; ++i) {
        if (split_color(side, i) != color)
            continue;
        int key = split_key(side, i), j = k++;
        while (j > 0 && keys[j - 1] > key) {
            keys[j] = keys[j - 1];
            out[j] = out[j - 1];
            --j;
        }
        keys[j] = key;
        out[j] = s->m[side][i];
    }
    return k;
}

/* The subgroup each side gives the inter form of Comm_create: A its even local ranks, B all
 * but its last local rank in reverse order (all of B when it has one rank). */
static int create_members(const sides_t *s, int side, int *out)
{
    int k = 0;
    if (side == 0) {
        for (int i = 0; i < s->n[0]; i += 2)
            out[k++] = s->m[0][i];
    } else {
        int last = s->n[1] > 1 ? s->n[1] - 2 : 0;
#ifdef OPEN_MPI
        /* Open MPI 4.1.4 orders the remote group of an inter Comm_create by the remote side's
         * local ranks instead of its group's order: give it ascending ranks. */
        for (int i = 0; i <= last; ++i)
            out[k++] = s->m[1][i];
#else
        for (int i = last; i >= 0; --i)
            out[k++] = s->m[1][i];
#endif
    }
    return k;
}

static void one_split(int k, int tagbase)
{
    sides_t s = make_sides(k);
    int me = s.side, other = 1 - me;
    const int *local = s.m[me], *remote = s.m[other];
    int nl = s.n[me], nr = s.n[other];
    char what[128];
    snprintf(what, sizeof what, "sides %d/%d (this rank on %s)", s.n[0], s.n[1], me ? "B" : "A");

    MPI_Comm local_comm, bridge, inter, inter2, idup;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, me, s.reversed[me] ? -tu_rank : tu_rank, &local_comm));
    CU_CHECK_INTRA(local_comm, local, nl, what);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, -tu_rank, &bridge)); /* world rank w is n-1-w */
    int leader[2] = {s.n[0] - 1, 0}; /* local ranks of the leaders */
    int remote_leader_world = s.m[other][leader[other]];
    CHECK_MPI(MPI_Intercomm_create(local_comm, leader[me], bridge, nworld - 1 - remote_leader_world,
                                   tagbase, &inter));
    CHECK_INTER(inter, local, nl, remote, nr, what);
    CHECK_COMPARE(inter, inter, MPI_IDENT, what);
    CHECK_COMPARE(inter, local_comm, MPI_UNEQUAL, what);
    traffic(inter, local, nl, remote, nr, tagbase + 10, 1, what);

    /* a second one of the same groups over WORLD, the leaders now A's first and B's last */
    int leader2[2] = {0, s.n[1] - 1};
    CHECK_MPI(MPI_Intercomm_create(local_comm, leader2[me], MPI_COMM_WORLD, s.m[other][leader2[other]],
                                   tagbase + 1, &inter2));
    CHECK_INTER(inter2, local, nl, remote, nr, "second Intercomm_create");
    CHECK_COMPARE(inter2, inter, MPI_CONGRUENT, "two intercomms of the same groups");

    CHECK_MPI(MPI_Comm_dup(inter, &idup));
    CHECK_INTER(idup, local, nl, remote, nr, "dup of an intercomm");
    CHECK_COMPARE(idup, inter, MPI_CONGRUENT, "dup of an intercomm vs the original");
    isolation(inter, idup, nl, nr, tagbase + 20);
    isolation(inter, inter2, nl, nr, tagbase + 21);
    traffic(idup, local, nl, remote, nr, tagbase + 30, 0, "dup of an intercomm");

    /* merge: A low then A high; the low group comes first */
    for (int a_high = 0; a_high <= 1; ++a_high) {
        MPI_Comm merged;
        int m[CU_MAX_RANKS], n = 0, first = a_high ? 1 : 0;
        for (int i = 0; i < s.n[first]; ++i)
            m[n++] = s.m[first][i];
        for (int i = 0; i < s.n[1 - first]; ++i)
            m[n++] = s.m[1 - first][i];
        CHECK_MPI(MPI_Intercomm_merge(a_high ? inter2 : inter, me == 0 ? a_high : !a_high, &merged));
        char mwhat[160];
        snprintf(mwhat, sizeof mwhat, "%s: merge with %s high", what, a_high ? "A" : "B");
        CU_CHECK_INTRA(merged, m, n, mwhat);
        traffic(merged, m, n, m, n, tagbase + 40 + a_high * 2, a_high, mwhat);
        CU_FREE(merged);
    }
    /* both the same: either order, as long as every rank sees the same one (traffic checks) */
    {
        MPI_Comm merged;
        MPI_Group g;
        int m[CU_MAX_RANKS], n;
        CHECK_MPI(MPI_Intercomm_merge(idup, 1, &merged));
        CHECK_MPI(MPI_Comm_group(merged, &g));
        n = cu_world_ranks(g, m);
        CHECK_MPI(MPI_Group_free(&g));
        int ab = 1, ba = 1;
        CHECK_EQ(n, nworld);
        for (int i = 0; i < n; ++i) {
            ab &= m[i] == (i < s.n[0] ? s.m[0][i] : s.m[1][i - s.n[0]]);
            ba &= m[i] == (i < s.n[1] ? s.m[1][i] : s.m[0][i - s.n[1]]);
        }
        CHECK(ab || ba, "%s: merge with the same high on both sides is neither A then B nor B then A", what);
        CU_CHECK_INTRA(merged, m, n, "merge with the same high");
        traffic(merged, m, n, m, n, tagbase + 50, 0, "merge with the same high");
        CU_FREE(merged);
    }

    /* Comm_create on the intercomm: each side's subgroup */
    {
        int cm[2][CU_MAX_RANKS], cn[2], ranks[CU_MAX_RANKS];
        for (int side = 0; side < 2; ++side)
            cn[side] = create_members(&s, side, cm[side]);
        MPI_Group lg, sub;
        CHECK_MPI(MPI_Comm_group(inter, &lg));
        for (int i = 0; i < cn[me]; ++i)
            ranks[i] = cu_index_of(local, nl, cm[me][i]);
        CHECK_MPI(MPI_Group_incl(lg, cn[me], ranks, &sub));
        MPI_Comm c = (MPI_Comm)(intptr_t)-1;
        CHECK_MPI(MPI_Comm_create(inter, sub, &c));
        CHECK_MPI(MPI_Group_free(&sub));
        CHECK_MPI(MPI_Group_free(&lg));
        if (cu_index_of(cm[me], cn[me], tu_rank) == MPI_UNDEFINED) {
            CHECK(c == MPI_COMM_NULL, "%s: inter Comm_create gave a non-member a communicator", what);
        } else {
            CHECK_INTER(c, cm[me], cn[me], cm[other], cn[other], "inter Comm_create");
            traffic(c, cm[me], cn[me], cm[other], cn[other], tagbase + 60, 0, "inter Comm_create");
            CU_FREE(c);
        }
    }

    /* Comm_split on the intercomm */
    {
        int i = cu_index_of(local, nl, tu_rank), color = split_color(me, i), lm[CU_MAX_RANKS], rm[CU_MAX_RANKS];
        MPI_Comm c = (MPI_Comm)(intptr_t)-1;
        CHECK_MPI(MPI_Comm_split(inter, color, split_key(me, i), &c));
        int ln = color == MPI_UNDEFINED ? 0 : split_members(&s, me, color, lm);
        int rn = color == MPI_UNDEFINED ? 0 : split_members(&s, other, color, rm);
        char swhat[160];
        snprintf(swhat, sizeof swhat, "%s: inter Comm_split, color %d", what, color);
        if (ln == 0 || rn == 0) {
            CHECK(c == MPI_COMM_NULL, "%s: expected MPI_COMM_NULL (%s)", swhat,
                  color == MPI_UNDEFINED ? "MPI_UNDEFINED" : "the color is on this side only");
        } else {
            CHECK_INTER(c, lm, ln, rm, rn, swhat);
            traffic(c, lm, ln, rm, rn, tagbase + 70, 0, swhat);
            CU_FREE(c);
        }
    }

    CU_FREE(inter);
    /* the dup and second intercomm outlive the first */
    traffic(idup, local, nl, remote, nr, tagbase + 80, 0, "dup after the original was freed");
    CU_FREE(idup);
    CU_FREE(inter2);
    CU_FREE(bridge);
    CU_FREE(local_comm);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, CU_MAX_RANKS);
    nworld = tu_size;
    static const int ks[] = {3, 1, 2, 4};
    int done = 0;
    char list[64] = "";
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
        if (ks[i] >= nworld)
            continue;
        one_split(ks[i], 1000 + 100 * (int)i);
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d/%d", done++ ? ", " : "", ks[i], nworld - ks[i]);
        tu_barrier();
    }
    return tu_finish("inter-communicators of sides %s: %ld checks on rank 0 (create, groups, traffic, compare, dup, merge, inter create and split, free)", list, checks);
}
