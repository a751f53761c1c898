/* Group operations against a sequential model (a group is the list of its members' world
 * ranks): Comm_group of WORLD and SELF, Group_size/rank, incl, excl, range_incl and range_excl
 * (positive and negative strides, single ranks, strides past the end, ranges to the last
 * rank), union/intersection/difference with MPI's ordering rules, translate_ranks (absent ranks
 * give MPI_UNDEFINED, MPI_PROC_NULL stays MPI_PROC_NULL), compare (IDENT/SIMILAR/UNEQUAL),
 * MPI_GROUP_EMPTY, free (the handle becomes MPI_GROUP_NULL; a group outlives its
 * communicator). First fixed cases from the standard's rules, then thousands of random
 * operations on a pool of groups (each rank its own sequence), every result checked for its
 * members, this rank's rank, a comparison and a translation against the model. Groups are
 * local objects: no communication but the final barrier. */
#include "comm_util.h"

typedef struct {
    int n;
    int m[CU_MAX_RANKS];
} model_t;

static long checks;

/* ------------------------------------------------------------------ the model */

static int model_has(const model_t *g, int w) { return cu_index_of(g->m, g->n, w) != MPI_UNDEFINED; }

static model_t model_union(const model_t *a, const model_t *b)
{
    model_t r = *a;
    for (int i = 0; i < b->n; ++i)
        if (!model_has(a, b->m[i]))
            r.m[r.n++] = b->m[i];
    return r;
}

static model_t model_filter(const model_t *a, const model_t *b, int keep_common)
{
    model_t r = {0, {0}};
    for (int i = 0; i < a->n; ++i)
        if (model_has(b, a->m[i]) == keep_common)
            r.m[r.n++] = a->m[i];
    return r;
}

static int model_compare(const model_t *a, const model_t *b)
{
    if (a->n != b->n)
        return MPI_UNEQUAL;
    int same_order = 1;
    for (int i = 0; i < a->n; ++i) {
        if (a->m[i] != b->m[i])
            same_order = 0;
        if (!model_has(b, a->m[i]))
            return MPI_UNEQUAL;
    }
    return same_order ? MPI_IDENT : MPI_SIMILAR;
}

/* The ranks a list of (first, last, stride) triplets names, in order. */
static int expand_ranges(int n, int ranges[][3], int *out)
{
    int k = 0;
    for (int i = 0; i < n; ++i) {
        int f = ranges[i][0], l = ranges[i][1], s = ranges[i][2];
        for (int r = f; s > 0 ? r <= l : r >= l; r += s)
            out[k++] = r;
    }
    return k;
}

/* ------------------------------------------------------------------ checks */

static const char *compare_name(int c)
{
    return c == MPI_IDENT ? "MPI_IDENT" : c == MPI_SIMILAR ? "MPI_SIMILAR" : c == MPI_UNEQUAL ? "MPI_UNEQUAL" : c == MPI_CONGRUENT ? "MPI_CONGRUENT" : "?";
}

static void check_compare_at(int line, MPI_Group a, MPI_Group b, int want, const char *what)
{
    int got = -1;
    CHECK_MPI(MPI_Group_compare(a, b, &got));
    if (got != want)
        tu_fail(__FILE__, line, what, "MPI_Group_compare gave %d (%s), expected %s", got,
                compare_name(got), compare_name(want));
    ++checks;
}
#define CHECK_COMPARE(a, b, want, what) check_compare_at(__LINE__, (a), (b), (want), (what))

/* The world group, a world-order group of the model's members (built by Group_incl, a second
 * path besides translate_ranks), the members themselves and this rank's rank. */
static void check_model_at(int line, MPI_Group world, MPI_Group g, const model_t *want,
                           const char *what)
{
    cu_check_group_at(__FILE__, line, g, want->m, want->n, what);
    MPI_Group again;
    int incl[CU_MAX_RANKS];
    memcpy(incl, want->m, sizeof(int) * (size_t)want->n);
    CHECK_MPI(MPI_Group_incl(world, want->n, incl, &again));
    check_compare_at(line, g, again, MPI_IDENT, what);
    if (want->n == 0)
        check_compare_at(line, g, MPI_GROUP_EMPTY, MPI_IDENT, what);
    if (again != MPI_GROUP_EMPTY)
        CHECK_MPI(MPI_Group_free(&again));
    ++checks;
}
#define CHECK_MODEL(world, g, want, what) check_model_at(__LINE__, (world), (g), (want), (what))

