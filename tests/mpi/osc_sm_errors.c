/* osc_sm's own error reports (components/osc_sm/README.md), under MPI_ERRORS_RETURN on the
 * window: MPI_ERR_RMA_SYNC for an operation outside any epoch and for each synchronisation call
 * in the wrong state, MPI_ERR_DISP for put, get and accumulate outside the target's window with a
 * message giving the range, nothing moved by a refused call, and the window usable afterwards.
 * Plexus only (it reads the messages); 2-8 ranks. */
#include "test_util.h"

#define SLOTS 8

/* The call failed with class want and its message holds every needle given. */
static void expect(int rc, int want, const char *what, const char *needle1, const char *needle2)
{
    char text[MPI_MAX_ERROR_STRING];
    const int cls = tu_error_class(rc);
    CHECK(rc != MPI_SUCCESS && cls == want, "%s: class %d (%s), expected %d", what, cls, tu_error_text(rc, text), want);
    tu_error_text(rc, text);
    CHECK(!needle1 || strstr(text, needle1), "%s: message '%s' lacks '%s'", what, text, needle1);
    CHECK(!needle2 || strstr(text, needle2), "%s: message '%s' lacks '%s'", what, text, needle2);
}

int main(int argc, char **argv)
{
    int rank, size, *mem = NULL, v[SLOTS + 1], flag = 0;
    MPI_Win win;
    MPI_Group world;
    char range[128];
    tu_init(&argc, &argv);
    tu_require_ranks(2, 8);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    CHECK_MPI(MPI_Alloc_mem(SLOTS * sizeof(int), MPI_INFO_NULL, &mem));
    for (int i = 0; i < SLOTS; ++i) mem[i] = -7;
    for (int i = 0; i <= SLOTS; ++i) v[i] = 1000 + i;
    CHECK_MPI(MPI_Win_create(mem, SLOTS * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    const int peer = (rank + 1) % size;

    /* no epoch yet */
    expect(MPI_Put(v, 1, MPI_INT, peer, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC, "put before any fence",
           "outside an access epoch", NULL);
    expect(MPI_Get(v, 1, MPI_INT, peer, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC, "get before any fence", NULL, NULL);
    expect(MPI_Win_complete(win), MPI_ERR_RMA_SYNC, "complete without start", "without MPI_Win_start", NULL);
    expect(MPI_Win_wait(win), MPI_ERR_RMA_SYNC, "wait without post", "without MPI_Win_post", NULL);
    expect(MPI_Win_test(win, &flag), MPI_ERR_RMA_SYNC, "test without post", "without MPI_Win_post", NULL);
    expect(MPI_Win_unlock(peer, win), MPI_ERR_RMA_SYNC, "unlock without lock", "not locked", NULL);

    /* outside the target's window, in a fence epoch: refused, nothing written */
    CHECK_MPI(MPI_Win_fence(0, win));
    snprintf(range, sizeof range, "covers bytes [%d, %d)", (SLOTS - 1) * 4, (SLOTS + 1) * 4);
    expect(MPI_Put(v, 2, MPI_INT, peer, SLOTS - 1, 2, MPI_INT, win), MPI_ERR_DISP, "put past the end", range,
           "which has 32 bytes");
    expect(MPI_Accumulate(v, 2, MPI_INT, peer, SLOTS - 1, 2, MPI_INT, MPI_SUM, win), MPI_ERR_DISP,
           "accumulate past the end", range, NULL);
    expect(MPI_Get(v, SLOTS + 1, MPI_INT, peer, 0, SLOTS + 1, MPI_INT, win), MPI_ERR_DISP, "get past the end",
           "covers bytes [0, 36)", NULL);
    expect(MPI_Put(v, 1, MPI_INT, peer, -1, 1, MPI_INT, win), MPI_ERR_DISP, "a negative displacement", NULL, NULL);
    CHECK_EQ(v[0], 1000); /* the refused get wrote nothing */
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < SLOTS; ++i)
        if (i != 2) CHECK_EQ(mem[i], -7); /* slot 2: the next epoch's put may be in already */

    /* the window still works */
    CHECK_MPI(MPI_Put(&v[3], 1, MPI_INT, peer, 2, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK_EQ(mem[2], 1003);

    /* lock epochs */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win));
    expect(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win), MPI_ERR_RMA_SYNC, "locking a rank twice", "already locked",
           NULL);
    expect(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC, "fence inside a lock epoch", "inside a lock epoch", NULL);
    expect(MPI_Win_start(world, 0, win), MPI_ERR_RMA_SYNC, "start inside a lock epoch", "inside a lock epoch", NULL);
    CHECK_MPI(MPI_Win_unlock(peer, win));

    /* PSCW in the wrong order */
    CHECK_MPI(MPI_Win_post(world, 0, win));
    expect(MPI_Win_post(world, 0, win), MPI_ERR_RMA_SYNC, "post twice", "is open", NULL);
    CHECK_MPI(MPI_Win_start(world, 0, win));
    expect(MPI_Win_start(world, 0, win), MPI_ERR_RMA_SYNC, "start twice", "is open", NULL);
    expect(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, peer, 0, win), MPI_ERR_RMA_SYNC, "lock inside start/complete",
           "inside a start/complete epoch", NULL);
    CHECK_MPI(MPI_Put(&v[5], 1, MPI_INT, peer, 4, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_wait(win));
    CHECK_EQ(mem[4], 1005);

    tu_barrier();
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Free_mem(mem));
    MPI_Group_free(&world);
    return tu_finish("MPI_ERR_RMA_SYNC and MPI_ERR_DISP from osc_sm, nothing moved, the window usable afterwards");
}
