/* Dynamic processes end to end (tests/mpi/README.md): MPI_Comm_spawn of 1..8 children from
 * 1..4 parents with argv, info keys (wdir, path) and errcodes checked, p2p both ways across the
 * inter-communicator byte for byte, merges high/low both ways with collectives on the result,
 * MPI_Comm_spawn_multiple of two commands with MPI_APPNUM, a nested spawn (a child spawns), a
 * command that does not exist (MPI_ERR_SPAWN, every errcode set, the parents go on), a loop of
 * spawn / exchange / disconnect cycles with the open fds, threads, resident memory and /dev/shm
 * entries flat (and plexrun's fds, threads and memory too), a group kept past its disconnect that
 * still names the child that left, a child meeting its parent again by a port after another child
 * took its process id there, a disconnect that waits for a late child without burning its CPU, and a spawn
 * beyond the universe size (MPI_ERR_SPAWN).
 *
 *   dpm_spawn basic N | wide N | multiple | nested | missing | loop N | late | universe | kept-group |
 *             meet-again
 *   children get "child-<mode>" and the parents' extra arguments */
#include "dpm_util.h"

#include <libgen.h>
#include <limits.h>
#include <unistd.h>

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
    } else if (strcmp(mode, "child-wide") == 0) {
        /* started by its bare name through info path, in info wdir, with argv {wdir, "x y"} */
        CHECK_EQ(*appnum, 0);
        CHECK_EQ(size, 8);
        CHECK_EQ(psize, 4);
        CHECK(argc == 4 && strcmp(argv[3], "x y") == 0, "argv is not {child-wide, WDIR, 'x y'}: argc %d", argc);
        char cwd[PATH_MAX], want[PATH_MAX];
        CHECK(getcwd(cwd, sizeof cwd) && realpath(argv[2], want), "getcwd or realpath(%s) failed", argv[2]);
        CHECK(strcmp(cwd, want) == 0, "child %d runs in %s, info wdir said %s", rank, cwd, want);
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
    char port[MPI_MAX_PORT_NAME] = "";
    if (strcmp(mode, "child-again") == 0)
        CHECK_MPI(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 1, parent, MPI_STATUS_IGNORE));
    dpm_exchange(parent, 1, 4096 + 17);
    if (strcmp(mode, "child-late") == 0) {
        /* The parent is in MPI_Comm_disconnect meanwhile, waiting for us. */
        struct timespec ts = {1, 500000000};
        nanosleep(&ts, NULL);
    }
    if (strcmp(mode, "child-basic") == 0 || strcmp(mode, "child-wide") == 0) {
        dpm_merge_check(parent, 1);
        dpm_merge_check(parent, 0);
    }
    CHECK_MPI(MPI_Comm_disconnect(&parent));
    CHECK(parent == MPI_COMM_NULL, "MPI_Comm_disconnect left the handle set");
    MPI_Comm again;
    MPI_Comm_get_parent(&again);
    CHECK(again == MPI_COMM_NULL, "MPI_Comm_get_parent after the disconnect is not MPI_COMM_NULL");
    if (strcmp(mode, "child-again") == 0) {
        /* Meanwhile the parent spawned another child and let it go: we meet it again by port. */
        CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &again));
        for (int i = 0; i < 3; ++i) dpm_exchange(again, 1, i == 1 ? 100000 : 4096 + 17);
        CHECK_MPI(MPI_Comm_disconnect(&again));
    }
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

/* n children from every process of the job (4 here), the root the last rank: the command by
 * its bare name through info path, run in info wdir, with arguments; errcodes at every parent. */
