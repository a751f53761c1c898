/* Intra-communicators derived from MPI_COMM_WORLD and from each other, each checked against a
 * sequential model (its members as world ranks) and used for point-to-point with every pair of
 * ranks (data verified, MPI_SOURCE translated back to the sender's world rank):
 * - Comm_dup (of WORLD, SELF, a dup, a split; parent freed before the child): CONGRUENT to
 *   the parent, and its messages never match the parent's: the same (source, tag) sent on the
 *   dups first and on WORLD last lands in each communicator's own receive, in reverse order;
 * - Comm_split: several colors, MPI_UNDEFINED -> MPI_COMM_NULL, keys reversing the order,
 *   negative keys, ties broken by the parent's rank, one color for all, MPI_UNDEFINED for all,
 *   split of a split;
 * - Comm_create: a reversed subgroup (non-members get MPI_COMM_NULL), MPI_GROUP_EMPTY, the
 *   parent's group (CONGRUENT) and a permutation of it (SIMILAR), create from a split;
 * - Comm_compare IDENT/CONGRUENT/SIMILAR/UNEQUAL, Comm_test_inter, Comm_free (the handle
 *   becomes MPI_COMM_NULL), set_name/get_name (MPI_COMM_WORLD, MPI_COMM_SELF, a dup's own name,
 *   names of MPI_MAX_OBJECT_NAME - 1 characters). */
#include "comm_util.h"

static int world_list[CU_MAX_RANKS];
static long checks;

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

/* What MPI_Comm_compare must say for two intra-communicators with these member lists. */
static int expected_compare(const int *a, int na, const int *b, int nb)
{
    if (na != nb)
        return MPI_UNEQUAL;
    int same = 1;
    for (int i = 0; i < na; ++i) {
        same &= a[i] == b[i];
        if (cu_index_of(b, nb, a[i]) == MPI_UNDEFINED)
            return MPI_UNEQUAL;
    }
    return same ? MPI_CONGRUENT : MPI_SIMILAR;
}

/* Every rank to every rank on c, small (eager) and, when big, 100 KiB + 3 (rendezvous); the
 * tags of consecutive calls on one communicator must differ (ANY_SOURCE receives). */
static void traffic(MPI_Comm c, const int *members, int n, int tag, int big, const char *what)
{
    CU_TRAFFIC(c, members, n, members, n, tag, tag, 64, what);
    if (big)
        CU_TRAFFIC(c, members, n, members, n, tag + 1, tag + 1, 100 * 1024 + 3, what);
    ++checks;
}

static void check_name_at(int line, MPI_Comm c, const char *want, const char *what)
{
    char name[MPI_MAX_OBJECT_NAME + 8];
    int len = -1;
    memset(name, 'x', sizeof name);
    CHECK_MPI(MPI_Comm_get_name(c, name, &len));
    if (len != (int)strlen(want) || strcmp(name, want) != 0)
        tu_fail(__FILE__, line, what, "MPI_Comm_get_name gave '%.*s' (length %d), expected '%s' (%zu)",
                MPI_MAX_OBJECT_NAME, name, len, want, strlen(want));
    ++checks;
}
#define CHECK_NAME(c, want, what) check_name_at(__LINE__, (c), (want), (what))

/* ------------------------------------------------------------------ world, self, names */

static void predefined(void)
{
    int inter = -1, n = tu_size;
    CHECK_COMPARE(MPI_COMM_WORLD, MPI_COMM_WORLD, MPI_IDENT, "WORLD vs WORLD");
    CHECK_COMPARE(MPI_COMM_SELF, MPI_COMM_SELF, MPI_IDENT, "SELF vs SELF");
    /* with one rank SELF and WORLD have the same group but different contexts */
    CHECK_COMPARE(MPI_COMM_WORLD, MPI_COMM_SELF, n == 1 ? MPI_CONGRUENT : MPI_UNEQUAL, "WORLD vs SELF");
    CHECK_MPI(MPI_Comm_test_inter(MPI_COMM_WORLD, &inter));
    CHECK_EQ(inter, 0);
    CHECK_MPI(MPI_Comm_test_inter(MPI_COMM_SELF, &inter));
    CHECK_EQ(inter, 0);
    CU_CHECK_INTRA(MPI_COMM_WORLD, world_list, n, "MPI_COMM_WORLD");
    int me[1] = {tu_rank};
    CU_CHECK_INTRA(MPI_COMM_SELF, me, 1, "MPI_COMM_SELF");
    traffic(MPI_COMM_SELF, me, 1, 100, 1, "MPI_COMM_SELF");
    traffic(MPI_COMM_WORLD, world_list, n, 110, 1, "MPI_COMM_WORLD");

    CHECK_NAME(MPI_COMM_WORLD, "MPI_COMM_WORLD", "predefined name of MPI_COMM_WORLD");
    CHECK_NAME(MPI_COMM_SELF, "MPI_COMM_SELF", "predefined name of MPI_COMM_SELF");
    /* renaming: the longest name allowed, then back; SELF keeps its own */
    char longest[MPI_MAX_OBJECT_NAME];
    for (int i = 0; i < MPI_MAX_OBJECT_NAME - 1; ++i)
        longest[i] = (char)('a' + i % 26);
    longest[MPI_MAX_OBJECT_NAME - 1] = '\0';
    CHECK_MPI(MPI_Comm_set_name(MPI_COMM_WORLD, longest));
    CHECK_NAME(MPI_COMM_WORLD, longest, "MPI_COMM_WORLD renamed (MPI_MAX_OBJECT_NAME - 1 characters)");
    CHECK_NAME(MPI_COMM_SELF, "MPI_COMM_SELF", "MPI_COMM_SELF after renaming MPI_COMM_WORLD");
    CHECK_MPI(MPI_Comm_set_name(MPI_COMM_WORLD, "MPI_COMM_WORLD"));
    CHECK_NAME(MPI_COMM_WORLD, "MPI_COMM_WORLD", "MPI_COMM_WORLD renamed back");
}

