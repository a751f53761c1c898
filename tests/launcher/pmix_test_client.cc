// A PMIx client for the launcher tests, written against the raw PMIx client API (no Plexus
// library), so that it tests plexrun alone. One mode per behaviour: see usage().
#include <fcntl.h>
#include <pmix.h>
#include <sys/mman.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#ifdef __SANITIZE_ADDRESS__
// libpmix's own leaks are suppressed for every test by make check (tests/lib/lsan-libpmix.supp).
// The segfault test needs a real death by SIGSEGV, not AddressSanitizer's report and exit 1.
extern "C" const char *__asan_default_options() {
    return "handle_segv=0";
}
#endif

namespace {

pmix_proc_t self;

[[noreturn]] void die(const std::string &what) {
    std::fprintf(stderr, "FAIL %s:%u: %s\n", self.nspace, self.rank, what.c_str());
    std::exit(1);
}

void check(pmix_status_t rc, const std::string &what) {
    if (rc != PMIX_SUCCESS) die(what + ": " + PMIx_Error_string(rc));
}

pmix_proc_t proc_of(const char *nspace, pmix_rank_t rank) {
    pmix_proc_t p;
    PMIX_PROC_CONSTRUCT(&p);
    PMIX_LOAD_PROCID(&p, nspace, rank);
    return p;
}

pmix_value_t *get(const pmix_proc_t &p, const char *key) {
    pmix_value_t *v = nullptr;
    check(PMIx_Get(&p, key, nullptr, 0, &v), std::string("PMIx_Get(") + key + ")");
    return v;
}

uint32_t get_u32(const char *nspace, pmix_rank_t rank, const char *key) {
    pmix_value_t *v = get(proc_of(nspace, rank), key);
    uint32_t out = 0;
    if (v->type == PMIX_UINT32)
        out = v->data.uint32;
    else if (v->type == PMIX_UINT16)
        out = v->data.uint16;
    else
        die(std::string(key) + " has type " + PMIx_Data_type_string(v->type));
    PMIX_VALUE_RELEASE(v);
    return out;
}

std::string get_string(const char *nspace, pmix_rank_t rank, const char *key) {
    pmix_value_t *v = get(proc_of(nspace, rank), key);
    if (v->type != PMIX_STRING) die(std::string(key) + " is not a string");
    std::string out = v->data.string;
    PMIX_VALUE_RELEASE(v);
    return out;
}

void expect_eq(long long got, long long want, const std::string &what) {
    if (got != want)
        die(what + " is " + std::to_string(got) + ", expected " + std::to_string(want));
}

std::string job_secret() {
    std::string s = get_string(self.nspace, PMIX_RANK_WILDCARD, "plexus.job.secret");
    if (s.size() != 64 || s.find_first_not_of("0123456789abcdef") != std::string::npos)
        die("plexus.job.secret is not 64 hex digits: '" + s + "'");
    return s;
}

void fence_collect() {
    pmix_info_t info;
    PMIX_INFO_CONSTRUCT(&info);
    bool yes = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    check(PMIx_Fence(nullptr, 0, &info, 1), "PMIx_Fence");
    PMIX_INFO_DESTRUCT(&info);
}

// The card: text naming its owner, then bytes a string copy would lose (NULs, high bytes).
std::string card_of(const char *nspace, pmix_rank_t rank) {
    std::string card = std::string("card-of-") + nspace + "-" + std::to_string(rank);
    for (int i = 0; i < 64; ++i)
        card += static_cast<char>((i * 37 + static_cast<int>(rank)) & 0xff);
    card += std::string("\0\0\xff\x80", 4);
    return card;
}

void put_card() {
    std::string card = card_of(self.nspace, self.rank);
    pmix_value_t v;
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = static_cast<char *>(std::malloc(card.size()));
    std::memcpy(v.data.bo.bytes, card.data(), card.size());
    v.data.bo.size = card.size();
    check(PMIx_Put(PMIX_GLOBAL, "plexus.test.card", &v), "PMIx_Put");
    PMIX_VALUE_DESTRUCT(&v);
    check(PMIx_Commit(), "PMIx_Commit");
}

void verify_cards(uint32_t size) {
    for (uint32_t r = 0; r < size; ++r) {
        pmix_value_t *v = get(proc_of(self.nspace, r), "plexus.test.card");
        if (v->type != PMIX_BYTE_OBJECT) die("card of rank " + std::to_string(r) + " is not bytes");
        std::string want = card_of(self.nspace, r);
        if (v->data.bo.size != want.size() ||
            std::memcmp(v->data.bo.bytes, want.data(), want.size()) != 0)
            die("card of rank " + std::to_string(r) + " differs");
        PMIX_VALUE_RELEASE(v);
    }
}

void init() {
    check(PMIx_Init(&self, nullptr, 0), "PMIx_Init");
}

void finalize() {
    check(PMIx_Finalize(nullptr, 0), "PMIx_Finalize");
}

// ---------------------------------------------------------------- modes

// card N: job facts, then every rank's card through a collecting fence.
int mode_card(int argc, char **argv) {
    if (argc < 1) die("card needs the expected size");
    uint32_t n = static_cast<uint32_t>(std::atoi(argv[0]));
    init();
    expect_eq(get_u32(self.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE), n, "PMIX_JOB_SIZE");
    expect_eq(get_u32(self.nspace, PMIX_RANK_WILDCARD, PMIX_LOCAL_SIZE), n, "PMIX_LOCAL_SIZE");
    expect_eq(get_u32(self.nspace, self.rank, PMIX_LOCAL_RANK), self.rank, "PMIX_LOCAL_RANK");
    std::string secret = job_secret();
    put_card();
    fence_collect();
    verify_cards(n);
    std::printf("rank %u of %u: cards ok, secret %s\n", self.rank, n, secret.c_str());
    finalize();
    return 0;
}

// The test segment every rank of the failure tests makes, named as the contract says.
std::string make_segment() {
    std::string name =
        "/plexus-" + job_secret().substr(0, 16) + "-test-r" + std::to_string(self.rank);
    int fd = shm_open(name.c_str(), O_CREAT | O_RDWR, 0600);
    if (fd < 0 || ftruncate(fd, 4096) != 0) die("shm_open " + name + ": " + std::strerror(errno));
    close(fd);
    return name;
}

void write_pid(const char *dir) {
    std::ofstream(std::string(dir) + "/pid." + self.nspace + "." + std::to_string(self.rank))
        << getpid() << "\n";
}

// fail HOW VICTIM DIR: the victim fails one way; the others wait in a fence to be killed.
int mode_fail(int argc, char **argv) {
    if (argc < 3) die("fail needs HOW VICTIM DIR");
    std::string how = argv[0];
    uint32_t victim = static_cast<uint32_t>(std::atoi(argv[1]));
    init();
    write_pid(argv[2]);
    std::string seg = make_segment();
    std::printf("rank %u ready, segment %s\n", self.rank, seg.c_str());
    std::fflush(stdout);
    if (self.rank != victim) {
        pmix_status_t rc = PMIx_Fence(nullptr, 0, nullptr, 0);
        // The fence cannot complete without the victim; whatever it says, wait to be killed.
        std::printf("rank %u fence returned %s\n", self.rank, PMIx_Error_string(rc));
        std::fflush(stdout);
        for (;;) pause();
    }
    usleep(200 * 1000);  // let the others reach the fence
    if (how == "abort") PMIx_Abort(7, "test abort from the victim", nullptr, 0);
    if (how == "segv") raise(SIGSEGV);
    if (how == "exit3") std::exit(3);
    if (how == "exit0") std::exit(0);
    for (;;) pause();  // after PMIx_Abort: plexrun kills us
}

// exit STATUS VICTIM DIR [wait]: every rank says it is done and finalizes; the victim then
// exits with STATUS, the others exit 0, or with "wait" wait (after finalizing) to be killed.
int mode_exit(int argc, char **argv) {
    if (argc < 3) die("exit needs STATUS VICTIM DIR");
    int status = std::atoi(argv[0]);
    uint32_t victim = static_cast<uint32_t>(std::atoi(argv[1]));
    bool wait = argc > 3 && std::string(argv[3]) == "wait";
    init();
    write_pid(argv[2]);
    std::printf("rank %u done\n", self.rank);
    std::fflush(stdout);
    PMIx_Fence(nullptr, 0, nullptr, 0);
    finalize();
    if (self.rank == victim) {
        if (!wait) usleep(200 * 1000);  // the others have ended: the job's status is ours alone
        std::exit(status);
    }
    if (wait)
        for (;;) pause();
    return 0;
}

// sleep DIR: ready, then wait to be killed (signals, --timeout).
int mode_sleep(int argc, char **argv) {
    if (argc < 1) die("sleep needs DIR");
    init();
    write_pid(argv[0]);
    std::string seg = make_segment();
    std::printf("rank %u ready, segment %s\n", self.rank, seg.c_str());
    std::fflush(stdout);
    for (;;) pause();
}

// lines COUNT LONG [partial]: COUNT numbered lines to stdout (every tenth also to stderr),
// one line of LONG bytes, and with "partial" a last line without its newline.
int mode_lines(int argc, char **argv) {
    if (argc < 2) die("lines needs COUNT LONG");
    bool partial = argc > 2 && std::string(argv[2]) == "partial";
    int count = std::atoi(argv[0]);
    size_t long_len = static_cast<size_t>(std::atol(argv[1]));
    init();
    for (int i = 0; i < count; ++i) {
        std::printf("rank %u line %d %s\n", self.rank, i,
                    std::string(static_cast<size_t>(i % 97), 'a' + i % 26).c_str());
        if (i % 10 == 0) std::fprintf(stderr, "rank %u err %d\n", self.rank, i);
    }
    std::printf("rank %u long %s\n", self.rank, std::string(long_len, 'L').c_str());
    if (partial) std::printf("rank %u last-without-newline", self.rank);
    std::fflush(stdout);
    finalize();
    return 0;
}

std::string self_exe() {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) die("readlink /proc/self/exe");
    return std::string(buf, static_cast<size_t>(n));
}