static void wide(int n)
{
    char dir_buf[PATH_MAX], base_buf[PATH_MAX];
    snprintf(dir_buf, sizeof dir_buf, "%s", g_self);
    snprintf(base_buf, sizeof base_buf, "%s", g_self);
    char *dir = dirname(dir_buf), *base = basename(base_buf);
    char *cargv[] = {"child-wide", "/", "x y", NULL};
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "wdir", "/");
    MPI_Info_set(info, "path", dir);
    int codes[8];
    CHECK(n <= 8, "at most 8 children");
    for (int i = 0; i < 8; ++i) codes[i] = -1;
    MPI_Comm inter;
    /* Only the root's command and info count: the others pass garbage on purpose. */
    const int root = tu_size - 1;
    if (tu_rank == root)
        CHECK_MPI(MPI_Comm_spawn(base, cargv, n, info, root, MPI_COMM_WORLD, &inter, codes));
    else
        CHECK_MPI(MPI_Comm_spawn("/nonexistent/ignored", NULL, -1, MPI_INFO_NULL, root, MPI_COMM_WORLD, &inter,
                                 codes));
    MPI_Info_free(&info);
    for (int i = 0; i < 8; ++i) CHECK_EQ(codes[i], i < n ? MPI_SUCCESS : -1);
    int remote = 0;
    MPI_Comm_remote_size(inter, &remote);
    CHECK_EQ(remote, n);
    dpm_exchange(inter, 0, 4096 + 17);
    dpm_merge_check(inter, 0);
    dpm_merge_check(inter, 1);
    CHECK_MPI(MPI_Comm_disconnect(&inter));
}

/* Voluntary context switches of this thread so far: each sleep of a waiting thread is one. */
static long sleeps_so_far(void)
{
    long n = -1;
    char line[256];
    FILE *f = fopen("/proc/thread-self/status", "r");
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1) break;
    fclose(f);
    return n;
}

/* The parent's MPI_Comm_disconnect waits 1.5 s for a child that comes late: waiting must give
 * the CPU away in sleeps that grow (the progress engine's back-off, up to 2 ms in dynamic-process
 * calls), not wake 10,000 times a second. Checked: the times this thread went to sleep during the
 * wait (a count; a busy machine only makes each sleep longer, hence fewer), under 1,000 per second
 * of waiting, and its CPU time under a tenth of the wait. */
static void late(void)
{
    char *cargv[] = {"child-late", "alpha", "b c", NULL};
    MPI_Comm inter;
    int code = -1;
    CHECK_MPI(MPI_Comm_spawn(g_self, cargv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, &code));
    dpm_exchange(inter, 0, 4096 + 17);
    struct timespec c0, c1, w0, w1;
    const long s0 = sleeps_so_far();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    clock_gettime(CLOCK_MONOTONIC, &w0);
    CHECK_MPI(MPI_Comm_disconnect(&inter));
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &w1);
    const long sleeps = sleeps_so_far() - s0;
    const double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
    const double wall = (double)(w1.tv_sec - w0.tv_sec) + (double)(w1.tv_nsec - w0.tv_nsec) * 1e-9;
    printf("late: MPI_Comm_disconnect waited %.3f s: %ld sleeps, %.3f s of CPU (%.1f %%)\n", wall, sleeps, cpu,
           100 * cpu / wall);
    CHECK(wall > 1.0, "the disconnect returned after %.3f s, before the child (asleep for 1.5 s) joined it", wall);
    CHECK(s0 >= 0 && sleeps >= 0, "cannot read /proc/thread-self/status");
    CHECK(sleeps < 1000 * wall, "MPI_Comm_disconnect woke %ld times in %.3f s of waiting: it polls too often", sleeps,
          wall);
    CHECK(cpu < 0.1 * wall, "MPI_Comm_disconnect used %.3f s of CPU in %.3f s of waiting: it spins", cpu, wall);
}

/* Under plexrun --universe-size U (the script dpm_universe.sh): a spawn of more processes than
 * the universe's free slots fails with MPI_ERR_SPAWN at every parent, every errcode set, the
 * root's message naming MPI_UNIVERSE_SIZE; the parents go on, and a spawn of exactly the free
 * slots works. */