/* translate_ranks(a -> b) of the given ranks of a (MPI_PROC_NULL allowed) against the model. */
static void check_translate_at(int line, MPI_Group a, const model_t *ma, MPI_Group b,
                               const model_t *mb, int n, const int *ranks, const char *what)
{
    int in[CU_MAX_RANKS + 4], out[CU_MAX_RANKS + 4];
    memcpy(in, ranks, sizeof(int) * (size_t)n);
    for (int i = 0; i < n; ++i)
        out[i] = -777;
    CHECK_MPI(MPI_Group_translate_ranks(a, n, in, b, out));
    for (int i = 0; i < n; ++i) {
        int want = in[i] == MPI_PROC_NULL ? MPI_PROC_NULL : cu_index_of(mb->m, mb->n, ma->m[in[i]]);
        if (out[i] != want)
            tu_fail(__FILE__, line, what,
                    "translate_ranks of rank %d (entry %d of %d) gave %d, expected %d (%s)", in[i],
                    i, n, out[i], want,
                    want == MPI_UNDEFINED ? "MPI_UNDEFINED: not in the second group"
                    : want == MPI_PROC_NULL ? "MPI_PROC_NULL" : "its rank there");
    }
    ++checks;
}
#define CHECK_TRANSLATE(a, ma, b, mb, n, ranks, what)                                             \
    check_translate_at(__LINE__, (a), (ma), (b), (mb), (n), (ranks), (what))

static void free_group(MPI_Group *g)
{
    if (*g == MPI_GROUP_EMPTY) /* what an implementation hands out for empty results */
        return;
    CHECK_MPI(MPI_Group_free(g));
    CHECK(*g == MPI_GROUP_NULL, "MPI_Group_free left the handle non-null");
}

/* ------------------------------------------------------------------ fixed cases */

