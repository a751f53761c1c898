/* Shared by the group and communicator tests (group_*.c, comm_*.c; tests/mpi/README.md): a
 * group's members as ranks of MPI_COMM_WORLD (the sequential model every test checks against),
 * checks of a group or communicator against such a list, and message traffic over a
 * communicator (intra or inter) that verifies data, status and rank translation. Point-to-point
 * only (no collectives), MPI-2.2 C API; builds with Open MPI's and MPICH's mpicc. */
#ifndef PLEXUS_TESTS_MPI_COMM_UTIL_H
#define PLEXUS_TESTS_MPI_COMM_UTIL_H

#include "test_util.h"

/* Groups in these tests never exceed MPI_COMM_WORLD, and tests run with at most 8 ranks. */
#define CU_MAX_RANKS 64

/* A deterministic generator (the same sequence on every implementation). */
static inline uint64_t cu_next(uint64_t *state) { return tu_mix64(++*state); }
static inline int cu_below(uint64_t *state, int n) { return n <= 0 ? 0 : (int)(cu_next(state) % (uint64_t)n); }

/* The world ranks of g's members in g's order (through MPI_Group_translate_ranks); returns the
 * size. */
static inline int cu_world_ranks(MPI_Group g, int *out)
{
    MPI_Group world;
    int n = -1, idx[CU_MAX_RANKS];
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_MPI(MPI_Group_size(g, &n));
    CHECK(n >= 0 && n <= CU_MAX_RANKS, "group size %d out of range", n);
    for (int i = 0; i < n; ++i)
        idx[i] = i;
    if (n > 0)
        CHECK_MPI(MPI_Group_translate_ranks(g, n, idx, world, out));
    CHECK_MPI(MPI_Group_free(&world));
    return n;
}

/* Position of world rank w in list (n entries), or MPI_UNDEFINED. */
static inline int cu_index_of(const int *list, int n, int w)
{
    for (int i = 0; i < n; ++i)
        if (list[i] == w)
            return i;
    return MPI_UNDEFINED;
}

static inline void cu_format(char *buf, size_t cap, const int *list, int n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used + 12 < cap; ++i)
        used += (size_t)snprintf(buf + used, cap - used, "%s%d", i ? "," : "", list[i]);
}

/* g holds exactly the world ranks want[0..n) in that order, and MPI_Group_rank is this rank's
 * position there (MPI_UNDEFINED when absent). */
static inline void cu_check_group_at(const char *file, int line, MPI_Group g, const int *want,
                                     int n, const char *what)
{
    int got[CU_MAX_RANKS], size = -1, rank = -2;
    char a[512], b[512];
    CHECK_MPI(MPI_Group_size(g, &size));
    int m = cu_world_ranks(g, got);
    int same = size == n && m == n;
    for (int i = 0; same && i < n; ++i)
        same = got[i] == want[i];
    if (!same) {
        cu_format(a, sizeof a, got, m);
        cu_format(b, sizeof b, want, n);
        tu_fail(file, line, what, "group has %d members (world ranks [%s]), expected %d ([%s])",
                size, a, n, b);
    }
    CHECK_MPI(MPI_Group_rank(g, &rank));
    int want_rank = cu_index_of(want, n, tu_rank);
    if (rank != want_rank)
        tu_fail(file, line, what, "MPI_Group_rank gave %d, expected %d (world rank %d)", rank,
                want_rank, tu_rank);
}
#define CU_CHECK_GROUP(g, want, n, what) cu_check_group_at(__FILE__, __LINE__, (g), (want), (n), (what))

/* An intra-communicator whose group is want[0..n) (world ranks), this rank among them. */
static inline void cu_check_intra_at(const char *file, int line, MPI_Comm c, const int *want,
                                     int n, const char *what)
{
    int size = -1, rank = -1, inter = -1;
    MPI_Group g;
    if (c == MPI_COMM_NULL)
        tu_fail(file, line, what, "got MPI_COMM_NULL, expected a communicator");
    CHECK_MPI(MPI_Comm_test_inter(c, &inter));
    if (inter != 0)
        tu_fail(file, line, what, "MPI_Comm_test_inter says %d, expected 0 (intra)", inter);
    CHECK_MPI(MPI_Comm_size(c, &size));
    CHECK_MPI(MPI_Comm_rank(c, &rank));
    if (size != n || rank != cu_index_of(want, n, tu_rank))
        tu_fail(file, line, what, "size %d, rank %d; expected %d, %d", size, rank, n,
                cu_index_of(want, n, tu_rank));
    CHECK_MPI(MPI_Comm_group(c, &g));
    cu_check_group_at(file, line, g, want, n, what);
    CHECK_MPI(MPI_Group_free(&g));
    if (g != MPI_GROUP_NULL)
        tu_fail(file, line, what, "MPI_Group_free left the handle non-null");
}
#define CU_CHECK_INTRA(c, want, n, what) cu_check_intra_at(__FILE__, __LINE__, (c), (want), (n), (what))