static void universe(void)
{
    int *usize = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &flag));
    CHECK(flag, "MPI_UNIVERSE_SIZE is not set under plexrun --universe-size");
    const int free_slots = *usize - tu_size;
    CHECK(free_slots >= 1 && free_slots < 8, "run with a universe of 2..8 slots more than the job: %d free", free_slots);
    char *cargv[] = {"child-loop", "alpha", "b c", NULL};
    int codes[8];
    for (int i = 0; i < 8; ++i) codes[i] = -7;
    MPI_Comm inter = MPI_COMM_WORLD;
    const int rc = MPI_Comm_spawn(g_self, cargv, free_slots + 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, codes);
    CHECK_EQ(tu_error_class(rc), MPI_ERR_SPAWN);
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    /* The root says why; the other parents that the root could not start them. */
    if (tu_rank == 0)
        CHECK(strstr(text, "MPI_UNIVERSE_SIZE") != NULL, "the error does not say the universe is full: %s", text);
    CHECK(inter == MPI_COMM_NULL, "a refused spawn left intercomm set");
    for (int i = 0; i <= free_slots; ++i) CHECK_EQ(tu_error_class(codes[i]), MPI_ERR_SPAWN);
    CHECK_EQ(codes[free_slots + 1], -7);
    MPI_Comm good;
    CHECK_MPI(MPI_Comm_spawn(g_self, cargv, free_slots, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &good, codes));
    for (int i = 0; i < free_slots; ++i) CHECK_EQ(codes[i], MPI_SUCCESS);
    dpm_exchange(good, 0, 4096 + 17);
    CHECK_MPI(MPI_Comm_disconnect(&good));
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

/* Resident memory in KiB of process pid ("self" for this one), from /proc; -1 when unreadable. */
static long rss_kib_of(const char *pid)
{
    char path[64];
    long pages = -1, resident = -1;
    snprintf(path, sizeof path, "/proc/%s/statm", pid);
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
        fclose(f);
    }
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* The launcher that started this job when it is plexrun (the parent process), else 0: its
 * descriptors and memory must stay flat too (it registers and drops every spawned namespace). */
static pid_t plexrun_pid(void)
{
    char path[64], exe[4096];
    const pid_t ppid = getppid();
    snprintf(path, sizeof path, "/proc/%d/exe", (int)ppid);
    const ssize_t n = readlink(path, exe, sizeof exe - 1);
    if (n <= 0) return 0;
    exe[n] = '\0';
    const char *base = strrchr(exe, '/');
    base = base ? base + 1 : exe;
    return strcmp(base, "plexrun") == 0 || strcmp(base, "lt-plexrun") == 0 ? ppid : 0;
}

/* What the loop watches in one process. */
struct usage {
    int fds, threads;
    long rss_kib;
};

static struct usage usage_of(pid_t pid)
{
    char id[32], dir[64];
    struct usage u;
    if (pid) snprintf(id, sizeof id, "%d", (int)pid);
    else snprintf(id, sizeof id, "self");
    snprintf(dir, sizeof dir, "/proc/%s/fd", id);
    u.fds = dpm_count_dir(dir);
    snprintf(dir, sizeof dir, "/proc/%s/task", id);
    u.threads = dpm_count_dir(dir);
    u.rss_kib = rss_kib_of(id);
    return u;
}

/* The cycle after which everything made lazily exists (connections, pools, the allocator's
 * arenas) and nothing may grow any more; how much resident memory may still move, once (pages the
 * allocator keeps or returns at its own pace); and what each spawned job still leaves behind, per
 * cycle (docs/dynamic-processes.md, "The other job's record in libpmix"; heaptrack, 160 against
 * 60 cycles): libpmix's pmix_namespace_t, 1,808 bytes, which no client call removes (the core's
 * tables indexed by process id grew by about 400 bytes a cycle too until the ids of children that
 * left were given to the next ones; dpm_spawn_reuse.case checks that they are). The BTLs' endpoints and the
 * card cache's copies of a departed child are freed at its disconnect (they were 2.4 KB a cycle,
 * 6.0-6.8 KiB a cycle in all, which this fails: 1,080 KiB and more over 180 cycles); the 52 KB per
 * spawned job libpmix kept before MPI_Comm_disconnect released it would fail it twenty times over.
 * /dev/shm is the node's: other jobs (tests running beside this one) come and go there, but not
 * one entry per cycle. */
#define LOOP_WARM 20
#define LOOP_RSS_SLACK_KIB 384
#define LOOP_RSS_PER_CYCLE_BYTES 2560
/* plexrun: what libpmix 4.2.2's server keeps of every namespace after plexrun deregistered it
 * and of every disconnect (pmix_server_disconnect never frees the process list it unpacks), 6-10
 * KiB a cycle measured; the 46 KB it kept before namespaces were deregistered would fail. */
