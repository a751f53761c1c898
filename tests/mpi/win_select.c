/* Per-window selection with the osc_good test component alone (tests/mpi/osc.mk): it serves
 * windows of one process and declines larger groups, so at 2 or more ranks a window over
 * MPI_COMM_WORLD or a pair from MPI_Comm_split cannot be made, on every process alike, with a
 * message naming the component and why, while windows over MPI_COMM_SELF and single-process
 * splits work next to them. The case also checks the osc_base_verbose trace.
 * --fallback: osc_good ranked above osc_rdma (priority 50): it declines the window over
 * MPI_COMM_WORLD everywhere and osc_rdma, the next, serves it (a fence epoch of puts around the
 * ring checks that it moves data); the case checks both decisions in the trace. */
#include "win_util.h"

static int buf[8];

static void expect_declined(MPI_Comm comm, int size)
{
    MPI_Win win = MPI_WIN_NULL;
    char needle[64];
    snprintf(needle, sizeof needle, "no osc component serves this window of %d processes", size);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    CHECK_ERROR(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, comm, &win), MPI_ERR_UNSUPPORTED_OPERATION, needle);
    CHECK_ERROR(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, comm, &win), MPI_ERR_UNSUPPORTED_OPERATION,
                "tried: good (priority 20) declined");
    CHECK(win == MPI_WIN_NULL, "a failed MPI_Win_create set the handle");
}

static MPI_Win expect_served(MPI_Comm comm)
{
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, comm, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    return win;
}

/* The window over MPI_COMM_WORLD falls back to the next component, which moves data. */
static int fallback(void)
{
    int next = (tu_rank + 1) % tu_size, prev = (tu_rank + tu_size - 1) % tu_size, value = 100 + tu_rank;
    MPI_Win win;
    buf[0] = -1;
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(&value, 1, MPI_INT, next, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(buf[0] == 100 + prev, "got %d from rank %d, expected %d", buf[0], prev, 100 + prev);
    CHECK_MPI(MPI_Win_free(&win));
    return tu_finish("osc_good (priority 50) declined the window over MPI_COMM_WORLD everywhere; the next "
                     "component served it and moved a put around the ring");
}

int main(int argc, char **argv)
{
    const int fall_back = argc > 1 && strcmp(argv[1], "--fallback") == 0;
    if (fall_back) {
        setenv("PLEXUS_MCA_osc_good_query_priority", "50", 1);
        wu_use_osc_good("good,rdma");
    } else {
        wu_use_osc_good("good");
    }
    tu_init(&argc, &argv);
    wu_open_osc();
    wu_cleanup();
    tu_require_ranks(2, 0);
    if (fall_back) return fallback();
    expect_declined(MPI_COMM_WORLD, tu_size);

    /* A window of this process alone works at the same time, and knows only itself. */
    MPI_Win self = expect_served(MPI_COMM_SELF);
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    CHECK_ERROR(MPI_Win_start(world, 0, self), MPI_ERR_GROUP, "is not a process of");
    CHECK_ERROR(MPI_Put(buf, 1, MPI_INT, 1, 0, 1, MPI_INT, self), MPI_ERR_RANK, "has 1 processes");
    MPI_Group_free(&world);

    /* Pairs decline, singletons are served; the user's communicators may go at once. */
    MPI_Comm pair, single;
    MPI_Comm_split(MPI_COMM_WORLD, tu_rank / 2, tu_rank, &pair);
    MPI_Comm_split(MPI_COMM_WORLD, tu_rank, 0, &single);
    int pair_size;
    MPI_Comm_size(pair, &pair_size);
    if (pair_size > 1) expect_declined(pair, pair_size);
    MPI_Win alone = expect_served(single);
    MPI_Comm_free(&single);
    MPI_Comm_free(&pair);
    int *unit = NULL, flag = 0;
    CHECK_MPI(MPI_Win_get_attr(alone, MPI_WIN_DISP_UNIT, &unit, &flag));
    CHECK(flag && *unit == 1, "disp_unit of a window whose communicator was freed");
    CHECK_MPI(MPI_Win_free(&alone));
    CHECK_MPI(MPI_Win_free(&self));
    return tu_finish("windows over MPI_COMM_WORLD and pairs declined by osc_good on every process with the reason; "
                     "MPI_COMM_SELF and single-process splits served");
}
