/* Misuse of groups and communicators under MPI_ERRORS_RETURN: each call returns an error of the
 * class MPI-2.2 names, and MPI_Error_string a message (printed by rank 0; under Plexus it must
 * name the call and the offending value or handle):
 * - freeing MPI_COMM_WORLD or MPI_COMM_SELF, remote_size/remote_group (Plexus only: Open MPI
 *   4.1.4 and MPICH 4.0.2 do not check) and Intercomm_merge of an intra-communicator,
 *   Intercomm_create with an inter-communicator as local_comm: MPI_ERR_COMM;
 * - ranks outside the group in Group_incl/excl/range_incl/range_excl/translate_ranks, duplicate
 *   ranks in Group_incl/excl (MPI-2.2: the ranks must be distinct, no class named; Plexus says
 *   MPI_ERR_RANK, Open MPI 4.1.4 and MPICH 4.0.2 do not check): MPI_ERR_RANK; a stride of 0: MPI_ERR_ARG;
 * - MPI_GROUP_NULL to every group function and Comm_create: MPI_ERR_GROUP; Comm_create with a
 *   group that is not a subgroup of the communicator's: MPI_ERR_GROUP;
 * - Intercomm_create with an invalid local leader or (at the leader) remote leader:
 *   MPI_ERR_RANK;
 * - MPI_COMM_NULL to every communicator function: MPI_ERR_COMM;
 * - the handler is inherited: with MPI_ERRORS_RETURN on WORLD, its dup, split, create, an
 *   intercomm and its merge return errors (and keep doing so after WORLD goes back to
 *   MPI_ERRORS_ARE_FATAL); a dup made then gets MPI_ERRORS_ARE_FATAL.
 * Every rank checks on its own (every misuse is found before any communication); afterwards
 * the communicators involved still work. */
#include "comm_util.h"

static int checks;

/* Open MPI 4.1.4 reports an out-of-range leader of Intercomm_create as MPI_ERR_ARG. */
#ifdef OPEN_MPI
#define LEADER_CLASS MPI_ERR_ARG
#else
#define LEADER_CLASS MPI_ERR_RANK
#endif
/* Open MPI 4.1.4 reports a stride of 0 as MPI_ERR_RANK. */
#ifdef OPEN_MPI
#define STRIDE_CLASS MPI_ERR_RANK
#else
#define STRIDE_CLASS MPI_ERR_ARG
#endif
/* MPICH 4.0.2 reports a range outside the group (range_incl/excl) as MPI_ERR_ARG. */
#ifdef MPICH
#define RANGE_CLASS MPI_ERR_ARG
#else
#define RANGE_CLASS MPI_ERR_RANK
#endif

/* The call failed with class `want`; its message is non-empty and, under Plexus, holds each of
 * the given words. */
static void expect_at(int line, int rc, int want, const char *call, const char *word1, const char *word2)
{
    char text[MPI_MAX_ERROR_STRING + 1];
    int len = -1, cls = tu_error_class(rc);
    if (rc == MPI_SUCCESS || cls != want) {
        tu_fail(__FILE__, line, call, "returned %d of class %d (%s), expected an error of class %d", rc,
                cls, rc == MPI_SUCCESS ? "success" : tu_error_text(rc, text), want);
    }
    memset(text, 0, sizeof text);
    int src = MPI_Error_string(rc, text, &len);
    if (src != MPI_SUCCESS || len <= 0 || len >= MPI_MAX_ERROR_STRING || (size_t)len != strlen(text))
        tu_fail(__FILE__, line, call, "MPI_Error_string(%d) returned %d, length %d, text '%s': expected a non-empty message of that length", rc, src, len, text);
#ifdef PLEXUS_MPI
    const char *words[2] = {word1, word2};
    for (int i = 0; i < 2; ++i)
        if (words[i] && !strstr(text, words[i]))
            tu_fail(__FILE__, line, call, "the message '%s' does not mention '%s'", text, words[i]);
#else
    (void)word1;
    (void)word2;
#endif
    if (tu_rank == 0)
        printf("  %-60.60s -> %s\n", call, text);
    ++checks;
}
#define EXPECT(call, cls, w1, w2) expect_at(__LINE__, (call), (cls), #call, (w1), (w2))

static char num_buf[8][16];
static const char *num(int slot, int v)
{
    snprintf(num_buf[slot], sizeof num_buf[slot], "%d", v);
    return num_buf[slot];
}