#define LOOP_PLEXRUN_RSS_SLACK_KIB 1024
#define LOOP_PLEXRUN_RSS_PER_CYCLE_BYTES (16 * 1024)
#define LOOP_SHM_SLACK 16

static void check_flat(const char *who, struct usage warm, struct usage end, int cycles, long slack_kib,
                       long per_cycle_bytes)
{
    printf("loop: %s after cycle %d / %d: fds %d / %d, threads %d / %d, resident %ld / %ld KiB\n", who, LOOP_WARM,
           cycles, warm.fds, end.fds, warm.threads, end.threads, warm.rss_kib, end.rss_kib);
    CHECK(warm.fds > 0 && end.fds > 0 && warm.rss_kib > 0 && end.rss_kib > 0, "cannot read /proc for %s", who);
    CHECK(end.fds <= warm.fds, "%s: open fds grew from %d (cycle %d) to %d (cycle %d)", who, warm.fds, LOOP_WARM,
          end.fds, cycles);
    CHECK(end.threads <= warm.threads, "%s: threads grew from %d (cycle %d) to %d (cycle %d)", who, warm.threads,
          LOOP_WARM, end.threads, cycles);
#if !defined(__SANITIZE_ADDRESS__)
    /* (ASan keeps freed memory in quarantine, and LeakSanitizer checks leaks at exit there.) */
    const long allowed = slack_kib + per_cycle_bytes * (cycles - LOOP_WARM) / 1024;
    CHECK(end.rss_kib <= warm.rss_kib + allowed,
          "%s: resident memory grew from %ld KiB (cycle %d) to %ld KiB (cycle %d), more than the %ld KiB allowed "
          "(%.1f KiB a cycle)",
          who, warm.rss_kib, LOOP_WARM, end.rss_kib, cycles, allowed,
          (double)(end.rss_kib - warm.rss_kib) / (cycles - LOOP_WARM));
#else
    (void)slack_kib;
    (void)per_cycle_bytes;
#endif
}

/* Under ASan a spawn costs 5-10 times as much (a child's start under the sanitizer) and the
 * memory check is off, so what the loop can show there (fds, threads, /dev/shm flat from cycle
 * LOOP_WARM on) takes fewer cycles: the test suite runs every case plain and under ASan. */
#define LOOP_ASAN_CYCLES 60

static void loop(int cycles)
{
    char *cargv[] = {"child-loop", "alpha", "b c", NULL};
#if defined(__SANITIZE_ADDRESS__)
    if (cycles > LOOP_ASAN_CYCLES) {
        printf("loop: sanitizer build: %d of the %d cycles asked for\n", LOOP_ASAN_CYCLES, cycles);
        cycles = LOOP_ASAN_CYCLES;
    }
#endif
    const pid_t launcher = plexrun_pid();
    struct usage me = {0, 0, 0}, plexrun = {0, 0, 0};
    int shm = -1;
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
        if (c == LOOP_WARM - 1) {
            me = usage_of(0);
            if (launcher) plexrun = usage_of(launcher);
            shm = dpm_count_dir("/dev/shm");
        }
    }
    if (cycles < 2 * LOOP_WARM) return;
    check_flat("this process", me, usage_of(0), cycles, LOOP_RSS_SLACK_KIB, LOOP_RSS_PER_CYCLE_BYTES);
    /* plexrun reaps the last child a moment after its disconnect: give it that moment. */
    if (launcher) {
        struct usage end = usage_of(launcher);
        for (int i = 0; i < 100 && end.fds > plexrun.fds; ++i) {
            struct timespec ts = {0, 10000000};
            nanosleep(&ts, NULL);
            end = usage_of(launcher);
        }
        check_flat("plexrun", plexrun, end, cycles, LOOP_PLEXRUN_RSS_SLACK_KIB, LOOP_PLEXRUN_RSS_PER_CYCLE_BYTES);
    } else {
        printf("loop: not started by plexrun: its use not checked\n");
    }
    const int shm_end = dpm_count_dir("/dev/shm");
    printf("loop: /dev/shm entries after cycle %d / %d: %d / %d\n", LOOP_WARM, cycles, shm, shm_end);
    CHECK(shm_end <= shm + LOOP_SHM_SLACK, "/dev/shm entries grew from %d (cycle %d) to %d (cycle %d)", shm, LOOP_WARM,
          shm_end, cycles);
}

