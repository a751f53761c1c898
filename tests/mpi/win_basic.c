/* One-process windows served by the osc_good test component (tests/mpi/osc.mk): creation over
 * static and MPI_Alloc_mem memory and of size 0, the predefined attributes, the group, names,
 * keyvals with their callbacks, error handlers (default, user, call, kinds kept apart), the
 * Fortran numbers, MPI_PROC_NULL targets, and what a module without communication answers. */
#include "win_util.h"

static int deletes;          /* delete callback calls */
static void *deleted_value;  /* the value the last one got */
static int delete_fails;     /* the callback returns MPI_ERR_OTHER while set */

static int count_delete(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)win, (void)keyval;
    CHECK(extra == &deletes, "extra_state %p, expected %p", extra, (void *)&deletes);
    ++deletes;
    deleted_value = value;
    return delete_fails ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int handler_calls;
static MPI_Win handler_win;
static int handler_code;
static void on_error(MPI_Win *win, int *code, ...)
{
    ++handler_calls;
    handler_win = *win;
    handler_code = *code;
}

static void comm_handler(MPI_Comm *comm, int *code, ...) { (void)comm, (void)code; }

static MPI_Win make_window(void *base, MPI_Aint size, int unit)
{
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(base, size, unit, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK(win != MPI_WIN_NULL, "MPI_Win_create gave MPI_WIN_NULL");
    return win;
}

static void check_attributes(MPI_Win win, void *base, MPI_Aint size, int unit)
{
    void *got_base = NULL;
    MPI_Aint *got_size = NULL;
    int *got_unit = NULL, flag = 0;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &got_base, &flag));
    CHECK(flag && got_base == base, "MPI_WIN_BASE: flag %d, %p, expected %p", flag, got_base, base);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &got_size, &flag));
    CHECK(flag && *got_size == size, "MPI_WIN_SIZE: flag %d, %td, expected %td", flag, *got_size, size);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &got_unit, &flag));
    CHECK(flag && *got_unit == unit, "MPI_WIN_DISP_UNIT: flag %d, %d, expected %d", flag, *got_unit, unit);
}

static void test_creation(void)
{
    static int buf[64];
    MPI_Win win = make_window(buf, sizeof buf, sizeof(int));
    check_attributes(win, buf, sizeof buf, sizeof(int));
    MPI_Group wg, cg;
    int cmp = -1;
    CHECK_MPI(MPI_Win_get_group(win, &wg));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &cg));
    CHECK_MPI(MPI_Group_compare(wg, cg, &cmp));
    CHECK_EQ(cmp, MPI_IDENT);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL, "MPI_Win_free left the handle set");

    win = make_window(NULL, 0, 1); /* size 0: base may be anything */
    check_attributes(win, NULL, 0, 1);
    CHECK_MPI(MPI_Win_free(&win));

    double *mem = NULL;
    CHECK_MPI(MPI_Alloc_mem(100 * sizeof(double), MPI_INFO_NULL, &mem));
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    CHECK_MPI(MPI_Win_create(mem, 100 * sizeof(double), sizeof(double), info, MPI_COMM_SELF, &win));
    MPI_Info_free(&info);
    check_attributes(win, mem, 100 * sizeof(double), sizeof(double));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Free_mem(mem));
}

