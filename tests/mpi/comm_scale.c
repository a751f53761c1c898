/* Many communicators: context ids are agreed, recycled and never shared by two live
 * communicators.
 * 1. --count (10,000) communicators created and freed one after another, a mix of Comm_dup,
 *    Comm_split (three colors, reversed keys), Comm_create (half of the ranks; the others get
 *    MPI_COMM_NULL) and, every 16th, an inter-communicator of two halves and its merge; each
 *    checked for size and rank, every 97th for its members and all-to-all traffic.
 * 2. --alive (2,000) communicators alive at once (dups, splits, creates, dups of those), then
 *    one message per communicator from every rank to the next, all with the same tag, received
 *    in reverse order: each lands in its own communicator (no two share a context); traffic on
 *    every 100th; freed in a scattered order, and the same again so that the freed ids are
 *    reused.
 * Leaks show under AddressSanitizer/LeakSanitizer (make check in an --enable-debug build) or by
 * hand under valgrind (tests/mpi/README.md). */
#include "comm_util.h"

static int world_list[CU_MAX_RANKS];

/* The communicator of iteration i, and the world ranks it must hold (count 0: MPI_COMM_NULL). */
static MPI_Comm make(long i, MPI_Comm base, int *members, int *n)
{
    MPI_Comm c = MPI_COMM_NULL;
    int size = tu_size;
    *n = 0;
    switch (i % 3) {
    case 0:
        CHECK_MPI(MPI_Comm_dup(base, &c));
        for (int w = 0; w < size; ++w)
            members[(*n)++] = w;
        break;
    case 1: { /* color (w + i) % 3, key -w: each color's ranks, highest first */
        int color = (int)((tu_rank + i) % 3);
        CHECK_MPI(MPI_Comm_split(base, color, -tu_rank, &c));
        for (int w = size - 1; w >= 0; --w)
            if ((w + i) % 3 == color)
                members[(*n)++] = w;
        break;
    }
    default: { /* the ranks w with (w + i) even, lowest first */
        MPI_Group wg, g;
        int ranks[CU_MAX_RANKS], k = 0;
        for (int w = 0; w < size; ++w)
            if ((w + i) % 2 == 0)
                ranks[k++] = w;
        CHECK_MPI(MPI_Comm_group(base, &wg));
        CHECK_MPI(MPI_Group_incl(wg, k, ranks, &g));
        CHECK_MPI(MPI_Comm_create(base, g, &c));
        CHECK_MPI(MPI_Group_free(&g));
        CHECK_MPI(MPI_Group_free(&wg));
        if ((tu_rank + i) % 2 == 0) {
            memcpy(members, ranks, sizeof(int) * (size_t)k);
            *n = k;
        }
        break;
    }
    }
    return c;
}

static void check_size_rank(MPI_Comm c, const int *members, int n, long i)
{
    if (n == 0) {
        CHECK(c == MPI_COMM_NULL, "communicator %ld: a non-member got a communicator", i);
        return;
    }
    int size = -1, rank = -1;
    CHECK(c != MPI_COMM_NULL, "communicator %ld: MPI_COMM_NULL for a member", i);
    CHECK_MPI(MPI_Comm_size(c, &size));
    CHECK_MPI(MPI_Comm_rank(c, &rank));
    CHECK(size == n && rank == cu_index_of(members, n, tu_rank),
          "communicator %ld: size %d, rank %d; expected %d, %d", i, size, rank, n,
          cu_index_of(members, n, tu_rank));
}

/* Two halves (world ranks below size/2, the rest) joined over WORLD, then merged (low half
 * first). */
static void inter_round(long i)
{
    int half = tu_size / 2, side = tu_rank < half ? 0 : 1;
    MPI_Comm local, inter, merged;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, tu_rank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side ? 0 : half, (int)(i % 1000), &inter));
    int rsize = -1;
    CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
    CHECK(rsize == (side ? half : tu_size - half), "intercomm %ld: remote size %d", i, rsize);
    CHECK_MPI(MPI_Intercomm_merge(inter, side, &merged));
    check_size_rank(merged, world_list, tu_size, i);
    if (i % 97 == 0) {
        int lo[CU_MAX_RANKS], hi[CU_MAX_RANKS];
        for (int w = 0; w < tu_size; ++w)
            (w < half ? lo : hi)[w < half ? w : w - half] = w;
        CU_TRAFFIC(inter, side ? hi : lo, side ? tu_size - half : half, side ? lo : hi,
                   side ? half : tu_size - half, 3000, (int)i, 40, "sampled intercomm");
        CU_TRAFFIC(merged, world_list, tu_size, world_list, tu_size, 3001, (int)i, 40, "sampled merge");
    }
    CU_FREE(merged);
    CU_FREE(inter);
    CU_FREE(local);
}