/* ------------------------------------------------------------------ dup */

/* The same (source, tag) on WORLD and on each of `k` dups: sent on the last dup first and on
 * WORLD last, received on WORLD first with MPI_ANY_SOURCE: each receive must get its own
 * communicator's message, and nothing is left over to probe. */
static void isolation(MPI_Comm *dups, int k, int tag)
{
    int to = (tu_rank + 1) % tu_size, from = (tu_rank - 1 + tu_size) % tu_size;
    MPI_Request reqs[8];
    int out[8][2], in[2];
    CHECK(k < 8, "too many communicators for isolation: %d", k);
    for (int i = k; i >= 0; --i) { /* i == 0 is WORLD */
        MPI_Comm c = i == 0 ? MPI_COMM_WORLD : dups[i - 1];
        out[i][0] = i;
        out[i][1] = tu_rank;
        CHECK_MPI(MPI_Isend(out[i], 2, MPI_INT, to, tag, c, &reqs[i]));
    }
    for (int i = 0; i <= k; ++i) {
        MPI_Comm c = i == 0 ? MPI_COMM_WORLD : dups[i - 1];
        MPI_Status st;
        CHECK_MPI(MPI_Recv(in, 2, MPI_INT, MPI_ANY_SOURCE, tag, c, &st));
        CHECK(in[0] == i && in[1] == from && st.MPI_SOURCE == from,
              "communicator %d of %d (0 = WORLD) received the message of communicator %d from "
              "world rank %d (status source %d); expected its own from %d",
              i, k + 1, in[0], in[1], st.MPI_SOURCE, from);
        int flag = 1;
        CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, tag, c, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "communicator %d of %d (0 = WORLD) shows a second message after its own", i, k + 1);
    }
    CHECK_MPI(MPI_Waitall(k + 1, reqs, MPI_STATUSES_IGNORE));
    ++checks;
}

static void dups(void)
{
    int n = tu_size;
    MPI_Comm d1, d2, d3, dself;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d1));
    CU_CHECK_INTRA(d1, world_list, n, "dup of WORLD");
    CHECK_COMPARE(d1, MPI_COMM_WORLD, MPI_CONGRUENT, "dup of WORLD vs WORLD");
    CHECK_COMPARE(d1, d1, MPI_IDENT, "dup vs itself");
    CHECK_MPI(MPI_Comm_dup(d1, &d2));
    CU_CHECK_INTRA(d2, world_list, n, "dup of a dup");
    CHECK_COMPARE(d2, d1, MPI_CONGRUENT, "dup of a dup vs the dup");
    CHECK_MPI(MPI_Comm_dup(d2, &d3));
    MPI_Comm all[3] = {d1, d2, d3};
    isolation(all, 3, 200);
    traffic(d1, world_list, n, 210, 1, "dup of WORLD");
    traffic(d2, world_list, n, 220, 0, "dup of a dup");

    /* a dup's own name; the parent's stays */
    CHECK_MPI(MPI_Comm_set_name(d1, "first dup"));
    CHECK_NAME(d1, "first dup", "named dup");
    CHECK_NAME(MPI_COMM_WORLD, "MPI_COMM_WORLD", "WORLD after naming its dup");
    CHECK_MPI(MPI_Comm_set_name(d1, "renamed dup"));
    CHECK_NAME(d1, "renamed dup", "renamed dup");

    /* the parent freed first: the children work on */
    CU_FREE(d1);
    CU_FREE(d2);
    CU_CHECK_INTRA(d3, world_list, n, "dup whose parents were freed");
    traffic(d3, world_list, n, 230, 1, "dup whose parents were freed");
    CHECK_COMPARE(d3, MPI_COMM_WORLD, MPI_CONGRUENT, "third dup vs WORLD");
    CU_FREE(d3);

    int me[1] = {tu_rank};
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &dself));
    CU_CHECK_INTRA(dself, me, 1, "dup of SELF");
    CHECK_COMPARE(dself, MPI_COMM_SELF, MPI_CONGRUENT, "dup of SELF vs SELF");
    traffic(dself, me, 1, 240, 0, "dup of SELF");
    CU_FREE(dself);
}