static void test_names(void)
{
    static char buf[8];
    MPI_Win win = make_window(buf, sizeof buf, 1);
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
    CHECK(len == 0 && name[0] == '\0', "a new window is named '%s' (%d)", name, len);
    CHECK_MPI(MPI_Win_set_name(win, "halo window"));
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
    CHECK(len == 11 && strcmp(name, "halo window") == 0, "name '%s' (%d)", name, len);
    char longname[200];
    memset(longname, 'w', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CHECK_MPI(MPI_Win_set_name(win, longname));
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
    CHECK_EQ(len, MPI_MAX_OBJECT_NAME - 1);
    CHECK_EQ(strlen(name), MPI_MAX_OBJECT_NAME - 1);
    CHECK_MPI(MPI_Win_free(&win));
}

static void test_keyvals(void)
{
    static char buf[8];
    MPI_Win win = make_window(buf, sizeof buf, 1);
    int key = MPI_KEYVAL_INVALID, plain = MPI_KEYVAL_INVALID, flag = -1;
    void *value = NULL;
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &key, &deletes));
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, &plain, NULL));
    CHECK(key != plain && key > MPI_WIN_DISP_UNIT && plain > MPI_WIN_DISP_UNIT, "keys %d, %d", key, plain);
    CHECK_MPI(MPI_Win_get_attr(win, key, &value, &flag));
    CHECK_EQ(flag, 0);

    CHECK_MPI(MPI_Win_set_attr(win, key, (void *)0x11));
    CHECK_MPI(MPI_Win_set_attr(win, plain, (void *)0x22));
    CHECK_MPI(MPI_Win_get_attr(win, key, &value, &flag));
    CHECK(flag && value == (void *)0x11, "got %p (flag %d)", value, flag);
    CHECK_EQ(deletes, 0);
    CHECK_MPI(MPI_Win_set_attr(win, key, (void *)0x12)); /* replacing deletes the old value */
    CHECK(deletes == 1 && deleted_value == (void *)0x11, "%d deletes, last %p", deletes, deleted_value);
    CHECK_MPI(MPI_Win_delete_attr(win, key));
    CHECK(deletes == 2 && deleted_value == (void *)0x12, "%d deletes, last %p", deletes, deleted_value);
    CHECK_MPI(MPI_Win_get_attr(win, key, &value, &flag));
    CHECK_EQ(flag, 0);

    /* A failing delete callback: its code comes back and the value stays. */
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK_MPI(MPI_Win_set_attr(win, key, (void *)0x13));
    delete_fails = 1;
    CHECK_CLASS(MPI_Win_delete_attr(win, key), MPI_ERR_OTHER);
    delete_fails = 0;
    CHECK_MPI(MPI_Win_get_attr(win, key, &value, &flag));
    CHECK(flag && value == (void *)0x13, "got %p (flag %d)", value, flag);

    /* The key may be freed before its attribute: the callback still runs at MPI_Win_free. */
    int freed = key;
    CHECK_MPI(MPI_Win_free_keyval(&freed));
    CHECK_EQ(freed, MPI_KEYVAL_INVALID);
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(deletes == 4 && deleted_value == (void *)0x13, "%d deletes after MPI_Win_free, last %p", deletes,
          deleted_value);
    CHECK_MPI(MPI_Win_free_keyval(&plain));

    /* The predefined callbacks as functions. */
    void *out = NULL;
    int copied = -1;
    CHECK_MPI(MPI_WIN_DUP_FN(MPI_WIN_NULL, 0, NULL, (void *)0x5, &out, &copied));
    CHECK(copied == 1 && out == (void *)0x5, "MPI_WIN_DUP_FN: flag %d, %p", copied, out);
    CHECK_MPI(MPI_WIN_NULL_COPY_FN(MPI_WIN_NULL, 0, NULL, (void *)0x5, &out, &copied));
    CHECK_EQ(copied, 0);
}

static void test_errhandlers(void)
{
    static int buf[4];
    MPI_Win win = make_window(buf, sizeof buf, sizeof(int));
    MPI_Errhandler e = MPI_ERRHANDLER_NULL;
    CHECK_MPI(MPI_Win_get_errhandler(win, &e));
    CHECK(e == MPI_ERRORS_ARE_FATAL, "a new window's handler is not MPI_ERRORS_ARE_FATAL");
    CHECK_MPI(MPI_Errhandler_free(&e));

    MPI_Errhandler mine;
    CHECK_MPI(MPI_Win_create_errhandler(on_error, &mine));
    CHECK_MPI(MPI_Win_set_errhandler(win, mine));
    CHECK_MPI(MPI_Errhandler_free(&mine)); /* the window keeps it */
    int rc = MPI_Put(buf, 1, MPI_INT, 5, 0, 1, MPI_INT, win);
    CHECK(handler_calls == 1 && handler_win == win && handler_code == rc, "handler: %d calls, code %d of %d",
          handler_calls, handler_code, rc);
    CHECK_EQ(tu_error_class(rc), MPI_ERR_RANK);
    CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_RMA_SYNC));
    CHECK(handler_calls == 2 && handler_code == MPI_ERR_RMA_SYNC, "call_errhandler: %d calls, code %d",
          handler_calls, handler_code);

    /* A communicator's handler does not go on a window. */
    MPI_Errhandler for_comm;
    CHECK_MPI(MPI_Comm_create_errhandler(comm_handler, &for_comm));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_ERROR(MPI_Win_set_errhandler(win, for_comm), MPI_ERR_ARG, "MPI_Comm_create_errhandler");
    CHECK_MPI(MPI_Errhandler_free(&for_comm));
    CHECK_EQ(handler_calls, 2);
    /* Nor a window's on a communicator. */
    MPI_Errhandler for_win;
    CHECK_MPI(MPI_Win_create_errhandler(on_error, &for_win));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_ERROR(MPI_Comm_set_errhandler(MPI_COMM_WORLD, for_win), MPI_ERR_ARG, "MPI_Win_create_errhandler");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Errhandler_free(&for_win));

    /* With MPI_ERRORS_RETURN nothing is called: the code comes back. */
    CHECK_CLASS(MPI_Win_lock(99, 0, 0, win), MPI_ERR_LOCKTYPE);
    CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    CHECK_EQ(handler_calls, 2);
    CHECK_MPI(MPI_Win_free(&win));
}

