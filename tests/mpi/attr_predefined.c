/* The predefined attributes of MPI_COMM_WORLD, read with MPI_Comm_get_attr (which hands back a
 * pointer to an int): MPI_TAG_UB >= 32767 and a message with tag MPI_TAG_UB goes through;
 * MPI_HOST and MPI_IO are MPI_PROC_NULL, MPI_ANY_SOURCE or a rank; MPI_WTIME_IS_GLOBAL is 0 or
 * 1; MPI_UNIVERSE_SIZE, when set, is positive (under Plexus it must be set and at least the
 * job's size: plexrun always says); MPI_APPNUM, when set, is 0 (one application); MPI_LASTUSEDCODE grows with MPI_Add_error_class. They are read-only: setting,
 * deleting or freeing them is an error. The MPI-1 MPI_Attr_get reads them too. Under Plexus
 * every communicator (MPI_COMM_SELF, a duplicate) answers the same, and MPI_TAG_UB's error
 * message names the key. */
#include "attr_util.h"

/* The MPI-1 names are tested on purpose. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

static int get_int_at(const char *file, int line, MPI_Comm comm, int keyval, const char *name,
                      int *flag)
{
    int *p = NULL;
    *flag = -1;
    int rc = MPI_Comm_get_attr(comm, keyval, &p, flag);
    if (rc != MPI_SUCCESS || (*flag != 0 && *flag != 1) || (*flag && !p))
        tu_fail(file, line, name, "MPI_Comm_get_attr returned %d, flag %d, pointer %p", rc, *flag,
                (void *)p);
    return *flag ? *p : 0;
}
#define GET_INT(comm, key, flag) get_int_at(__FILE__, __LINE__, (comm), (key), #key, (flag))

static int is_rank_or(int v, int special1, int special2)
{
    return v == special1 || v == special2 || (v >= 0 && v < tu_size);
}

static void check_world(void)
{
    int flag;
    int tag_ub = GET_INT(MPI_COMM_WORLD, MPI_TAG_UB, &flag);
    CHECK(flag && tag_ub >= 32767, "MPI_TAG_UB: flag %d, value %d; expected >= 32767", flag, tag_ub);
    int host = GET_INT(MPI_COMM_WORLD, MPI_HOST, &flag);
    CHECK(flag && is_rank_or(host, MPI_PROC_NULL, MPI_PROC_NULL), "MPI_HOST: flag %d, value %d", flag, host);
    int io = GET_INT(MPI_COMM_WORLD, MPI_IO, &flag);
    CHECK(flag && is_rank_or(io, MPI_PROC_NULL, MPI_ANY_SOURCE), "MPI_IO: flag %d, value %d", flag, io);
    int wtime_global = GET_INT(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &flag);
    CHECK(!flag || wtime_global == 0 || wtime_global == 1, "MPI_WTIME_IS_GLOBAL: %d", wtime_global);
    int universe = GET_INT(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &flag);
    CHECK(!flag || universe >= 1, "MPI_UNIVERSE_SIZE %d", universe);
#ifdef PLEXUS_MPI
    /* plexrun says: the cores, or more when more ranks run (Open MPI may give fewer than the
     * job's size when oversubscribed). */
    CHECK_EQ(flag, 1);
    CHECK(universe >= tu_size, "MPI_UNIVERSE_SIZE %d < MPI_COMM_WORLD's size %d", universe, tu_size);
    CHECK_EQ(host, MPI_PROC_NULL);
    CHECK_EQ(io, MPI_ANY_SOURCE);
    CHECK_EQ(wtime_global, 0);
#endif
    int appnum = GET_INT(MPI_COMM_WORLD, MPI_APPNUM, &flag);
    CHECK(!flag || appnum == 0, "MPI_APPNUM: %d, expected 0", appnum);
#ifdef PLEXUS_MPI
    CHECK_EQ(flag, 1); /* a launched job always knows its application number */