static void comm_misuse(void)
{
    MPI_Comm w = MPI_COMM_WORLD, s = MPI_COMM_SELF, nul = MPI_COMM_NULL, out = MPI_COMM_NULL;
    MPI_Group g = MPI_GROUP_NULL;
    int x = -1;
    char name[MPI_MAX_OBJECT_NAME];

    EXPECT(MPI_Comm_free(&w), MPI_ERR_COMM, "MPI_Comm_free", "MPI_COMM_WORLD");
    CHECK(w == MPI_COMM_WORLD, "a failed MPI_Comm_free changed the handle");
    EXPECT(MPI_Comm_free(&s), MPI_ERR_COMM, "MPI_Comm_free", "MPI_COMM_SELF");
#ifdef PLEXUS_MPI /* Open MPI 4.1.4 and MPICH 4.0.2 answer these for an intra-communicator */
    EXPECT(MPI_Comm_remote_size(MPI_COMM_WORLD, &x), MPI_ERR_COMM, "MPI_Comm_remote_size", "MPI_COMM_WORLD");
    EXPECT(MPI_Comm_remote_group(MPI_COMM_WORLD, &g), MPI_ERR_COMM, "MPI_Comm_remote_group", "MPI_COMM_WORLD");
#endif
#ifndef MPICH /* MPICH 4.0.2 fails an internal assertion and aborts instead */
    EXPECT(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &out), MPI_ERR_COMM, "MPI_Intercomm_merge", "MPI_COMM_WORLD");
#endif

    /* MPI_COMM_NULL everywhere a communicator goes */
    EXPECT(MPI_Comm_size(MPI_COMM_NULL, &x), MPI_ERR_COMM, "MPI_Comm_size", "MPI_COMM_NULL");
    EXPECT(MPI_Comm_rank(MPI_COMM_NULL, &x), MPI_ERR_COMM, "MPI_Comm_rank", "MPI_COMM_NULL");
    EXPECT(MPI_Comm_dup(MPI_COMM_NULL, &out), MPI_ERR_COMM, "MPI_Comm_dup", "MPI_COMM_NULL");
    EXPECT(MPI_Comm_group(MPI_COMM_NULL, &g), MPI_ERR_COMM, "MPI_Comm_group", "MPI_COMM_NULL");
    EXPECT(MPI_Comm_split(MPI_COMM_NULL, 0, 0, &out), MPI_ERR_COMM, "MPI_Comm_split", "MPI_COMM_NULL");
    EXPECT(MPI_Comm_create(MPI_COMM_NULL, MPI_GROUP_EMPTY, &out), MPI_ERR_COMM, "MPI_Comm_create", "MPI_COMM_NULL");
    EXPECT(MPI_Comm_compare(MPI_COMM_NULL, MPI_COMM_WORLD, &x), MPI_ERR_COMM, "MPI_Comm_compare", "MPI_COMM_NULL");
    EXPECT(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_NULL, &x), MPI_ERR_COMM, "MPI_Comm_compare", "MPI_COMM_NULL");
    EXPECT(MPI_Comm_test_inter(MPI_COMM_NULL, &x), MPI_ERR_COMM, "MPI_Comm_test_inter", "MPI_COMM_NULL");
    EXPECT(MPI_Comm_remote_size(MPI_COMM_NULL, &x), MPI_ERR_COMM, "MPI_Comm_remote_size", "MPI_COMM_NULL");
    EXPECT(MPI_Comm_remote_group(MPI_COMM_NULL, &g), MPI_ERR_COMM, "MPI_Comm_remote_group", "MPI_COMM_NULL");
    EXPECT(MPI_Comm_set_name(MPI_COMM_NULL, "x"), MPI_ERR_COMM, "MPI_Comm_set_name", "MPI_COMM_NULL");
    EXPECT(MPI_Comm_get_name(MPI_COMM_NULL, name, &x), MPI_ERR_COMM, "MPI_Comm_get_name", "MPI_COMM_NULL");
    EXPECT(MPI_Comm_free(&nul), MPI_ERR_COMM, "MPI_Comm_free", "MPI_COMM_NULL");
    EXPECT(MPI_Intercomm_merge(MPI_COMM_NULL, 0, &out), MPI_ERR_COMM, "MPI_Intercomm_merge", "MPI_COMM_NULL");
    EXPECT(MPI_Intercomm_create(MPI_COMM_NULL, 0, MPI_COMM_WORLD, 0, 5, &out), MPI_ERR_COMM, "MPI_Intercomm_create", "MPI_COMM_NULL");
    CHECK(out == MPI_COMM_NULL, "a failed call wrote a communicator");

    /* Intercomm_create: leaders outside their communicators; an intercomm as local_comm */
    EXPECT(MPI_Intercomm_create(MPI_COMM_SELF, 1, MPI_COMM_WORLD, 0, 5, &out), LEADER_CLASS, "MPI_Intercomm_create", "1");
    EXPECT(MPI_Intercomm_create(MPI_COMM_SELF, -1, MPI_COMM_WORLD, 0, 5, &out), LEADER_CLASS, "MPI_Intercomm_create", "-1");
    EXPECT(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, tu_size, 5, &out), LEADER_CLASS, "MPI_Intercomm_create", num(0, tu_size));
    if (tu_size >= 2) {
        MPI_Comm local, inter;
        int side = tu_rank % 2;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, tu_rank, &local));
        CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side ? 0 : 1, 6, &inter));
        EXPECT(MPI_Intercomm_create(inter, 0, MPI_COMM_WORLD, 0, 7, &out), MPI_ERR_COMM, "MPI_Intercomm_create", NULL);
        CU_FREE(inter);
        CU_FREE(local);
    }

    /* Comm_create with a group that is not a subgroup: WORLD's group on SELF */
