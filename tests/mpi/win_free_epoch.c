/* MPI_Win_free inside an epoch (MPI-2.2 11.2.1: erroneous) fails with MPI_ERR_RMA_SYNC under
 * MPI_ERRORS_RETURN and leaves the window as it was: the handle unchanged, its attribute not
 * deleted, the epoch still open and usable (a put in it lands), and a later MPI_Win_free after
 * the epoch ends succeeds and runs the delete callback once. Each epoch kind in turn: a lock
 * epoch (every rank on its right neighbour, shared), an access epoch of MPI_Win_start and an
 * exposure epoch of MPI_Win_post (a ring). --static: the window over malloc memory (osc_rdma),
 * else over MPI_Alloc_mem memory (osc_sm where it runs). 2-8 ranks. */
#include <string.h>

#include "test_util.h"

static int deletes;

static int count_delete(MPI_Win win, int key, void *value, void *extra)
{
    (void)win, (void)key, (void)value, (void)extra;
    ++deletes;
    return MPI_SUCCESS;
}

enum { LOCK, START, POST };
static const char *const kind_name[] = {"a lock epoch", "an access epoch (start)", "an exposure epoch (post)"};

/* One window: Win_free refused inside an epoch of the kind, then the epoch completed. */
static void refused_inside(int kind, int use_static, int rank, int size)
{
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *mem = NULL;
    if (use_static)
        mem = tu_malloc(sizeof(int) * 2);
    else
        CHECK_MPI(MPI_Alloc_mem((MPI_Aint)(sizeof(int) * 2), MPI_INFO_NULL, &mem));
    mem[0] = mem[1] = -1;
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)(sizeof(int) * 2), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    int key = MPI_KEYVAL_INVALID;
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &key, NULL));
    CHECK_MPI(MPI_Win_set_attr(win, key, &deletes));
    deletes = 0;
    MPI_Group world, g_right, g_left;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_MPI(MPI_Group_incl(world, 1, &right, &g_right));
    CHECK_MPI(MPI_Group_incl(world, 1, &left, &g_left));
    tu_barrier();

    /* the epoch this process is in when it calls MPI_Win_free */
    if (kind == LOCK) CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    if (kind == START) {
        CHECK_MPI(MPI_Win_post(g_left, 0, win));
        CHECK_MPI(MPI_Win_start(g_right, 0, win));
    }
    if (kind == POST) CHECK_MPI(MPI_Win_post(g_left, 0, win));

    MPI_Win kept = win;
    CHECK_CLASS(MPI_Win_free(&win), MPI_ERR_RMA_SYNC);
    CHECK(win == kept, "MPI_Win_free inside %s changed the handle", kind_name[kind]);
    CHECK(deletes == 0, "MPI_Win_free inside %s deleted the attribute (%d calls)", kind_name[kind], deletes);
    void *value = NULL;
    int found = 0;
    CHECK_MPI(MPI_Win_get_attr(win, key, &value, &found));
    CHECK(found && value == &deletes, "the attribute is gone after the refused MPI_Win_free inside %s",
          kind_name[kind]);

    /* the epoch goes on: a put to the right neighbour lands */
    const int stamp = 1000 * kind + rank;
    if (kind == LOCK) {
        CHECK_MPI(MPI_Put(&stamp, 1, MPI_INT, right, 1, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_unlock(right, win));
    }
    if (kind == START) {
        CHECK_MPI(MPI_Put(&stamp, 1, MPI_INT, right, 1, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
        CHECK_MPI(MPI_Win_wait(win));
    }
    if (kind == POST) {
        /* the access side of the ring after the refused free: the epoch was kept open */
        CHECK_MPI(MPI_Win_start(g_right, 0, win));
        CHECK_MPI(MPI_Put(&stamp, 1, MPI_INT, right, 1, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
        CHECK_MPI(MPI_Win_wait(win));
    }
    tu_barrier();
    int got = -2;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    CHECK_MPI(MPI_Get(&got, 1, MPI_INT, rank, 1, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK(got == 1000 * kind + left, "after %s: rank %d's put is not in the window (%d)", kind_name[kind], left, got);
    tu_barrier();

    CHECK_MPI(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL, "MPI_Win_free after the epoch left the handle");
    CHECK_EQ(deletes, 1);
    CHECK_MPI(MPI_Win_free_keyval(&key));
    CHECK_MPI(MPI_Group_free(&g_right));
    CHECK_MPI(MPI_Group_free(&g_left));
    CHECK_MPI(MPI_Group_free(&world));
    if (use_static)
        free(mem);
    else
        CHECK_MPI(MPI_Free_mem(mem));
}

int main(int argc, char **argv)
{
    int rank, size;
    tu_init(&argc, &argv);
    tu_require_ranks(2, 8);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int use_static = argc > 1 && strcmp(argv[1], "--static") == 0;
    for (int kind = LOCK; kind <= POST; ++kind) refused_inside(kind, use_static, rank, size);
    return tu_finish("MPI_Win_free refused inside a lock, an access and an exposure epoch (%s memory); the window "
                     "stayed usable and was freed after",
                     use_static ? "malloc" : "MPI_Alloc_mem");
}