// spawn [fail]: rank 0 spawns two "child" ranks (with "fail", "child-fail" ones, and the
// parent then waits to be killed); the parent job fences and ends.
int mode_spawn(int argc, char **argv_in) {
    bool failing = argc > 0 && std::string(argv_in[0]) == "fail";
    init();
    uint32_t size = get_u32(self.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    std::printf("parent rank %u nspace %s ppid %d\n", self.rank, self.nspace,
                static_cast<int>(getppid()));
    if (self.rank == 0) {
        std::string exe = self_exe();
        std::string size_text = std::to_string(size);
        std::vector<char *> argv = {const_cast<char *>(exe.c_str()),
                                    const_cast<char *>(failing ? "child-fail" : "child"),
                                    const_cast<char *>(size_text.c_str()), nullptr};
        char env0[] = "PLEXRUN_TEST_SPAWNED=yes";
        char *env[] = {env0, nullptr};
        pmix_app_t app;
        PMIX_APP_CONSTRUCT(&app);
        app.cmd = strdup(exe.c_str());
        app.argv = argv.data();
        app.env = env;
        app.maxprocs = 2;
        pmix_nspace_t child;
        check(PMIx_Spawn(nullptr, 0, &app, 1, child), "PMIx_Spawn");
        app.argv = nullptr;  // ours, not for PMIX_APP_DESTRUCT
        app.env = nullptr;
        PMIX_APP_DESTRUCT(&app);
        std::printf("parent rank 0 spawned %s\n", child);
    }
    if (failing) {
        std::fflush(stdout);
        for (;;) pause();
    }
    check(PMIx_Fence(nullptr, 0, nullptr, 0), "PMIx_Fence");
    finalize();
    return 0;
}

// spawn-missing: rank 0 asks for a program that does not exist; the job goes on.
int mode_spawn_missing(int, char **) {
    init();
    if (self.rank == 0) {
        pmix_app_t app;
        PMIX_APP_CONSTRUCT(&app);
        app.cmd = strdup("/nonexistent/plexrun-test-program");
        app.maxprocs = 1;
        pmix_nspace_t child;
        pmix_status_t rc = PMIx_Spawn(nullptr, 0, &app, 1, child);
        PMIX_APP_DESTRUCT(&app);
        std::printf("spawn of a missing program: %s\n", PMIx_Error_string(rc));
    }
    check(PMIx_Fence(nullptr, 0, nullptr, 0), "PMIx_Fence");
    finalize();
    return 0;
}

// child PARENT_SIZE: the spawned side.
int mode_child(int argc, char **argv) {
    if (argc < 1) die("child needs the parent's size");
    init();
    pmix_value_t *v = get(proc_of(self.nspace, PMIX_RANK_WILDCARD), PMIX_PARENT_ID);
    if (v->type != PMIX_PROC) die("PMIX_PARENT_ID is not a proc");
    pmix_proc_t parent = *v->data.proc;
    PMIX_VALUE_RELEASE(v);
    const char *env = std::getenv("PLEXRUN_TEST_SPAWNED");
    if (!env || std::strcmp(env, "yes") != 0) die("the app's environment did not arrive");
    uint32_t size = get_u32(self.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    expect_eq(size, 2, "PMIX_JOB_SIZE of the spawned job");
    put_card();
    fence_collect();
    verify_cards(size);
    uint32_t parent_size = get_u32(parent.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    expect_eq(parent_size, std::atoi(argv[0]), "the parent's PMIX_JOB_SIZE");
    std::string parent_secret = get_string(parent.nspace, PMIX_RANK_WILDCARD, "plexus.job.secret");
    if (parent_secret == job_secret()) die("the spawned job shares its parent's secret");
    std::printf("child rank %u nspace %s parent %s:%u parent-size %u cards ok, ppid %d\n",
                self.rank, self.nspace, parent.nspace, parent.rank, parent_size,
                static_cast<int>(getppid()));
    finalize();
    return 0;
}

// child-fail: spawned rank 1 exits 9 without PMIx_Finalize; rank 0 waits in a fence.
int mode_child_fail(int, char **) {
    init();
    if (self.rank == 1) {
        usleep(100 * 1000);
        std::exit(9);
    }
    PMIx_Fence(nullptr, 0, nullptr, 0);
    for (;;) pause();
}

pmix_status_t lookup(const char *key, bool wait, int timeout, pmix_pdata_t *out) {
    PMIX_PDATA_CONSTRUCT(out);
    PMIX_LOAD_KEY(out->key, key);
    pmix_info_t info[2];
    PMIX_INFO_CONSTRUCT(&info[0]);
    PMIX_INFO_CONSTRUCT(&info[1]);
    PMIX_INFO_LOAD(&info[0], PMIX_WAIT, &wait, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
    pmix_status_t rc = PMIx_Lookup(out, 1, info, wait ? 2 : 1);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    return rc;
}

// pubsub: rank 1 looks up (waiting) before rank 0 publishes; then timeouts and unpublish.
int mode_pubsub(int, char **) {
    init();
    const char *key = "plexus-test-service";
    if (self.rank == 0) {
        usleep(500 * 1000);  // rank 1's lookup is already waiting in plexrun
        pmix_info_t info;
        PMIX_INFO_CONSTRUCT(&info);
        PMIX_INFO_LOAD(&info, key, "port-4242", PMIX_STRING);
        check(PMIx_Publish(&info, 1), "PMIx_Publish");
        pmix_status_t dup = PMIx_Publish(&info, 1);
        PMIX_INFO_DESTRUCT(&info);
        std::printf("rank 0 published; again: %s\n", PMIx_Error_string(dup));
    } else if (self.rank == 1) {
        pmix_pdata_t pd;
        check(lookup(key, true, 20, &pd), "PMIx_Lookup (waiting)");
        if (pd.value.type != PMIX_STRING) die("looked-up value is not a string");
        std::printf("rank 1 found %s=%s from %s:%u\n", key, pd.value.data.string, pd.proc.nspace,
                    pd.proc.rank);
        PMIX_PDATA_DESTRUCT(&pd);
        pmix_status_t rc = lookup("plexus-test-never", true, 1, &pd);
        std::printf("rank 1 waiting for a key never published: %s\n", PMIx_Error_string(rc));
        PMIX_PDATA_DESTRUCT(&pd);
    }
    check(PMIx_Fence(nullptr, 0, nullptr, 0), "PMIx_Fence");
    if (self.rank == 0) {
        char *keys[] = {const_cast<char *>(key), nullptr};
        check(PMIx_Unpublish(keys, nullptr, 0), "PMIx_Unpublish");
    }
    check(PMIx_Fence(nullptr, 0, nullptr, 0), "PMIx_Fence");
    if (self.rank == 1) {
        pmix_pdata_t pd;
        pmix_status_t rc = lookup(key, false, 0, &pd);
        std::printf("rank 1 after unpublish: %s\n", PMIx_Error_string(rc));
        PMIX_PDATA_DESTRUCT(&pd);
    }
    finalize();
    return 0;
}

// init: PMIx_Init and PMIx_Finalize only; prints how long PMIx_Init took (measurements).
int mode_init(int, char **) {
    timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    init();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    std::printf("rank %u PMIx_Init %.2f ms\n", self.rank,
                (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
    finalize();
    return 0;
}

int usage() {
    std::fprintf(
        stderr,
        "usage: pmix_test_client card N | fail abort|segv|exit3|exit0 VICTIM DIR | sleep DIR |\n"
        "       exit STATUS VICTIM DIR [wait] |\n"
        "       lines COUNT LONG [partial] | spawn [fail] | spawn-missing | pubsub | init\n");
    return 2;
}

}  // namespace

int main(int argc, char **argv) {
    setvbuf(stdout, nullptr, _IOFBF, 4096);  // lines cut across writes, like real programs
    if (argc < 2) return usage();
    std::string mode = argv[1];
    int n = argc - 2;
    char **rest = argv + 2;
    if (mode == "card") return mode_card(n, rest);
    if (mode == "fail") return mode_fail(n, rest);
    if (mode == "sleep") return mode_sleep(n, rest);
    if (mode == "exit") return mode_exit(n, rest);
    if (mode == "lines") return mode_lines(n, rest);
    if (mode == "spawn") return mode_spawn(n, rest);
    if (mode == "spawn-missing") return mode_spawn_missing(n, rest);
    if (mode == "child") return mode_child(n, rest);
    if (mode == "child-fail") return mode_child_fail(n, rest);
    if (mode == "pubsub") return mode_pubsub(n, rest);
    if (mode == "init") return mode_init(n, rest);
    return usage();
}