#ifndef OPEN_MPI /* Open MPI 4.1.4 does not check, and makes a communicator */
    if (tu_size >= 2) {
        MPI_Group wg;
        CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
        EXPECT(MPI_Comm_create(MPI_COMM_SELF, wg, &out), MPI_ERR_GROUP, "MPI_Comm_create", NULL);
        CHECK_MPI(MPI_Group_free(&wg));
    }
#endif
    EXPECT(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &out), MPI_ERR_GROUP, "MPI_Comm_create", "MPI_GROUP_NULL");
}

static void group_misuse(void)
{
    MPI_Group wg, g = MPI_GROUP_NULL, nul = MPI_GROUP_NULL;
    int n = tu_size, x = -1;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));

    int bad[2] = {n, -1};
    for (int i = 0; i < 2; ++i) {
        int r[1] = {bad[i]};
        const char *v = num(1, bad[i]);
        EXPECT(MPI_Group_incl(wg, 1, r, &g), MPI_ERR_RANK, "MPI_Group_incl", v);
        EXPECT(MPI_Group_excl(wg, 1, r, &g), MPI_ERR_RANK, "MPI_Group_excl", v);
        int out[1];
#ifdef PLEXUS_MPI /* neither Open MPI 4.1.4 (it crashes on -1) nor MPICH 4.0.2 checks */
        EXPECT(MPI_Group_translate_ranks(wg, 1, r, wg, out), MPI_ERR_RANK, "MPI_Group_translate_ranks", v);
#else
        (void)out;
#endif
        int range[1][3] = {{bad[i], bad[i], 1}};
        EXPECT(MPI_Group_range_incl(wg, 1, range, &g), RANGE_CLASS, "MPI_Group_range_incl", v);
        EXPECT(MPI_Group_range_excl(wg, 1, range, &g), RANGE_CLASS, "MPI_Group_range_excl", v);
    }
    /* a range whose last rank is beyond the group */
    int beyond[1][3] = {{0, n, 1}};
    EXPECT(MPI_Group_range_incl(wg, 1, beyond, &g), RANGE_CLASS, "MPI_Group_range_incl", num(2, n));
    int zero[1][3] = {{0, n - 1, 0}};
    EXPECT(MPI_Group_range_incl(wg, 1, zero, &g), STRIDE_CLASS, "MPI_Group_range_incl", "stride");
#ifdef PLEXUS_MPI /* Open MPI 4.1.4 and MPICH 4.0.2 accept duplicate ranks (a process twice) */
    int dup[2] = {0, 0};
    EXPECT(MPI_Group_incl(wg, 2, dup, &g), MPI_ERR_RANK, "MPI_Group_incl", "0");
    EXPECT(MPI_Group_excl(wg, 2, dup, &g), MPI_ERR_RANK, "MPI_Group_excl", "0");
#endif
    CHECK(g == MPI_GROUP_NULL, "a failed group call wrote a group");

    /* MPI_GROUP_NULL everywhere a group goes */
    int r0[1] = {0}, out[1];
    EXPECT(MPI_Group_size(MPI_GROUP_NULL, &x), MPI_ERR_GROUP, "MPI_Group_size", "MPI_GROUP_NULL");
    EXPECT(MPI_Group_rank(MPI_GROUP_NULL, &x), MPI_ERR_GROUP, "MPI_Group_rank", "MPI_GROUP_NULL");
    EXPECT(MPI_Group_incl(MPI_GROUP_NULL, 1, r0, &g), MPI_ERR_GROUP, "MPI_Group_incl", "MPI_GROUP_NULL");
    EXPECT(MPI_Group_excl(MPI_GROUP_NULL, 1, r0, &g), MPI_ERR_GROUP, "MPI_Group_excl", "MPI_GROUP_NULL");
    EXPECT(MPI_Group_union(MPI_GROUP_NULL, wg, &g), MPI_ERR_GROUP, "MPI_Group_union", "MPI_GROUP_NULL");
    EXPECT(MPI_Group_intersection(wg, MPI_GROUP_NULL, &g), MPI_ERR_GROUP, "MPI_Group_intersection", "MPI_GROUP_NULL");
    EXPECT(MPI_Group_difference(MPI_GROUP_NULL, wg, &g), MPI_ERR_GROUP, "MPI_Group_difference", "MPI_GROUP_NULL");
    EXPECT(MPI_Group_compare(wg, MPI_GROUP_NULL, &x), MPI_ERR_GROUP, "MPI_Group_compare", "MPI_GROUP_NULL");
    EXPECT(MPI_Group_translate_ranks(MPI_GROUP_NULL, 1, r0, wg, out), MPI_ERR_GROUP, "MPI_Group_translate_ranks", "MPI_GROUP_NULL");
    EXPECT(MPI_Group_free(&nul), MPI_ERR_GROUP, "MPI_Group_free", "MPI_GROUP_NULL");
    CHECK(g == MPI_GROUP_NULL, "a failed group call wrote a group");
    CHECK_MPI(MPI_Group_free(&wg));
}

