/* Every misuse of the one-sided calls the MPI layer catches, under MPI_ERRORS_RETURN on the
 * window and on MPI_COMM_WORLD: its class and a message naming the argument (tests/mpi/osc.mk).
 * One process, windows served by the osc_good test component. */
#include "win_util.h"

static int buf[16];
static int origin[16];

static void create_errors(void)
{
    MPI_Win win;
    CHECK_ERROR(MPI_Win_create(buf, -1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_SIZE, "size -1");
    CHECK_ERROR(MPI_Win_create(buf, sizeof buf, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_DISP,
                "disp_unit 0");
    CHECK_ERROR(MPI_Win_create(buf, sizeof buf, -4, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_DISP,
                "disp_unit -4");
    CHECK_ERROR(MPI_Win_create(NULL, 8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_BASE, "base");
    CHECK_ERROR(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_NULL, &win), MPI_ERR_COMM,
                "MPI_COMM_NULL");
    CHECK_ERROR(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "win");
}

static void never_called(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
    tu_fail(__FILE__, __LINE__, "never_called", "a user operation reached the window");
}

static void null_window_errors(void)
{
    MPI_Win null = MPI_WIN_NULL;
    MPI_Group g;
    int flag;
    void *v;
    CHECK_ERROR(MPI_Put(origin, 1, MPI_INT, 0, 0, 1, MPI_INT, null), MPI_ERR_WIN, "MPI_WIN_NULL");
    CHECK_ERROR(MPI_Win_fence(0, null), MPI_ERR_WIN, "MPI_Win_fence: invalid window");
    CHECK_ERROR(MPI_Win_get_group(null, &g), MPI_ERR_WIN, "MPI_WIN_NULL");
    CHECK_ERROR(MPI_Win_set_name(null, "x"), MPI_ERR_WIN, "MPI_WIN_NULL");
    CHECK_ERROR(MPI_Win_get_attr(null, MPI_WIN_BASE, &v, &flag), MPI_ERR_WIN, "MPI_WIN_NULL");
    CHECK_ERROR(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, null), MPI_ERR_WIN, "MPI_WIN_NULL");
    CHECK_ERROR(MPI_Win_free(&null), MPI_ERR_WIN, "MPI_WIN_NULL");

    /* Freeing twice: the second call gets a handle that is no window any more. */
    MPI_Win win, copy;
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    copy = win;
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_ERROR(MPI_Win_free(&copy), MPI_ERR_WIN, "not a window");
    CHECK_ERROR(MPI_Win_fence(0, copy), MPI_ERR_WIN, "freed already");
}

static void communication_errors(MPI_Win win)
{
    MPI_Datatype two_ints, resized, pair_a, pair_b;
    MPI_Type_contiguous(2, MPI_INT, &two_ints);
    MPI_Type_commit(&two_ints);
    int bl[2] = {1, 1};
    MPI_Aint da[2] = {0, 8};
    MPI_Datatype ta[2] = {MPI_INT, MPI_FLOAT}, tb[2] = {MPI_FLOAT, MPI_INT};
    MPI_Type_create_struct(2, bl, da, ta, &pair_a);
    MPI_Type_create_struct(2, bl, da, tb, &pair_b);
    MPI_Type_commit(&pair_a);
    MPI_Type_commit(&pair_b);
    MPI_Type_create_resized(MPI_INT, 0, 8, &resized); /* not committed */

    CHECK_ERROR(MPI_Put(origin, 1, MPI_INT, 1, 0, 1, MPI_INT, win), MPI_ERR_RANK, "target_rank 1");
    CHECK_ERROR(MPI_Get(origin, 1, MPI_INT, -5, 0, 1, MPI_INT, win), MPI_ERR_RANK, "target_rank -5");
    CHECK_ERROR(MPI_Put(origin, 1, MPI_INT, MPI_ANY_SOURCE, 0, 1, MPI_INT, win), MPI_ERR_RANK, "target_rank");
    CHECK_ERROR(MPI_Put(origin, -1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_COUNT, "origin_count -1");
    CHECK_ERROR(MPI_Get(origin, 1, MPI_INT, 0, 0, -2, MPI_INT, win), MPI_ERR_COUNT, "target_count -2");
    CHECK_ERROR(MPI_Put(origin, 1, MPI_DATATYPE_NULL, 0, 0, 1, MPI_INT, win), MPI_ERR_TYPE,
                "origin_datatype: MPI_DATATYPE_NULL");
    CHECK_ERROR(MPI_Put(origin, 1, MPI_INT, 0, 0, 1, resized, win), MPI_ERR_TYPE, "not committed");
    CHECK_ERROR(MPI_Put(origin, 1, MPI_INT, 0, -1, 1, MPI_INT, win), MPI_ERR_DISP, "target_disp -1");
    CHECK_ERROR(MPI_Put(NULL, 1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_BUFFER, "origin_addr is NULL");
    /* Signatures: sizes differ; same size but other basic types; structs in another order. */
    CHECK_ERROR(MPI_Put(origin, 2, MPI_INT, 0, 0, 1, MPI_DOUBLE, win), MPI_ERR_TYPE, "same type signature");
    CHECK_ERROR(MPI_Get(origin, 2, MPI_INT, 0, 0, 2, MPI_FLOAT, win), MPI_ERR_TYPE, "differ at element 0");
    CHECK_ERROR(MPI_Put(origin, 3, MPI_INT, 0, 0, 3, pair_a, win), MPI_ERR_TYPE, "same type signature");
    CHECK_ERROR(MPI_Put(origin, 2, pair_a, 0, 0, 2, pair_b, win), MPI_ERR_TYPE, "differ at element 0");
    CHECK_ERROR(MPI_Put(origin, 4, MPI_INT, 0, 0, 1, pair_a, win), MPI_ERR_TYPE, "same type signature");
    /* Equal signatures pass the checks and reach the module, which moves nothing. */
    CHECK_ERROR(MPI_Put(origin, 4, MPI_INT, 0, 0, 2, two_ints, win), MPI_ERR_UNSUPPORTED_OPERATION, "put");
    CHECK_ERROR(MPI_Put(origin, 2, pair_a, 0, 0, 2, pair_a, win), MPI_ERR_UNSUPPORTED_OPERATION, "put");

    MPI_Op user;
    MPI_Op_create(never_called, 1, &user);
    CHECK_ERROR(MPI_Accumulate(origin, 1, MPI_INT, 0, 0, 1, MPI_INT, user, win), MPI_ERR_OP, "user operation");
    CHECK_ERROR(MPI_Accumulate(origin, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_OP_NULL, win), MPI_ERR_OP, "MPI_OP_NULL");
    CHECK_ERROR(MPI_Accumulate(origin, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, MPI_BAND, win), MPI_ERR_OP, "MPI_BAND");
    CHECK_ERROR(MPI_Accumulate(origin, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_MAXLOC, win), MPI_ERR_OP, "MPI_MAXLOC");
    CHECK_ERROR(MPI_Accumulate(origin, 4, MPI_INT, 0, 0, 2, two_ints, MPI_SUM, win), MPI_ERR_UNSUPPORTED_OPERATION,
                "accumulate");
    CHECK_ERROR(MPI_Accumulate(origin, 2, pair_a, 0, 0, 2, pair_a, MPI_REPLACE, win),
                MPI_ERR_UNSUPPORTED_OPERATION, "accumulate");
    MPI_Op_free(&user);
    MPI_Type_free(&two_ints);
    MPI_Type_free(&pair_a);
    MPI_Type_free(&pair_b);
    MPI_Type_free(&resized);
}

static void synchronisation_errors(MPI_Win win)
{
    MPI_Group g;
    CHECK_ERROR(MPI_Win_lock(7, 0, 0, win), MPI_ERR_LOCKTYPE, "lock_type 7");
    CHECK_ERROR(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 3, 0, win), MPI_ERR_RANK, "rank 3");
    CHECK_ERROR(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, MPI_MODE_NOPUT, win), MPI_ERR_ASSERT, "MPI_MODE_NOPUT");
    CHECK_ERROR(MPI_Win_unlock(MPI_PROC_NULL, win), MPI_ERR_RANK, "rank -2");
    CHECK_ERROR(MPI_Win_fence(MPI_MODE_NOCHECK, win), MPI_ERR_ASSERT, "MPI_MODE_NOCHECK");
    CHECK_ERROR(MPI_Win_fence(1 << 10, win), MPI_ERR_ASSERT, "unknown bits 1024");
    MPI_Win_get_group(win, &g);
    CHECK_ERROR(MPI_Win_post(g, MPI_MODE_NOPRECEDE, win), MPI_ERR_ASSERT, "MPI_MODE_NOPRECEDE");
    CHECK_ERROR(MPI_Win_start(g, MPI_MODE_NOSTORE, win), MPI_ERR_ASSERT, "0 or MPI_MODE_NOCHECK");
    CHECK_ERROR(MPI_Win_start(MPI_GROUP_NULL, 0, win), MPI_ERR_GROUP, "MPI_GROUP_NULL");
    CHECK_ERROR(MPI_Win_test(win, NULL), MPI_ERR_ARG, "flag is NULL");
    MPI_Group_free(&g);
}

static void attribute_errors(MPI_Win win)
{
    int comm_key, win_key, flag;
    void *v;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &comm_key, NULL));
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &win_key, NULL));
    CHECK_ERROR(MPI_Win_set_attr(win, comm_key, NULL), MPI_ERR_KEYVAL, "communicator key");
    CHECK_ERROR(MPI_Comm_set_attr(MPI_COMM_WORLD, win_key, NULL), MPI_ERR_KEYVAL, "invalid keyval");
    CHECK_ERROR(MPI_Win_set_attr(win, MPI_WIN_BASE, NULL), MPI_ERR_KEYVAL, "predefined");
    CHECK_ERROR(MPI_Win_delete_attr(win, MPI_WIN_SIZE), MPI_ERR_KEYVAL, "predefined");
    CHECK_ERROR(MPI_Win_get_attr(win, MPI_TAG_UB, &v, &flag), MPI_ERR_KEYVAL, "predefined communicator key");
    CHECK_ERROR(MPI_Win_get_attr(win, MPI_KEYVAL_INVALID, &v, &flag), MPI_ERR_KEYVAL, "MPI_KEYVAL_INVALID");
    CHECK_ERROR(MPI_Win_delete_attr(win, win_key), MPI_ERR_KEYVAL, "has no attribute");
    int freed = win_key;
    CHECK_MPI(MPI_Win_free_keyval(&freed));
    CHECK_ERROR(MPI_Win_free_keyval(&win_key), MPI_ERR_KEYVAL, "invalid keyval");
    CHECK_ERROR(MPI_Win_set_attr(win, win_key, NULL), MPI_ERR_KEYVAL, "invalid keyval");
    CHECK_MPI(MPI_Comm_free_keyval(&comm_key));
    CHECK_ERROR(MPI_Win_set_name(win, NULL), MPI_ERR_ARG, "win_name is NULL");
    CHECK_ERROR(MPI_Win_call_errhandler(win, 1 << 20), MPI_ERR_ARG, "invalid error code");
    CHECK_ERROR(MPI_Win_set_errhandler(win, MPI_ERRHANDLER_NULL), MPI_ERR_ARG, "MPI_ERRHANDLER_NULL");
}

int main(int argc, char **argv)
{
    wu_use_osc_good("good");
    tu_init(&argc, &argv);
    wu_open_osc();
    wu_cleanup();
    tu_require_ranks(1, 1);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    create_errors();
    null_window_errors();
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    communication_errors(win);
    synchronisation_errors(win);
    attribute_errors(win);
    CHECK_MPI(MPI_Win_free(&win));
    return tu_finish("every misuse of the window calls: its class and a message naming the argument");
}
