/* Dynamic processes end to end (tests/mpi/README.md): MPI_Comm_spawn of 1..4 children from
 * 1..2 parents with argv and errcodes checked, p2p both ways across the inter-communicator byte
 * for byte, merges high/low both ways with collectives on the result, MPI_Comm_spawn_multiple
 * of two commands with MPI_APPNUM, a nested spawn (a child spawns), a command that does not
 * exist (MPI_ERR_SPAWN, every errcode set, the parents go on), and a loop of spawn / exchange /
 * disconnect cycles with the open fds and /dev/shm entries flat.
 *
 *   dpm_spawn basic N | multiple | nested | missing | loop N        (the parents)
 *   children get "child-<mode>" and the parents' extra arguments */
#include "dpm_util.h"

static const char *g_self;

/* The children's side of every mode. */
static int child(int argc, char **argv, MPI_Comm parent)
{
    int psize = 0, size = 0, rank = 0, flag = 0, *appnum = NULL;
    MPI_Comm_remote_size(parent, &psize);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(parent, MPI_ERRORS_RETURN);
    const char *mode = argv[1];
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    CHECK_MPI(MPI_Comm_get_name(parent, name, &len));
    CHECK(strcmp(name, "MPI_COMM_PARENT") == 0, "the parent communicator is named '%s'", name);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
    CHECK(flag, "MPI_APPNUM is not set in a spawned job");
    if (strcmp(mode, "child-multiple") == 0) {
        /* command 0 is started once with "one", command 1 twice with "two" */
        CHECK_EQ(size, 3);
        CHECK_EQ(*appnum, rank == 0 ? 0 : 1);
        CHECK(argc == 3 && strcmp(argv[2], rank == 0 ? "one" : "two") == 0, "rank %d got argv[2] '%s'", rank,
              argc > 2 ? argv[2] : "(none)");
    } else {
        CHECK_EQ(*appnum, 0);
        CHECK(argc == 4 && strcmp(argv[2], "alpha") == 0 && strcmp(argv[3], "b c") == 0,
              "argv is not {child-..., alpha, 'b c'}: argc %d", argc);
    }
    int *universe = NULL;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &flag));
    if (flag) CHECK(*universe >= size, "MPI_UNIVERSE_SIZE %d below the job's %d processes", *universe, size);
    if (strcmp(mode, "child-nested") == 0 && rank == 0) {
        /* A grandchild: spawned by a child, talks to it, goes. */
        char *gargv[] = {"child-loop", "alpha", "b c", NULL}; /* no merges: we do none with it */
        MPI_Comm g;
        int code = -1;
        CHECK_MPI(MPI_Comm_spawn(g_self, gargv, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &g, &code));
        CHECK_EQ(code, MPI_SUCCESS);
        dpm_exchange(g, 0, 4096 + 17);
        CHECK_MPI(MPI_Comm_disconnect(&g));
    }
    dpm_exchange(parent, 1, 4096 + 17);
    if (strcmp(mode, "child-basic") == 0) {
        dpm_merge_check(parent, 1);
        dpm_merge_check(parent, 0);
    }
    CHECK_MPI(MPI_Comm_disconnect(&parent));
    CHECK(parent == MPI_COMM_NULL, "MPI_Comm_disconnect left the handle set");
    MPI_Comm again;
    MPI_Comm_get_parent(&again);
    CHECK(again == MPI_COMM_NULL, "MPI_Comm_get_parent after the disconnect is not MPI_COMM_NULL");
    MPI_Finalize();
    return 0;
}

static MPI_Comm spawn_basic(int n, int *codes)
{
    char *cargv[] = {"child-basic", "alpha", "b c", NULL};
    MPI_Comm inter;
    CHECK_MPI(MPI_Comm_spawn(g_self, cargv, n, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, codes));
    for (int i = 0; i < n; ++i) CHECK_EQ(codes[i], MPI_SUCCESS);
    int remote = 0;
    MPI_Comm_remote_size(inter, &remote);
    CHECK_EQ(remote, n);
    return inter;
}

static void basic(int n)
{
    int codes[8];
    for (int i = 0; i < 8; ++i) codes[i] = -1;
    MPI_Comm inter = spawn_basic(n, codes);
    int flag = 0;
    MPI_Comm_test_inter(inter, &flag);
    CHECK(flag, "the spawn's communicator is not an inter-communicator");
    dpm_exchange(inter, 0, 4096 + 17);
    dpm_merge_check(inter, 0);
    dpm_merge_check(inter, 1);
    CHECK_MPI(MPI_Comm_disconnect(&inter));
}

static void multiple(void)
{
    /* The second command by its bare name, found through info path (its folder). */
    char dir[4096], *slash;
    snprintf(dir, sizeof dir, "%s", g_self);
    slash = strrchr(dir, '/');
    CHECK(slash != NULL, "no folder in %s", g_self);
    *slash = '\0';
    char *cmds[2] = {(char *)g_self, slash + 1 - dir + (char *)g_self};
    char *a0[] = {"child-multiple", "one", NULL}, *a1[] = {"child-multiple", "two", NULL};
    char **argvs[2] = {a0, a1};
    int maxprocs[2] = {1, 2}, codes[3] = {-1, -1, -1};
    MPI_Info infos[2];
    MPI_Info_create(&infos[0]);
    MPI_Info_set(infos[0], "wdir", "/tmp");
    MPI_Info_create(&infos[1]);
    MPI_Info_set(infos[1], "path", dir);
    MPI_Comm inter;
    CHECK_MPI(MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD, &inter, codes));
    MPI_Info_free(&infos[0]);
    MPI_Info_free(&infos[1]);
    for (int i = 0; i < 3; ++i) CHECK_EQ(codes[i], MPI_SUCCESS);
    dpm_exchange(inter, 0, 4096 + 17);
    CHECK_MPI(MPI_Comm_disconnect(&inter));
}