static void churn(long count)
{
    int members[CU_MAX_RANKS], n;
    for (long i = 0; i < count; ++i) {
        MPI_Comm c = make(i, MPI_COMM_WORLD, members, &n);
        check_size_rank(c, members, n, i);
        if (i % 97 == 0 && c != MPI_COMM_NULL) {
            CU_CHECK_INTRA(c, members, n, "sampled communicator of the loop");
            CU_TRAFFIC(c, members, n, members, n, 2000, (int)i, i % 2 ? 70000 : 40, "sampled communicator of the loop");
        }
        if (c != MPI_COMM_NULL)
            CU_FREE(c);
        if (i % 16 == 15 && tu_size >= 2)
            inter_round(i);
    }
}

/* `alive` communicators at once: everyone is a member of each (dups of WORLD, splits of one
 * color with reversed keys, creates of the whole group rotated, dups of the previous one). */
static void many_alive(int alive, int pass)
{
    MPI_Comm *comms = (MPI_Comm *)tu_malloc(sizeof(MPI_Comm) * (size_t)alive);
    int (*members)[CU_MAX_RANKS] = tu_malloc(sizeof *members * (size_t)alive);
    int size = tu_size;
    MPI_Group wg;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    for (int i = 0; i < alive; ++i) {
        switch (i % 4) {
        case 0:
            CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]));
            memcpy(members[i], world_list, sizeof world_list);
            break;
        case 1:
            CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, i, -tu_rank, &comms[i]));
            for (int r = 0; r < size; ++r)
                members[i][r] = size - 1 - r;
            break;
        case 2: {
            MPI_Group g;
            int ranks[CU_MAX_RANKS];
            for (int r = 0; r < size; ++r)
                ranks[r] = members[i][r] = (r + i) % size;
            CHECK_MPI(MPI_Group_incl(wg, size, ranks, &g));
            CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, g, &comms[i]));
            CHECK_MPI(MPI_Group_free(&g));
            break;
        }
        default:
            CHECK_MPI(MPI_Comm_dup(comms[i - 1], &comms[i]));
            memcpy(members[i], members[i - 1], sizeof members[i]);
            break;
        }
        check_size_rank(comms[i], members[i], size, i);
    }
    CHECK_MPI(MPI_Group_free(&wg));

    /* one message per communicator to the next rank (as that communicator numbers it), same tag
     * everywhere; received in reverse order */
    MPI_Request *reqs = (MPI_Request *)tu_malloc(sizeof(MPI_Request) * (size_t)alive);
    int *out = (int *)tu_malloc(sizeof(int) * 2 * (size_t)alive);
    for (int i = 0; i < alive; ++i) {
        int me = cu_index_of(members[i], size, tu_rank);
        out[2 * i] = i;
        out[2 * i + 1] = pass;
        CHECK_MPI(MPI_Isend(&out[2 * i], 2, MPI_INT, (me + 1) % size, 7, comms[i], &reqs[i]));
    }
    for (int i = alive - 1; i >= 0; --i) {
        int me = cu_index_of(members[i], size, tu_rank), in[2] = {-1, -1};
        MPI_Status st;
        CHECK_MPI(MPI_Recv(in, 2, MPI_INT, MPI_ANY_SOURCE, 7, comms[i], &st));
        CHECK(in[0] == i && in[1] == pass && st.MPI_SOURCE == (me - 1 + size) % size,
              "pass %d: communicator %d of %d received the message of communicator %d (pass %d) "
              "from rank %d; expected its own from rank %d",
              pass, i, alive, in[0], in[1], st.MPI_SOURCE, (me - 1 + size) % size);
    }
    CHECK_MPI(MPI_Waitall(alive, reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < alive; i += 100)
        CU_TRAFFIC(comms[i], members[i], size, members[i], size, 8, i, i % 200 ? 40 : 100000,
                   "one of many live communicators");
    /* freed scattered: every third, then the rest from the end */
    for (int i = 0; i < alive; i += 3)
        CU_FREE(comms[i]);
    for (int i = alive - 1; i >= 0; --i)
        if (comms[i] != MPI_COMM_NULL)
            CU_FREE(comms[i]);
    free(out);
    free(reqs);
    free(members);
    free(comms);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(1, CU_MAX_RANKS);
    long count = (long)tu_option_size(argc, argv, "--count", 10000);
    int alive = (int)tu_option_size(argc, argv, "--alive", 2000);
    for (int i = 0; i < tu_size; ++i)
        world_list[i] = i;
    double t0 = MPI_Wtime();
    churn(count);
    double t1 = MPI_Wtime();
    many_alive(alive, 1);
    many_alive(alive, 2);
    double t2 = MPI_Wtime();
    return tu_finish("%ld communicators created and freed in a loop (%.1f s), %d alive at once twice (%.1f s), "
                     "traffic on samples", count, t1 - t0, alive, t2 - t1);
}