/* Errors on c come back as codes (c's handler is MPI_ERRORS_RETURN). */
static void provoke(MPI_Comm c, const char *what)
{
    int size = -1, inter = 0, x;
    unsigned char byte = 0;
    CHECK_MPI(MPI_Comm_test_inter(c, &inter));
    if (inter)
        CHECK_MPI(MPI_Comm_remote_size(c, &size));
    else
        CHECK_MPI(MPI_Comm_size(c, &size));
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_get_errhandler(c, &eh));
#ifdef MPICH /* MPICH 4.0.2: Comm_get_errhandler of a Comm_create or Intercomm_merge result
              * says MPI_ERRORS_ARE_FATAL although its errors do return */
    if (strncmp(what, "create", 6) != 0 && strncmp(what, "merge", 5) != 0)
#endif
    CHECK(eh == MPI_ERRORS_RETURN, "%s: MPI_Comm_get_errhandler is not MPI_ERRORS_RETURN", what);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    EXPECT(MPI_Send(&byte, 1, MPI_BYTE, size, 0, c), MPI_ERR_RANK, "MPI_Send", num(3, size));
#ifdef PLEXUS_MPI /* see comm_misuse */
    if (!inter)
        EXPECT(MPI_Comm_remote_size(c, &x), MPI_ERR_COMM, "MPI_Comm_remote_size", NULL);
#else
    (void)x;
#endif
}

static void inheritance(void)
{
    MPI_Comm d, s, c, local, inter, merged, fatal_dup;
    MPI_Group wg;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, tu_rank % 2, -tu_rank, &s));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, wg, &c));
    CHECK_MPI(MPI_Group_free(&wg));
    provoke(d, "dup of WORLD");
    provoke(s, "split of WORLD");
    provoke(c, "create from WORLD");
    int side = tu_rank % 2;
    if (tu_size >= 2) {
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, tu_rank, &local));
        CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side ? 0 : 1, 8, &inter));
        CHECK_MPI(MPI_Intercomm_merge(inter, side, &merged));
        provoke(inter, "intercomm from a split of WORLD");
        provoke(merged, "merge of that intercomm");
    }
    /* WORLD back to fatal: the derived ones keep their own handler, a new dup gets fatal */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    provoke(d, "dup of WORLD after WORLD went back to MPI_ERRORS_ARE_FATAL");
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &fatal_dup));
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_get_errhandler(fatal_dup, &eh));
    CHECK(eh == MPI_ERRORS_ARE_FATAL, "a dup of WORLD under MPI_ERRORS_ARE_FATAL has another handler");
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    /* all of them still work */
    int all[CU_MAX_RANKS];
    for (int i = 0; i < tu_size; ++i)
        all[i] = i;
    CU_TRAFFIC(d, all, tu_size, all, tu_size, 50, 50, 40, "dup after errors");
    CU_TRAFFIC(fatal_dup, all, tu_size, all, tu_size, 51, 51, 40, "fatal dup");
    CU_FREE(fatal_dup);
    CU_FREE(d);
    CU_FREE(s);
    CU_FREE(c);
    if (tu_size >= 2) {
        CU_FREE(merged);
        CU_FREE(inter);
        CU_FREE(local);
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(1, CU_MAX_RANKS);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)); /* freeing SELF errs there */
    if (tu_rank == 0)
        printf("comm_errors: the messages (rank 0):\n");
    comm_misuse();
    group_misuse();
    inheritance();
    int all[CU_MAX_RANKS];
    for (int i = 0; i < tu_size; ++i)
        all[i] = i;
    CU_TRAFFIC(MPI_COMM_WORLD, all, tu_size, all, tu_size, 60, 60, 40, "WORLD after the errors");
    return tu_finish("%d misuses returned their error class and a message", checks);
}