static void fixed_cases(MPI_Group world, const model_t *mworld)
{
    int n = tu_size;
    MPI_Group g, h, r;
    model_t m, mh;

    /* Comm_group(WORLD): everyone in rank order; Group_size/rank agree with the communicator. */
    int size = -1, rank = -1;
    CHECK_MPI(MPI_Group_size(world, &size));
    CHECK_MPI(MPI_Group_rank(world, &rank));
    CHECK_EQ(size, n);
    CHECK_EQ(rank, tu_rank);
    CHECK_MODEL(world, world, mworld, "MPI_Comm_group(MPI_COMM_WORLD)");
    CHECK_COMPARE(world, world, MPI_IDENT, "world vs itself");

    /* Comm_group(SELF): only this rank. */
    MPI_Group self;
    model_t mself = {1, {tu_rank}};
    CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &self));
    CHECK_MODEL(world, self, &mself, "MPI_Comm_group(MPI_COMM_SELF)");
    CHECK_COMPARE(self, world, n == 1 ? MPI_IDENT : MPI_UNEQUAL, "self vs world");

    /* MPI_GROUP_EMPTY: size 0, nobody's rank, neutral in union, absorbing in intersection. */
    model_t empty = {0, {0}};
    CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &size));
    CHECK_MPI(MPI_Group_rank(MPI_GROUP_EMPTY, &rank));
    CHECK_EQ(size, 0);
    CHECK_EQ(rank, MPI_UNDEFINED);
    CHECK_COMPARE(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, MPI_IDENT, "empty vs empty");
    CHECK_COMPARE(MPI_GROUP_EMPTY, world, MPI_UNEQUAL, "empty vs world");
    CHECK_MPI(MPI_Group_union(MPI_GROUP_EMPTY, world, &r));
    CHECK_MODEL(world, r, mworld, "union(EMPTY, world)");
    free_group(&r);
    CHECK_MPI(MPI_Group_intersection(world, MPI_GROUP_EMPTY, &r));
    CHECK_MODEL(world, r, &empty, "intersection(world, EMPTY)");
    free_group(&r);
    CHECK_MPI(MPI_Group_difference(world, world, &r));
    CHECK_MODEL(world, r, &empty, "difference(world, world)");
    free_group(&r);
    CHECK_MPI(MPI_Group_difference(world, MPI_GROUP_EMPTY, &r));
    CHECK_MODEL(world, r, mworld, "difference(world, EMPTY)");
    free_group(&r);
    CHECK_MPI(MPI_Group_incl(world, 0, NULL, &r));
    CHECK_MODEL(world, r, &empty, "incl of no ranks");
    free_group(&r);
    int all[CU_MAX_RANKS];
    for (int i = 0; i < n; ++i)
        all[i] = n - 1 - i;
    CHECK_MPI(MPI_Group_excl(world, n, all, &r));
    CHECK_MODEL(world, r, &empty, "excl of every rank");
    free_group(&r);
    for (int i = 0; i < n; ++i)
        all[i] = i;
    CHECK_TRANSLATE(world, mworld, MPI_GROUP_EMPTY, &empty, n, all, "world -> EMPTY");
    CHECK_TRANSLATE(world, mworld, world, mworld, 0, all, "no ranks");

    /* incl in reverse order: SIMILAR to world (IDENT with one rank), ranks reversed. */
    m.n = n;
    for (int i = 0; i < n; ++i)
        all[i] = m.m[i] = n - 1 - i;
    CHECK_MPI(MPI_Group_incl(world, n, all, &g));
    CHECK_MODEL(world, g, &m, "incl reversed");
    CHECK_COMPARE(g, world, n == 1 ? MPI_IDENT : MPI_SIMILAR, "reversed vs world");
    CHECK_COMPARE(world, g, n == 1 ? MPI_IDENT : MPI_SIMILAR, "world vs reversed");
    int probe[CU_MAX_RANKS + 4];
    for (int i = 0; i < n; ++i)
        probe[i] = i;
    probe[n] = MPI_PROC_NULL;
    probe[n + 1] = 0;
    CHECK_TRANSLATE(g, &m, world, mworld, n + 2, probe, "reversed -> world with MPI_PROC_NULL");
    CHECK_TRANSLATE(world, mworld, g, &m, n + 2, probe, "world -> reversed with MPI_PROC_NULL");

    /* range_incl, fixed shapes: evens; downwards by 3 from the last rank; a stride beyond the
     * range (one rank); a single rank; from rank 1 to the end. */
    int shapes[][3] = {{0, n - 1, 2}, {n - 1, 0, -3}, {n > 1 ? 1 : 0, n - 1, n + 5}, {n / 2, n / 2, 1}, {n > 1 ? 1 : 0, n - 1, 1}, {n - 1, 0, -1}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        int tri[1][3] = {{shapes[s][0], shapes[s][1], shapes[s][2]}};
        char what[96];
        snprintf(what, sizeof what, "range_incl (%d, %d, %d)", tri[0][0], tri[0][1], tri[0][2]);
        m.n = expand_ranges(1, tri, m.m);
        CHECK_MPI(MPI_Group_range_incl(world, 1, tri, &r));
        CHECK_MODEL(world, r, &m, what);
        free_group(&r);
        /* range_excl of the same: the rest, in world order */
        model_t rest = model_filter(mworld, &m, 0);
        snprintf(what, sizeof what, "range_excl (%d, %d, %d)", tri[0][0], tri[0][1], tri[0][2]);
        CHECK_MPI(MPI_Group_range_excl(world, 1, tri, &r));
        CHECK_MODEL(world, r, &rest, what);
        free_group(&r);
        /* ranges apply to the ranks of the group given, not the world's: through g (reversed) */
        model_t via = {0, {0}};
        int picked[CU_MAX_RANKS];
        via.n = expand_ranges(1, tri, picked);
        for (int i = 0; i < via.n; ++i)
            via.m[i] = n - 1 - picked[i];
        CHECK_MPI(MPI_Group_range_incl(g, 1, tri, &r));
        CHECK_MODEL(world, r, &via, "range_incl of the reversed group");
        free_group(&r);
    }

    /* The ordering rules of union, intersection and difference (needs 4 ranks): a = {3, 1},
     * b = {1, 0, 2}: union(a, b) = {3, 1, 0, 2}, union(b, a) = {1, 0, 2, 3},
     * intersection(b, a) = {1}, difference(b, a) = {0, 2}, difference(a, b) = {3}. */
    if (n >= 4) {
        int ra[] = {3, 1}, rb[] = {1, 0, 2};
        model_t ma = {2, {3, 1}}, mb = {3, {1, 0, 2}};
        MPI_Group a, b;
        CHECK_MPI(MPI_Group_incl(world, 2, ra, &a));
        CHECK_MPI(MPI_Group_incl(world, 3, rb, &b));
        model_t want[5] = {{4, {3, 1, 0, 2}}, {4, {1, 0, 2, 3}}, {1, {1}}, {2, {0, 2}}, {1, {3}}};
        const char *names[5] = {"union(a, b)", "union(b, a)", "intersection(b, a)", "difference(b, a)", "difference(a, b)"};
        for (int k = 0; k < 5; ++k) {
            switch (k) {
            case 0: CHECK_MPI(MPI_Group_union(a, b, &r)); break;
            case 1: CHECK_MPI(MPI_Group_union(b, a, &r)); break;
            case 2: CHECK_MPI(MPI_Group_intersection(b, a, &r)); break;
            case 3: CHECK_MPI(MPI_Group_difference(b, a, &r)); break;
            default: CHECK_MPI(MPI_Group_difference(a, b, &r)); break;
            }
            CHECK_MODEL(world, r, &want[k], names[k]);
            free_group(&r);
        }
        int tr[] = {0, 1, MPI_PROC_NULL};
        CHECK_TRANSLATE(a, &ma, b, &mb, 3, tr, "a -> b: 3 is absent, 1 is rank 0");
        /* SIMILAR both ways, UNEQUAL for a subset */
        CHECK_MPI(MPI_Group_union(b, a, &r));
        CHECK_MPI(MPI_Group_union(a, b, &h));
        CHECK_COMPARE(r, h, MPI_SIMILAR, "union(b, a) vs union(a, b)");
        CHECK_COMPARE(r, b, MPI_UNEQUAL, "union(b, a) vs b");
        free_group(&r);
        free_group(&h);
        free_group(&a);
        free_group(&b);
    }

    /* A group outlives its communicator. */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_group(dup, &h));
    CU_FREE(dup);
    mh = *mworld;
    CHECK_MODEL(world, h, &mh, "group of a freed dup of MPI_COMM_WORLD");
    CHECK_COMPARE(h, world, MPI_IDENT, "group of a dup vs world");
    free_group(&h);
    free_group(&g);
    free_group(&self);
}