/* ------------------------------------------------------------------ split */

/* color and key of parent rank p (world rank w) in scenario s; MPI_UNDEFINED as a color. */
static void split_args(int s, int p, int w, int np, int *color, int *key)
{
    switch (s) {
    case 0: *color = p % 3; *key = np - p; break;                      /* reversed in each color */
    case 1: *color = p % 2; *key = (p % 4 < 2) ? 0 : 1; break;        /* ties: the parent's order */
    case 2: *color = (p == 1 || p == np - 2) ? MPI_UNDEFINED : p / 3; /* some out, negative keys */
            *key = -((w * 7) % 5); break;
    case 3: *color = 7; *key = 0; break;                               /* one color: congruent */
    case 4: *color = MPI_UNDEFINED; *key = p; break;                   /* nobody */
    case 5: *color = 1000000; *key = -p; break;                        /* all reversed: similar */
    default: *color = w % 2 ? 0 : 5; *key = w; break;                  /* by world rank parity */
    }
}

/* The members (world ranks) of this rank's part of a split of parent (members pw[0..np)). */
static int split_model(int s, const int *pw, int np, int *out)
{
    int myc = 0, k = 0, keys[CU_MAX_RANKS], dummy;
    split_args(s, cu_index_of(pw, np, tu_rank), tu_rank, np, &myc, &dummy);
    if (myc == MPI_UNDEFINED)
        return -1;
    int idx[CU_MAX_RANKS];
    for (int p = 0; p < np; ++p) {
        int c, key;
        split_args(s, p, pw[p], np, &c, &key);
        if (c != myc)
            continue;
        /* insertion by (key, parent rank): stable, since p ascends */
        int j = k++;
        while (j > 0 && keys[j - 1] > key) {
            keys[j] = keys[j - 1];
            idx[j] = idx[j - 1];
            --j;
        }
        keys[j] = key;
        idx[j] = p;
    }
    for (int i = 0; i < k; ++i)
        out[i] = pw[idx[i]];
    return k;
}

/* Splits parent (members pw) by scenario s, checks the result and its traffic; returns it. */
static MPI_Comm split_and_check(MPI_Comm parent, const int *pw, int np, int s, int tag, int *members, int *n)
{
    int p = -1, color, key;
    char what[96];
    CHECK_MPI(MPI_Comm_rank(parent, &p));
    split_args(s, p, tu_rank, np, &color, &key);
    MPI_Comm c = (MPI_Comm)(intptr_t)-1;
    CHECK_MPI(MPI_Comm_split(parent, color, key, &c));
    *n = split_model(s, pw, np, members);
    snprintf(what, sizeof what, "split scenario %d (color %d, key %d)", s, color, key);
    if (*n < 0) {
        CHECK(c == MPI_COMM_NULL, "%s: color MPI_UNDEFINED gave a communicator, expected MPI_COMM_NULL", what);
        return MPI_COMM_NULL;
    }
    CU_CHECK_INTRA(c, members, *n, what);
    check_compare_at(__LINE__, c, parent, expected_compare(members, *n, pw, np), what);
    traffic(c, members, *n, tag, s == 0, what);
    return c;
}

static void splits(void)
{
    int n = tu_size, m[CU_MAX_RANKS], k, m2[CU_MAX_RANKS], k2;
    MPI_Comm kept = MPI_COMM_NULL;
    for (int s = 0; s <= 6; ++s) {
        MPI_Comm c = split_and_check(MPI_COMM_WORLD, world_list, n, s, 300 + 10 * s, m, &k);
        if (s == 0) {
            kept = c;
            continue;
        }
        if (c != MPI_COMM_NULL)
            CU_FREE(c);
    }
    /* a split of a split (scenario 0's parts, by the parity of the rank there, reversed) */
    MPI_Comm again = MPI_COMM_NULL;
    k = split_model(0, world_list, n, m);
    for (int s = 0; s <= 2; ++s) {
        MPI_Comm c = split_and_check(kept, m, k, s, 400 + 10 * s, m2, &k2);
        if (s == 1)
            again = c;
        else if (c != MPI_COMM_NULL)
            CU_FREE(c);
    }
    /* the two levels and WORLD do not mix messages */
    MPI_Comm dup_of_split;
    CHECK_MPI(MPI_Comm_dup(kept, &dup_of_split));
    CU_CHECK_INTRA(dup_of_split, m, k, "dup of a split");
    CHECK_COMPARE(dup_of_split, kept, MPI_CONGRUENT, "dup of a split vs the split");
    traffic(dup_of_split, m, k, 450, 0, "dup of a split");
    CU_FREE(dup_of_split);
    CU_FREE(kept);
    if (again != MPI_COMM_NULL) {
        k2 = split_model(1, m, k, m2);
        traffic(again, m2, k2, 460, 0, "split of a split after its parent was freed");
        CU_FREE(again);
    }
}