static void test_fortran(void)
{
    static int buf[4];
    MPI_Win a = make_window(buf, sizeof buf, 1), b = make_window(buf, sizeof buf, 1);
    MPI_Fint fa = MPI_Win_c2f(a), fb = MPI_Win_c2f(b);
    CHECK(fa != 0 && fb != 0 && fa != fb, "Fortran numbers %d, %d", (int)fa, (int)fb);
    CHECK(MPI_Win_f2c(fa) == a && MPI_Win_f2c(fb) == b, "f2c does not give the windows back");
    CHECK(MPI_Win_f2c(0) == MPI_WIN_NULL && MPI_Win_c2f(MPI_WIN_NULL) == 0, "MPI_WIN_NULL <-> 0");
    CHECK_MPI(MPI_Win_free(&a));
    CHECK(MPI_Win_f2c(fa) == MPI_WIN_NULL, "f2c of a freed window's number is not MPI_WIN_NULL");
    CHECK_MPI(MPI_Win_free(&b));
}

/* osc_good moves no data: every call that reaches it is MPI_ERR_UNSUPPORTED_OPERATION with a
 * message naming it; MPI_PROC_NULL targets never reach it. */
static void test_module_calls(void)
{
    static int buf[16];
    int origin[4] = {1, 2, 3, 4}, flag = 0;
    MPI_Win win = make_window(buf, sizeof buf, sizeof(int));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Put(origin, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, win));
    CHECK_MPI(MPI_Get(origin, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, win));
    CHECK_MPI(MPI_Accumulate(origin, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, MPI_SUM, win));
    CHECK(origin[0] == 1 && origin[3] == 4 && buf[0] == 0, "MPI_PROC_NULL touched memory");
    CHECK_ERROR(MPI_Put(origin, 4, MPI_INT, 0, 0, 4, MPI_INT, win), MPI_ERR_UNSUPPORTED_OPERATION,
                "osc component good");
    CHECK_ERROR(MPI_Get(origin, 4, MPI_INT, 0, 0, 4, MPI_INT, win), MPI_ERR_UNSUPPORTED_OPERATION,
                "does not implement get");
    CHECK_ERROR(MPI_Accumulate(origin, 4, MPI_INT, 0, 0, 4, MPI_INT, MPI_REPLACE, win),
                MPI_ERR_UNSUPPORTED_OPERATION, "does not implement accumulate");
    CHECK_ERROR(MPI_Win_fence(MPI_MODE_NOPRECEDE, win), MPI_ERR_UNSUPPORTED_OPERATION, "fence");
    MPI_Group g;
    MPI_Win_get_group(win, &g);
    CHECK_ERROR(MPI_Win_post(g, MPI_MODE_NOPUT, win), MPI_ERR_UNSUPPORTED_OPERATION, "post");
    CHECK_ERROR(MPI_Win_start(g, 0, win), MPI_ERR_UNSUPPORTED_OPERATION, "start");
    MPI_Group_free(&g);
    CHECK_ERROR(MPI_Win_complete(win), MPI_ERR_UNSUPPORTED_OPERATION, "complete");
    CHECK_ERROR(MPI_Win_wait(win), MPI_ERR_UNSUPPORTED_OPERATION, "wait");
    CHECK_ERROR(MPI_Win_test(win, &flag), MPI_ERR_UNSUPPORTED_OPERATION, "test");
    CHECK_ERROR(MPI_Win_lock(MPI_LOCK_SHARED, 0, MPI_MODE_NOCHECK, win), MPI_ERR_UNSUPPORTED_OPERATION, "lock");
    CHECK_ERROR(MPI_Win_unlock(0, win), MPI_ERR_UNSUPPORTED_OPERATION, "unlock");
    CHECK_MPI(MPI_Win_free(&win));
}

/* --fatal: a misuse on a window with the default handler ends the job (MPI_ERRORS_ARE_FATAL). */
static void fatal_misuse(void)
{
    static int w[4];
    MPI_Win win = make_window(w, sizeof w, sizeof(int));
    CHECK_MPI(MPI_Win_set_name(win, "fatal window"));
    MPI_Put(w, 1, MPI_INT, 3, 0, 1, MPI_INT, win);
    tu_fail(__FILE__, __LINE__, "MPI_Put", "returned under MPI_ERRORS_ARE_FATAL");
}

int main(int argc, char **argv)
{
    wu_use_osc_good("good");
    tu_init(&argc, &argv);
    wu_open_osc();
    wu_cleanup();
    tu_require_ranks(1, 1);
    if (argc > 1 && strcmp(argv[1], "--fatal") == 0) fatal_misuse();
    test_creation();
    test_names();
    test_keyvals();
    test_errhandlers();
    test_fortran();
    test_module_calls();
    return tu_finish("windows over static, MPI_Alloc_mem and no memory; attributes, group, names, keyvals and "
                     "callbacks, error handlers, Fortran numbers, MPI_PROC_NULL, unsupported module calls");
}