static void missing(void)
{
    char *cargv[] = {"x", NULL};
    int codes[3] = {-7, -7, -7};
    MPI_Comm inter = MPI_COMM_WORLD;
    CHECK_CLASS(MPI_Comm_spawn("/nonexistent/plexus-no-such-program", cargv, 3, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                               &inter, codes),
                MPI_ERR_SPAWN);
    CHECK(inter == MPI_COMM_NULL, "a failed spawn left intercomm set");
    for (int i = 0; i < 3; ++i) CHECK_EQ(tu_error_class(codes[i]), MPI_ERR_SPAWN);
    CHECK_CLASS(MPI_Comm_spawn("plexus-no-such-program-in-path", cargv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                               MPI_ERRCODES_IGNORE),
                MPI_ERR_SPAWN);
    /* Misuse of the arguments: each its class, at every parent. */
    CHECK_CLASS(MPI_Comm_spawn(g_self, cargv, 0, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, codes), MPI_ERR_SPAWN);
    CHECK_CLASS(MPI_Comm_spawn(g_self, cargv, 1, MPI_INFO_NULL, tu_size, MPI_COMM_WORLD, &inter, codes), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Comm_spawn(NULL, cargv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, codes), MPI_ERR_SPAWN);
    CHECK_CLASS(MPI_Comm_spawn(g_self, cargv, 1, MPI_INFO_NULL, 0, MPI_COMM_NULL, &inter, codes), MPI_ERR_COMM);
    MPI_Info wdir;
    MPI_Info_create(&wdir);
    MPI_Info_set(wdir, "wdir", "/nonexistent-plexus-dir");
    CHECK_CLASS(MPI_Comm_spawn(g_self, cargv, 1, wdir, 0, MPI_COMM_WORLD, &inter, codes), MPI_ERR_SPAWN);
    MPI_Info_free(&wdir);
    /* ... and the parents go on: a good spawn works afterwards. */
    int ok[1];
    MPI_Comm good = spawn_basic(1, ok);
    dpm_exchange(good, 0, 4096 + 17);
    dpm_merge_check(good, 0);
    dpm_merge_check(good, 1);
    CHECK_MPI(MPI_Comm_disconnect(&good));
}

static void nested(void)
{
    char *cargv[] = {"child-nested", "alpha", "b c", NULL};
    MPI_Comm inter;
    CHECK_MPI(MPI_Comm_spawn(g_self, cargv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE));
    dpm_exchange(inter, 0, 4096 + 17);
    CHECK_MPI(MPI_Comm_disconnect(&inter));
}

/* Mean seconds per MPI_Comm_spawn of the loop (reported, never asserted: the machine is shared). */
static double g_spawn_seconds = 0;

static void loop(int cycles)
{
    char *cargv[] = {"child-loop", "alpha", "b c", NULL};
    int fds = -1, shm = -1;
    for (int c = 0; c < cycles; ++c) {
        MPI_Comm inter;
        int code = -1;
        const double t0 = MPI_Wtime();
        CHECK_MPI(MPI_Comm_spawn(g_self, cargv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, &code));
        g_spawn_seconds += (MPI_Wtime() - t0) / cycles;
        CHECK_EQ(code, MPI_SUCCESS);
        dpm_exchange(inter, 0, 4096 + 17);
        CHECK_MPI(MPI_Comm_disconnect(&inter));
        /* After a few cycles everything lazily made exists; from then on nothing may grow. */
        if (c == 4) {
            fds = dpm_count_dir("/proc/self/fd");
            shm = dpm_count_dir("/dev/shm");
        }
    }
    if (cycles > 4) {
        int fds_end = dpm_count_dir("/proc/self/fd"), shm_end = dpm_count_dir("/dev/shm");
        CHECK(fds_end <= fds, "open fds grew from %d (cycle 5) to %d (cycle %d)", fds, fds_end, cycles);
        /* /dev/shm is the node's: other jobs may come and go, but not one entry per cycle. */
        CHECK(shm_end <= shm + 2, "/dev/shm entries grew from %d (cycle 5) to %d (cycle %d)", shm, shm_end, cycles);
    }
}

int main(int argc, char **argv)
{
    /* Absolute: a child started in another working directory (info wdir) must find it too. */
    static char self[4096];
    g_self = realpath(argv[0], self) ? self : argv[0];
    tu_init(&argc, &argv);
    MPI_Comm parent;
    CHECK_MPI(MPI_Comm_get_parent(&parent));
    if (parent != MPI_COMM_NULL) return child(argc, argv, parent);
    CHECK(argc >= 2, "usage: dpm_spawn basic N | multiple | nested | missing | loop N");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const char *mode = argv[1];
    const int n = argc > 2 ? atoi(argv[2]) : 1;
    if (strcmp(mode, "basic") == 0) basic(n);
    else if (strcmp(mode, "multiple") == 0) multiple();
    else if (strcmp(mode, "nested") == 0) nested();
    else if (strcmp(mode, "missing") == 0) missing();
    else if (strcmp(mode, "loop") == 0) loop(n);
    else CHECK(0, "unknown mode %s", mode);
    if (strcmp(mode, "loop") == 0)
        return tu_finish("loop %d: %.1f ms per MPI_Comm_spawn of one child (mean, not asserted)", n,
                         g_spawn_seconds * 1000);
    return tu_finish("%s %s", mode, argc > 2 ? argv[2] : "");
}