#endif
    int last = GET_INT(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &flag);
    CHECK(flag && last >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE: flag %d, value %d < MPI_ERR_LASTCODE %d", flag,
          last, MPI_ERR_LASTCODE);

    /* The MPI-1 name reads the same. */
    int *p = NULL;
    CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag));
    CHECK(flag && p && *p == tag_ub, "MPI_Attr_get(MPI_TAG_UB) differs");

    /* The largest tag works. */
    int right = (tu_rank + 1) % tu_size, left = (tu_rank + tu_size - 1) % tu_size, got = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(&tu_rank, 1, MPI_INT, right, tag_ub, &got, 1, MPI_INT, left, tag_ub,
                           MPI_COMM_WORLD, &st));
    CHECK_EQ(got, left);
    CHECK_EQ(st.MPI_TAG, tag_ub);

    /* MPI_LASTUSEDCODE follows the classes a program adds. */
    int cls;
    CHECK_MPI(MPI_Add_error_class(&cls));
    last = GET_INT(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &flag);
    CHECK(flag && last >= cls, "MPI_LASTUSEDCODE %d < the class just added %d", last, cls);
    int code;
    CHECK_MPI(MPI_Add_error_code(cls, &code));
#ifdef PLEXUS_MPI
    /* Plexus numbers user codes above everything else: the largest code in use is the new one
     * (MPICH reports the largest class). */
    last = GET_INT(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &flag);
    CHECK_EQ(last, code);
#endif
}

static void read_only(void)
{
    int keys[] = {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM,
                  MPI_LASTUSEDCODE};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i) {
        int k = keys[i];
        EXPECT_ERROR(MPI_Comm_set_attr(MPI_COMM_WORLD, k, NULL), AU_PLEXUS_CLASS(MPI_ERR_KEYVAL));
        EXPECT_ERROR(MPI_Comm_delete_attr(MPI_COMM_WORLD, k), AU_PLEXUS_CLASS(MPI_ERR_KEYVAL));
        EXPECT_ERROR(MPI_Comm_free_keyval(&k), AU_PLEXUS_CLASS(MPI_ERR_KEYVAL));
        CHECK_EQ(k, keys[i]);
    }
    int *p;
    int flag;
    EXPECT_ERROR(MPI_Comm_get_attr(MPI_COMM_NULL, MPI_TAG_UB, &p, &flag), MPI_ERR_COMM);
#ifdef PLEXUS_MPI
    /* The message names the key and why. */
    char text[MPI_MAX_ERROR_STRING];
    int len;
    int rc = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL);
    CHECK_MPI(MPI_Error_string(rc, text, &len));
    CHECK(strstr(text, "MPI_Comm_set_attr") && strstr(text, "MPI_TAG_UB") && strstr(text, "read-only"),
          "message '%s' does not name the call, the key and why", text);
    /* A key number nobody made. */
    EXPECT_ERROR(MPI_Comm_get_attr(MPI_COMM_WORLD, 123456, &p, &flag), MPI_ERR_KEYVAL);
    EXPECT_ERROR(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL, &flag), MPI_ERR_ARG);
    EXPECT_ERROR(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &p, NULL), MPI_ERR_ARG);
#endif
}

#ifdef PLEXUS_MPI
/* Every communicator answers what MPI_COMM_WORLD does. */
static void same_on(MPI_Comm comm)
{
    int keys[] = {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM,
                  MPI_LASTUSEDCODE};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i) {
        int fw, fc;
        int w = get_int_at(__FILE__, __LINE__, MPI_COMM_WORLD, keys[i], "world", &fw);
        int c = get_int_at(__FILE__, __LINE__, comm, keys[i], "comm", &fc);
        CHECK(fw == fc && w == c, "key %d: MPI_COMM_WORLD flag %d value %d, other flag %d value %d", keys[i],
              fw, w, fc, c);
    }
}
#endif

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(1, 0);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    check_world();
    read_only();
#ifdef PLEXUS_MPI
    same_on(MPI_COMM_SELF);
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    same_on(dup);
    CHECK_MPI(MPI_Comm_free(&dup));
#endif
    return tu_finish("predefined attributes read, read-only (%d error checks)", au_checks);
}