/* Messages of cu_traffic: who sent it to whom (world ranks, and the sender's rank in the
 * communicator), which round; then a pattern seeded by all of that. */
struct cu_msg {
    int32_t src_world, dst_world, src_rank, round;
};

/* Every local rank sends one message of `bytes` (>= sizeof(struct cu_msg)) to every rank of the
 * remote side (for an intra-communicator: every rank, itself included) on `tag`, then receives
 * as many with MPI_ANY_SOURCE. local[i]/remote[j] are the world ranks of rank i / j on the two
 * sides. Each message must come from the status's MPI_SOURCE (translated: the sender's world
 * rank is remote[MPI_SOURCE]), be addressed here, arrive once per sender, and carry intact data.
 * The last half of the receives name their source explicitly instead. */
static inline void cu_traffic_at(const char *file, int line, MPI_Comm c, const int *local,
                                 int nlocal, const int *remote, int nremote, int tag, int round,
                                 size_t bytes, const char *what)
{
    int me = -1;
    CHECK_MPI(MPI_Comm_rank(c, &me));
    CHECK(me >= 0 && me < nlocal, "%s: rank %d outside the local group of %d", what, me, nlocal);
    if (bytes < sizeof(struct cu_msg))
        bytes = sizeof(struct cu_msg);
    unsigned char *out = (unsigned char *)tu_malloc(bytes * (size_t)nremote);
    unsigned char *in = (unsigned char *)tu_malloc(bytes);
    MPI_Request *reqs = (MPI_Request *)tu_malloc(sizeof(MPI_Request) * (size_t)nremote);
    int seen[CU_MAX_RANKS] = {0};
    for (int j = 0; j < nremote; ++j) {
        unsigned char *m = out + bytes * (size_t)j;
        struct cu_msg h = {local[me], remote[j], me, round};
        memcpy(m, &h, sizeof h);
        tu_fill(m + sizeof h, bytes - sizeof h, tu_seed(h.src_world, h.dst_world, bytes, round));
        CHECK_MPI(MPI_Isend(m, (int)bytes, MPI_BYTE, j, tag, c, &reqs[j]));
    }
    for (int k = 0; k < nremote; ++k) {
        MPI_Status st;
        int src = k < (nremote + 1) / 2 ? MPI_ANY_SOURCE : -1;
        if (src == -1) /* the senders not heard from yet, in order */
            for (int j = 0; j < nremote && src == -1; ++j)
                if (!seen[j])
                    src = j;
        CHECK_MPI(MPI_Recv(in, (int)bytes, MPI_BYTE, src, tag, c, &st));
        struct cu_msg h;
        memcpy(&h, in, sizeof h);
        int count = tu_count(&st);
        if (st.MPI_SOURCE < 0 || st.MPI_SOURCE >= nremote || st.MPI_TAG != tag ||
            count != (int)bytes)
            tu_fail(file, line, what,
                    "receive %d (source %d): status MPI_SOURCE %d, MPI_TAG %d, count %d; expected "
                    "a source in [0, %d), tag %d, %zu bytes",
                    k, src, st.MPI_SOURCE, st.MPI_TAG, count, nremote, tag, bytes);
        if (seen[st.MPI_SOURCE]++)
            tu_fail(file, line, what, "a second message from rank %d (world %d)", st.MPI_SOURCE,
                    remote[st.MPI_SOURCE]);
        if (h.src_world != remote[st.MPI_SOURCE] || h.src_rank != st.MPI_SOURCE ||
            h.dst_world != tu_rank || h.round != round)
            tu_fail(file, line, what,
                    "message says from world %d (rank %d) to world %d, round %d; the status "
                    "says rank %d = world %d, and this is world %d, round %d",
                    h.src_world, h.src_rank, h.dst_world, h.round, st.MPI_SOURCE,
                    remote[st.MPI_SOURCE], tu_rank, round);
        tu_verify_at(file, line, in + sizeof h, bytes - sizeof h,
                     tu_seed(h.src_world, h.dst_world, bytes, round), what);
    }
    CHECK_MPI(MPI_Waitall(nremote, reqs, MPI_STATUSES_IGNORE));
    free(reqs);
    free(in);
    free(out);
}
#define CU_TRAFFIC(c, local, nlocal, remote, nremote, tag, round, bytes, what)                    \
    cu_traffic_at(__FILE__, __LINE__, (c), (local), (nlocal), (remote), (nremote), (tag),         \
                  (round), (bytes), (what))

/* Frees a communicator and checks the handle became MPI_COMM_NULL. */
#define CU_FREE(c)                                                                                \
    do {                                                                                          \
        CHECK_MPI(MPI_Comm_free(&(c)));                                                           \
        CHECK((c) == MPI_COMM_NULL, "MPI_Comm_free left " #c " non-null");                        \
    } while (0)

#endif