/* A group kept past its disconnect still names the child that left: its process id is not given
 * to the next child meanwhile (docs/dynamic-processes.md, "Process ids"), so the kept group and
 * the next child's compare unequal; once freed, the id may go to a later child. */
static void kept_group(void)
{
    char *cargv[] = {"child-loop", "alpha", "b c", NULL};
    MPI_Group kept = MPI_GROUP_NULL;
    for (int c = 0; c < 3; ++c) {
        MPI_Comm inter;
        MPI_Group now;
        int code = -1;
        CHECK_MPI(MPI_Comm_spawn(g_self, cargv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, &code));
        CHECK_EQ(code, MPI_SUCCESS);
        dpm_exchange(inter, 0, 4096 + 17);
        CHECK_MPI(MPI_Comm_remote_group(inter, &now));
        if (kept != MPI_GROUP_NULL) {
            int result = -1, zero = 0, at = -2;
            CHECK_MPI(MPI_Group_compare(kept, now, &result));
            CHECK(result == MPI_UNEQUAL, "cycle %d: the group of the child that left compares %d with the new "
                  "child's (MPI_UNEQUAL is %d): its process id went to the new child while a group held it",
                  c, result, MPI_UNEQUAL);
            CHECK_MPI(MPI_Group_translate_ranks(kept, 1, &zero, now, &at));
            CHECK_EQ(at, MPI_UNDEFINED);
            CHECK_MPI(MPI_Group_free(&kept));
        }
        kept = now;
        CHECK_MPI(MPI_Comm_disconnect(&inter));
    }
    CHECK_MPI(MPI_Group_free(&kept));
}

/* A child that left meets its parent again, by a port, after another child was given its process
 * id in the parent: both sides forgot each other at the disconnect and number their messages from
 * 0 again (the child kept the parent's id, the parent gave the child a new one). */
static void meet_again(void)
{
    char *first_argv[] = {"child-again", "alpha", "b c", NULL}, *second_argv[] = {"child-loop", "alpha", "b c", NULL};
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm first, second, again;
    int code = -1;
    CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Comm_spawn(g_self, first_argv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &first, &code));
    CHECK_MPI(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 1, first));
    dpm_exchange(first, 0, 4096 + 17);
    CHECK_MPI(MPI_Comm_disconnect(&first));
    CHECK_MPI(MPI_Comm_spawn(g_self, second_argv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &second, &code));
    dpm_exchange(second, 0, 4096 + 17);
    CHECK_MPI(MPI_Comm_disconnect(&second));
    CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &again));
    for (int i = 0; i < 3; ++i) dpm_exchange(again, 0, i == 1 ? 100000 : 4096 + 17);
    CHECK_MPI(MPI_Comm_disconnect(&again));
    CHECK_MPI(MPI_Close_port(port));
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
    CHECK(argc >= 2, "usage: dpm_spawn basic N | wide N | multiple | nested | missing | loop N | late | universe | "
                     "kept-group | meet-again");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const char *mode = argv[1];
    const int n = argc > 2 ? atoi(argv[2]) : 1;
    if (strcmp(mode, "basic") == 0) basic(n);
    else if (strcmp(mode, "wide") == 0) wide(n);
    else if (strcmp(mode, "late") == 0) late();
    else if (strcmp(mode, "universe") == 0) universe();
    else if (strcmp(mode, "multiple") == 0) multiple();
    else if (strcmp(mode, "nested") == 0) nested();
    else if (strcmp(mode, "missing") == 0) missing();
    else if (strcmp(mode, "loop") == 0) loop(n);
    else if (strcmp(mode, "kept-group") == 0) kept_group();
    else if (strcmp(mode, "meet-again") == 0) meet_again();
    else CHECK(0, "unknown mode %s", mode);
    if (strcmp(mode, "loop") == 0)
        return tu_finish("loop %d: %.1f ms per MPI_Comm_spawn of one child (mean, not asserted)", n,
                         g_spawn_seconds * 1000);
    return tu_finish("%s %s", mode, argc > 2 ? argv[2] : "");
}