/* ------------------------------------------------------------------ random operations */

#define POOL 12

typedef struct {
    MPI_Group g;
    model_t m;
} entry_t;

static void shuffle(uint64_t *rng, int *a, int n)
{
    for (int i = n - 1; i > 0; --i) {
        int j = cu_below(rng, i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* Disjoint (first, last, stride) triplets over ranks [0, size) of a group, in random order and
 * directions, some reaching the last rank; returns how many. */
static int random_ranges(uint64_t *rng, int size, int ranges[][3])
{
    int k = 0, start = 0;
    while (start < size) {
        int len = 1 + cu_below(rng, size - start);
        int a = start, b = start + len - 1, s = 1 + cu_below(rng, 3);
        start += len;
        if (cu_below(rng, 4) == 0)
            continue; /* a gap: these ranks are left out */
        if (cu_below(rng, 2)) {
            ranges[k][0] = a;
            ranges[k][1] = b;
            ranges[k][2] = s;
        } else {
            ranges[k][0] = b;
            ranges[k][1] = a;
            ranges[k][2] = -s;
        }
        ++k;
    }
    for (int i = k - 1; i > 0; --i) { /* any order of the triplets */
        int j = cu_below(rng, i + 1);
        for (int c = 0; c < 3; ++c) {
            int t = ranges[i][c];
            ranges[i][c] = ranges[j][c];
            ranges[j][c] = t;
        }
    }
    return k;
}

static void random_operations(MPI_Group world, const model_t *mworld, int steps)
{
    uint64_t rng = 0x67726f7570ULL + (uint64_t)tu_rank * 7919;
    entry_t pool[POOL];
    int used = 3;
    pool[0].g = world; /* not owned: never freed here */
    pool[0].m = *mworld;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &pool[1].g));
    pool[1].m.n = 1;
    pool[1].m.m[0] = tu_rank;
    pool[2].g = MPI_GROUP_EMPTY;
    pool[2].m.n = 0;
    static const char *names[] = {"incl", "excl", "range_incl", "range_excl", "union", "intersection", "difference"};
    for (int step = 0; step < steps; ++step) {
        entry_t *a = &pool[cu_below(&rng, used)], *b = &pool[cu_below(&rng, used)];
        int op = cu_below(&rng, 7);
        MPI_Group r = MPI_GROUP_NULL;
        model_t m = {0, {0}};
        int ranks[CU_MAX_RANKS], k = 0, ranges[CU_MAX_RANKS][3];
        char what[128];
        snprintf(what, sizeof what, "step %d: %s of groups of %d and %d", step, names[op], a->m.n, b->m.n);
        switch (op) {
        case 0: /* incl: a random selection in random order */
        case 1: /* excl: a random subset, listed in random order */
            for (int i = 0; i < a->m.n; ++i)
                ranks[i] = i;
            shuffle(&rng, ranks, a->m.n);
            k = cu_below(&rng, a->m.n + 1);
            if (op == 0) {
                for (int i = 0; i < k; ++i)
                    m.m[m.n++] = a->m.m[ranks[i]];
                CHECK_MPI(MPI_Group_incl(a->g, k, ranks, &r));
            } else {
                for (int i = 0; i < a->m.n; ++i)
                    if (cu_index_of(ranks, k, i) == MPI_UNDEFINED)
                        m.m[m.n++] = a->m.m[i];
                CHECK_MPI(MPI_Group_excl(a->g, k, ranks, &r));
            }
            break;
        case 2:
        case 3:
            if (a->m.n == 0)
                continue; /* no valid triplet exists */
            k = random_ranges(&rng, a->m.n, ranges);
            {
                int picked[CU_MAX_RANKS], np = expand_ranges(k, ranges, picked);
                if (op == 2) {
                    for (int i = 0; i < np; ++i)
                        m.m[m.n++] = a->m.m[picked[i]];
                    CHECK_MPI(MPI_Group_range_incl(a->g, k, ranges, &r));
                } else {
                    for (int i = 0; i < a->m.n; ++i)
                        if (cu_index_of(picked, np, i) == MPI_UNDEFINED)
                            m.m[m.n++] = a->m.m[i];
                    CHECK_MPI(MPI_Group_range_excl(a->g, k, ranges, &r));
                }
            }
            break;
        case 4:
            m = model_union(&a->m, &b->m);
            CHECK_MPI(MPI_Group_union(a->g, b->g, &r));
            break;
        case 5:
            m = model_filter(&a->m, &b->m, 1);
            CHECK_MPI(MPI_Group_intersection(a->g, b->g, &r));
            break;
        default:
            m = model_filter(&a->m, &b->m, 0);
            CHECK_MPI(MPI_Group_difference(a->g, b->g, &r));
            break;
        }
        CHECK_MODEL(world, r, &m, what);
        entry_t *other = &pool[cu_below(&rng, used)];
        check_compare_at(__LINE__, r, other->g, model_compare(&m, &other->m), what);
        /* translate every rank, plus MPI_PROC_NULL, into another group of the pool */
        int tr[CU_MAX_RANKS + 2];
        for (int i = 0; i < m.n; ++i)
            tr[i] = i;
        shuffle(&rng, tr, m.n);
        tr[m.n] = MPI_PROC_NULL;
        int with_proc_null = 1;
#ifndef PLEXUS_MPI
        /* Open MPI 4.1.4 and MPICH 4.0.2 translate MPI_PROC_NULL to MPI_UNDEFINED when either
         * group is empty (a shortcut that answers MPI_UNDEFINED for every entry). */
        with_proc_null = m.n > 0 && other->m.n > 0;
#endif
        check_translate_at(__LINE__, r, &m, other->g, &other->m, m.n + with_proc_null, tr, what);
        /* keep it in the pool (replacing an owned entry when full) or free it */
        if (used < POOL) {
            pool[used].g = r;
            pool[used].m = m;
            ++used;
        } else if (cu_below(&rng, 2)) {
            int victim = 3 + cu_below(&rng, POOL - 3);
            free_group(&pool[victim].g);
            pool[victim].g = r;
            pool[victim].m = m;
        } else {
            free_group(&r);
        }
    }
    for (int i = 1; i < used; ++i)
        free_group(&pool[i].g);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(1, CU_MAX_RANKS);
    int steps = (int)tu_option_size(argc, argv, "--steps", 3000);
    MPI_Group world;
    model_t mworld = {tu_size, {0}};
    for (int i = 0; i < tu_size; ++i)
        mworld.m[i] = i;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    fixed_cases(world, &mworld);
    random_operations(world, &mworld, steps);
    CHECK_MPI(MPI_Group_free(&world));
    CHECK(world == MPI_GROUP_NULL, "MPI_Group_free left the world group's handle non-null");
    return tu_finish("%ld group checks on each rank (fixed cases and %d random operations)", checks, steps);
}
