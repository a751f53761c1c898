/* The environment calls. Options: --init (MPI_Init; the default) or --thread single|funneled|
 * serialized|multiple (MPI_Init_thread with that level).
 *   Initialized false and Finalized false before init; Initialized true, Finalized false after;
 *   both true after MPI_Finalize.
 *   Init_thread: the thread level constants are ordered SINGLE < FUNNELED < SERIALIZED <
 *   MULTIPLE; provided is one of them; a request for SINGLE or FUNNELED is granted exactly
 *   (every implementation this suite targets supports FUNNELED); a higher request gets no more
 *   than asked for; Query_thread says the same as provided (after MPI_Init: at least SINGLE).
 *   Comm_rank/Comm_size: every rank in [0, size) exactly once (rank 0 collects them), size as
 *   given by --expect-size N if present.
 *   Get_processor_name: non-empty, NUL-terminated, length as returned, < MPI_MAX_PROCESSOR_NAME.
 *   Get_version equals MPI_VERSION.MPI_SUBVERSION, at least 2.2; Get_library_version: non-empty,
 *   length as returned, < MPI_MAX_LIBRARY_VERSION_STRING.
 *   Wtick in (0, 1]; Wtime never goes backwards and measures a 50 ms sleep as 45 ms - 5 s. */
#include "test_util.h"

static int level_of(const char *name)
{
    if (strcmp(name, "single") == 0)
        return MPI_THREAD_SINGLE;
    if (strcmp(name, "funneled") == 0)
        return MPI_THREAD_FUNNELED;
    if (strcmp(name, "serialized") == 0)
        return MPI_THREAD_SERIALIZED;
    if (strcmp(name, "multiple") == 0)
        return MPI_THREAD_MULTIPLE;
    fprintf(stderr, "basics: unknown thread level '%s' (valid: single, funneled, serialized, "
                    "multiple)\n",
            name);
    exit(2);
}

/* Before MPI is initialized only these calls are allowed; failures print and exit. */
static void check_before_init(void)
{
    int flag = -1;
    if (MPI_Initialized(&flag) != MPI_SUCCESS || flag != 0) {
        fprintf(stderr, "basics: FAILED: MPI_Initialized before init says %d\n", flag);
        exit(1);
    }
    flag = -1;
    if (MPI_Finalized(&flag) != MPI_SUCCESS || flag != 0) {
        fprintf(stderr, "basics: FAILED: MPI_Finalized before init says %d\n", flag);
        exit(1);
    }
}

static int init(int *argc, char ***argv, int *requested)
{
    *requested = -1;
    for (int i = 1; i + 1 < *argc; ++i)
        if (strcmp((*argv)[i], "--thread") == 0)
            *requested = level_of((*argv)[i + 1]);
    int provided = -1;
    if (*requested < 0)
        MPI_Init(argc, argv);
    else
        MPI_Init_thread(argc, argv, *requested, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &tu_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &tu_size);
    return provided;
}

static void check_threads(int requested, int provided)
{
    CHECK(MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED && MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED &&
              MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE,
          "thread levels out of order: %d %d %d %d", MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED,
          MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE);
    int queried = -1;
    MPI_Query_thread(&queried);
    if (requested < 0) {
        CHECK(queried >= MPI_THREAD_SINGLE && queried <= MPI_THREAD_MULTIPLE,
              "Query_thread after MPI_Init says %d", queried);
        return;
    }
    CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE,
          "Init_thread provided %d, not a thread level", provided);
    if (requested <= MPI_THREAD_FUNNELED)
        CHECK_EQ(provided, requested);
    else
        CHECK(provided <= requested, "Init_thread(%d) provided more: %d", requested, provided);
    CHECK_EQ(queried, provided);
}