/* ------------------------------------------------------------------ create */

static MPI_Comm create_and_check(MPI_Comm parent, const int *pw, int np, const int *members, int k, int tag, const char *what)
{
    MPI_Group pg, g;
    int ranks[CU_MAX_RANKS];
    CHECK_MPI(MPI_Comm_group(parent, &pg));
    for (int i = 0; i < k; ++i)
        ranks[i] = cu_index_of(pw, np, members[i]);
    CHECK_MPI(MPI_Group_incl(pg, k, ranks, &g));
    MPI_Comm c = (MPI_Comm)(intptr_t)-1;
    CHECK_MPI(MPI_Comm_create(parent, g, &c));
    if (g != MPI_GROUP_EMPTY)
        CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_free(&pg));
    if (cu_index_of(members, k, tu_rank) == MPI_UNDEFINED) {
        CHECK(c == MPI_COMM_NULL, "%s: a non-member got a communicator, expected MPI_COMM_NULL", what);
        return MPI_COMM_NULL;
    }
    CU_CHECK_INTRA(c, members, k, what);
    check_compare_at(__LINE__, c, parent, expected_compare(members, k, pw, np), what);
    traffic(c, members, k, tag, 0, what);
    return c;
}

static void creates(void)
{
    int n = tu_size, m[CU_MAX_RANKS], k = 0;
    /* even world ranks, highest first */
    for (int w = n - 1; w >= 0; --w)
        if (w % 2 == 0)
            m[k++] = w;
    MPI_Comm evens = create_and_check(MPI_COMM_WORLD, world_list, n, m, k, 500, "create of the even ranks, reversed");
    /* nobody */
    MPI_Comm c = create_and_check(MPI_COMM_WORLD, world_list, n, m, 0, 510, "create of MPI_GROUP_EMPTY");
    CHECK(c == MPI_COMM_NULL, "create of an empty group gave a communicator");
    /* everyone, in order (congruent) and rotated by one (similar unless n == 1) */
    c = create_and_check(MPI_COMM_WORLD, world_list, n, world_list, n, 520, "create of the whole group");
    CHECK_COMPARE(c, MPI_COMM_WORLD, MPI_CONGRUENT, "create of the whole group vs WORLD");
    MPI_Comm whole = c;
    int rot[CU_MAX_RANKS];
    for (int i = 0; i < n; ++i)
        rot[i] = (i + 1) % n;
    c = create_and_check(MPI_COMM_WORLD, world_list, n, rot, n, 530, "create of the whole group rotated");
    CHECK_COMPARE(c, whole, n == 1 ? MPI_CONGRUENT : MPI_SIMILAR, "rotated vs whole");
    CU_FREE(c);
    /* from a derived communicator: its members in the middle of the evens, and the evens'
     * complement within the rotated whole */
    if (evens != MPI_COMM_NULL && k >= 2) {
        int sub[CU_MAX_RANKS], ks = 0;
        for (int i = 1; i < k; ++i)
            sub[ks++] = m[i];
        c = create_and_check(evens, m, k, sub, ks, 540, "create from the evens' communicator");
        if (c != MPI_COMM_NULL) {
            CHECK_COMPARE(c, evens, MPI_UNEQUAL, "a smaller communicator vs its parent");
            CU_FREE(c);
        }
    } else if (evens != MPI_COMM_NULL) {
        c = create_and_check(evens, m, k, m, k, 540, "create from the evens' communicator");
        CU_FREE(c);
    }
    if (evens != MPI_COMM_NULL)
        CU_FREE(evens);
    CU_FREE(whole);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(1, 16);
    for (int i = 0; i < tu_size; ++i)
        world_list[i] = i;
    predefined();
    tu_barrier();
    dups();
    tu_barrier();
    splits();
    tu_barrier();
    creates();
    return tu_finish("%ld communicator checks on each rank: dup, split, create, compare, names, traffic on each", checks);
}