static void check_ranks(int expect_size)
{
    CHECK(tu_size >= 1 && (expect_size == 0 || tu_size == expect_size),
          "Comm_size is %d, expected %d", tu_size, expect_size);
    CHECK(tu_rank >= 0 && tu_rank < tu_size, "Comm_rank %d outside [0, %d)", tu_rank, tu_size);
    if (tu_rank != 0) {
        MPI_Send(&tu_rank, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        return;
    }
    char *seen = tu_malloc((size_t)tu_size);
    memset(seen, 0, (size_t)tu_size);
    seen[0] = 1;
    for (int i = 1; i < tu_size; ++i) {
        int r = -1;
        MPI_Status st;
        MPI_Recv(&r, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
        CHECK(r == st.MPI_SOURCE && r > 0 && r < tu_size && !seen[r],
              "rank %d reported rank %d (seen before: %d)", st.MPI_SOURCE, r,
              r > 0 && r < tu_size ? seen[r] : -1);
        seen[r] = 1;
    }
    free(seen);
}

static void check_strings(void)
{
    char name[MPI_MAX_PROCESSOR_NAME + 1];
    int len = -1;
    memset(name, 'x', sizeof name);
    MPI_Get_processor_name(name, &len);
    CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME && memchr(name, '\0', (size_t)len + 1) &&
              strlen(name) == (size_t)len,
          "Get_processor_name: length %d for '%.*s'", len, MPI_MAX_PROCESSOR_NAME, name);

    int version = -1, subversion = -1;
    MPI_Get_version(&version, &subversion);
    CHECK(version == MPI_VERSION && subversion == MPI_SUBVERSION,
          "Get_version says %d.%d, mpi.h says %d.%d", version, subversion, MPI_VERSION,
          MPI_SUBVERSION);
    CHECK(version > 2 || (version == 2 && subversion >= 2), "MPI version %d.%d is below 2.2",
          version, subversion);

    char lib[MPI_MAX_LIBRARY_VERSION_STRING + 1];
    memset(lib, 'x', sizeof lib);
    len = -1;
    MPI_Get_library_version(lib, &len);
    size_t printable = (size_t)len;
#ifdef OPEN_MPI
    /* Open MPI counts the terminating NUL (open-mpi/ompi#14411); tolerated for it alone */
    if (len > 0 && memchr(lib, '\0', (size_t)len) && strlen(lib) + 1 == (size_t)len)
        printable = (size_t)len - 1;
#endif
    CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING &&
              memchr(lib, '\0', printable + 1) && strlen(lib) == printable,
          "Get_library_version: length %d, but the string has %zu characters", len,
          strnlen(lib, sizeof lib));
}

static void check_clock(void)
{
    double tick = MPI_Wtick();
    CHECK(tick > 0.0 && tick <= 1.0, "Wtick is %g", tick);
    double prev = MPI_Wtime();
    for (int i = 0; i < 100000; ++i) {
        double now = MPI_Wtime();
        CHECK(now >= prev, "Wtime went backwards: %.9f after %.9f", now, prev);
        prev = now;
    }
    double t0 = MPI_Wtime();
    tu_sleep_ms(50);
    double took = MPI_Wtime() - t0;
    CHECK(took >= 0.045 && took < 5.0, "Wtime measured a 50 ms sleep as %.6f s", took);
}

int main(int argc, char **argv)
{
    tu_name(argv[0]);
    check_before_init();
    int requested;
    int provided = init(&argc, &argv, &requested);
    int flag = 0;
    MPI_Initialized(&flag);
    CHECK(flag, "Initialized says false after init");
    flag = 1;
    MPI_Finalized(&flag);
    CHECK(!flag, "Finalized says true before MPI_Finalize");

    check_threads(requested, provided);
    check_ranks((int)tu_option_size(argc, argv, "--expect-size", 0));
    check_strings();
    check_clock();

    tu_barrier();
    if (tu_rank == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(lib, &len);
        char *newline = strchr(lib, '\n');
        if (newline)
            *newline = '\0';
        int level = -1;
        MPI_Query_thread(&level);
        printf("%s: PASS: %d ranks: %s, thread level %d, library '%s'\n", tu_prog, tu_size,
               requested < 0 ? "MPI_Init" : "MPI_Init_thread", level, lib);
        fflush(stdout);
    }
    MPI_Finalize();
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized || !finalized) {
        fprintf(stderr, "basics: FAILED: rank %d: after MPI_Finalize, Initialized %d and "
                        "Finalized %d (expected 1 and 1)\n",
                tu_rank, initialized, finalized);
        return 1;
    }
    return 0;
}
