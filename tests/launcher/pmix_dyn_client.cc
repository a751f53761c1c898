// A raw-PMIx client for plexrun's dynamic-process tests (tests/launcher/dynamic.sh and
// across.sh): the universe size, spawns from any rank, jobs ending in either order, spawns
// beyond the universe, PMIx_Connect between namespaces, and two plexruns finding each other's
// names and keys. No Plexus library: it tests plexrun alone. Every wait is bounded.
#include <pmix.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

pmix_proc_t self;

[[noreturn]] void die(const std::string &what) {
    std::fprintf(stderr, "FAIL %s:%u: %s\n", self.nspace, self.rank, what.c_str());
    std::exit(1);
}

void check(pmix_status_t rc, const std::string &what) {
    if (rc != PMIX_SUCCESS) die(what + ": " + PMIx_Error_string(rc));
}

pmix_proc_t proc_of(const std::string &nspace, pmix_rank_t rank) {
    pmix_proc_t p;
    PMIX_PROC_CONSTRUCT(&p);
    PMIX_LOAD_PROCID(&p, nspace.c_str(), rank);
    return p;
}

uint32_t get_u32(const std::string &nspace, pmix_rank_t rank, const char *key) {
    pmix_proc_t p = proc_of(nspace, rank);
    pmix_value_t *v = nullptr;
    check(PMIx_Get(&p, key, nullptr, 0, &v), std::string("PMIx_Get(") + key + ")");
    uint32_t out = v->type == PMIX_UINT32 ? v->data.uint32 : 0;
    if (v->type != PMIX_UINT32) die(std::string(key) + " is not a uint32");
    PMIX_VALUE_RELEASE(v);
    return out;
}

// The business card of a process: text naming it and bytes a string copy would lose.
std::string card_of(const std::string &nspace, pmix_rank_t rank) {
    std::string card = "card-of-" + nspace + "-" + std::to_string(rank) + std::string("\0\xff\x80", 3);
    for (int i = 0; i < 200; ++i) card += static_cast<char>((i * 31 + static_cast<int>(rank)) & 0xff);
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

// Fetches the card of nspace:rank (another job's: libpmix asks its server, which may ask
// another plexrun) and compares it byte for byte; at most 20 s.
void expect_card(const std::string &nspace, pmix_rank_t rank) {
    pmix_proc_t p = proc_of(nspace, rank);
    pmix_info_t info;
    PMIX_INFO_CONSTRUCT(&info);
    int timeout = 20;
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &timeout, PMIX_INT);
    pmix_value_t *v = nullptr;
    check(PMIx_Get(&p, "plexus.test.card", &info, 1, &v), "PMIx_Get(card of " + nspace + ")");
    PMIX_INFO_DESTRUCT(&info);
    std::string want = card_of(nspace, rank);
    if (v->type != PMIX_BYTE_OBJECT || v->data.bo.size != want.size() ||
        std::memcmp(v->data.bo.bytes, want.data(), want.size()) != 0)
        die("the card of " + nspace + ":" + std::to_string(rank) + " differs");
    PMIX_VALUE_RELEASE(v);
}

void publish(const std::string &key, const std::string &value) {
    pmix_info_t info;
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, key.c_str(), value.c_str(), PMIX_STRING);
    check(PMIx_Publish(&info, 1), "PMIx_Publish(" + key + ")");
    PMIX_INFO_DESTRUCT(&info);
}

// A waiting lookup of KEY, at most TIMEOUT seconds; the value, or "" with *rc set.
std::string lookup(const std::string &key, int timeout, pmix_status_t *rc, pmix_proc_t *publisher = nullptr) {
    pmix_pdata_t pd;
    PMIX_PDATA_CONSTRUCT(&pd);
    PMIX_LOAD_KEY(pd.key, key.c_str());
    pmix_info_t info[2];
    bool wait = true;
    PMIX_INFO_CONSTRUCT(&info[0]);
    PMIX_INFO_CONSTRUCT(&info[1]);
    PMIX_INFO_LOAD(&info[0], PMIX_WAIT, &wait, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
    *rc = PMIx_Lookup(&pd, 1, info, 2);
    std::string out;
    if (*rc == PMIX_SUCCESS && pd.value.type == PMIX_STRING) out = pd.value.data.string;
    if (publisher) *publisher = pd.proc;
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIX_PDATA_DESTRUCT(&pd);
    return out;
}

std::string must_lookup(const std::string &key, int timeout) {
    pmix_status_t rc;
    std::string v = lookup(key, timeout, &rc);
    check(rc, "PMIx_Lookup(" + key + ")");
    return v;
}

// PMIx_Connect or PMIx_Disconnect of every process of both namespaces, at most 20 s.
void connect_both(const std::string &a, const std::string &b, bool connect) {
    pmix_proc_t procs[2] = {proc_of(a, PMIX_RANK_WILDCARD), proc_of(b, PMIX_RANK_WILDCARD)};
    pmix_info_t info;
    PMIX_INFO_CONSTRUCT(&info);
    int timeout = 20;
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &timeout, PMIX_INT);
    if (connect)
        check(PMIx_Connect(procs, 2, &info, 1), "PMIx_Connect(" + a + ", " + b + ")");
    else
        check(PMIx_Disconnect(procs, 2, &info, 1), "PMIx_Disconnect(" + a + ", " + b + ")");
    PMIX_INFO_DESTRUCT(&info);
}

std::string self_exe() {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) die("readlink /proc/self/exe");
    return std::string(buf, static_cast<size_t>(n));
}

// Spawns NP copies of this program with ARGS; the status, and the namespace in *child.
pmix_status_t spawn(int np, const std::vector<std::string> &args, std::string *child) {
    std::string exe = self_exe();
    std::vector<char *> argv = {const_cast<char *>(exe.c_str())};
    for (const std::string &a : args) argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(exe.c_str());
    app.argv = argv.data();
    app.maxprocs = np;
    pmix_nspace_t ns;
    PMIX_LOAD_NSPACE(ns, nullptr);
    pmix_status_t rc = PMIx_Spawn(nullptr, 0, &app, 1, ns);
    app.argv = nullptr;  // ours
    PMIX_APP_DESTRUCT(&app);
    if (child) *child = ns;
    return rc;
}

void init() { check(PMIx_Init(&self, nullptr, 0), "PMIx_Init"); }
void finalize() { check(PMIx_Finalize(nullptr, 0), "PMIx_Finalize"); }

// Waits until process PID is gone, at most 20 s.
void wait_gone(pid_t pid) {
    for (int i = 0; i < 2000; ++i) {
        if (kill(pid, 0) != 0 && errno == ESRCH) return;
        usleep(10 * 1000);
    }
    die("process " + std::to_string(pid) + " still alive after 20 s");
}

// ---------------------------------------------------------------- modes

// universe: every rank says the universe size it sees and its job's size.
int mode_universe(int, char **) {
    init();
    std::printf("rank %u universe %u job %u\n", self.rank,
                get_u32(self.nspace, PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE),
                get_u32(self.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE));
    finalize();
    return 0;
}

// order SPAWNER FIRST(parent|child): rank SPAWNER spawns one child; the side named FIRST ends
// while the other still runs, and the other says so once the first is gone. The names are
// unique to this job (its namespace), so that other jobs of the machine cannot answer.
int mode_order(int argc, char **argv) {
    if (argc < 2) die("order needs SPAWNER FIRST");
    uint32_t spawner = static_cast<uint32_t>(std::atoi(argv[0]));
    std::string first = argv[1];
    init();
    if (self.rank == spawner) {
        std::string child;
        check(spawn(1, {"order-child", first, self.nspace}, &child), "PMIx_Spawn");
        std::printf("rank %u spawned %s\n", self.rank, child.c_str());
        std::fflush(stdout);
        if (first == "parent") {
            publish(std::string(self.nspace) + "-parent-pid", std::to_string(getpid()));
        } else {
            pid_t pid = static_cast<pid_t>(std::atol(must_lookup(child + "-child-pid", 20).c_str()));
            wait_gone(pid);
            std::printf("rank %u ends after its child\n", self.rank);
        }
    }
    finalize();
    return 0;
}

int mode_order_child(int argc, char **argv) {
    if (argc < 2) die("order-child needs FIRST PARENT_NSPACE");
    std::string first = argv[0], parent = argv[1];
    init();
    if (first == "child") {
        publish(std::string(self.nspace) + "-child-pid", std::to_string(getpid()));
        std::printf("child %s ends first\n", self.nspace);
    } else {
        pid_t pid = static_cast<pid_t>(std::atol(must_lookup(parent + "-parent-pid", 20).c_str()));
        wait_gone(pid);
        std::printf("child %s ends after its parent\n", self.nspace);
    }
    finalize();
    return 0;
}

// too-many NP: rank 0 asks for NP processes; plexrun must refuse; the job ends well.
int mode_too_many(int argc, char **argv) {
    if (argc < 1) die("too-many needs NP");
    init();
    if (self.rank == 0) {
        pmix_status_t rc = spawn(std::atoi(argv[0]), {"universe"}, nullptr);
        std::printf("spawn of %s: %s\n", argv[0], PMIx_Error_string(rc));
    }
    check(PMIx_Fence(nullptr, 0, nullptr, 0), "PMIx_Fence");  // every rank runs during the spawn
    finalize();
    return 0;
}

// fail-child SPAWNER: rank SPAWNER spawns two children, whose rank 1 exits 5 without
// finalizing; everyone else waits (bounded by plexrun's --timeout) to be killed.
int mode_fail_child(int argc, char **argv) {
    if (argc < 1) die("fail-child needs SPAWNER");
    init();
    if (self.rank == static_cast<uint32_t>(std::atoi(argv[0]))) {
        std::string child;
        check(spawn(2, {"failing-child"}, &child), "PMIx_Spawn");
        std::printf("rank %u spawned %s\n", self.rank, child.c_str());
        std::fflush(stdout);
    }
    for (;;) pause();
}

int mode_failing_child(int, char **) {
    init();
    if (self.rank == 1) {
        usleep(100 * 1000);
        std::_Exit(5);
    }
    for (;;) pause();
}

// connect: rank 0 spawns 2 children; parents and children PMIx_Connect, read each other's
// cards and job size, and PMIx_Disconnect.
int mode_connect(int, char **) {
    init();
    put_card();
    std::string child;
    if (self.rank == 0) {
        check(spawn(2, {"connect-child", self.nspace}, &child), "PMIx_Spawn");
        publish(std::string(self.nspace) + "-child", child);
    } else {
        child = must_lookup(std::string(self.nspace) + "-child", 20);
    }
    connect_both(self.nspace, child, true);
    for (pmix_rank_t r = 0; r < 2; ++r) expect_card(child, r);
    std::printf("parent rank %u connected to %s of %u, cards ok\n", self.rank, child.c_str(),
                get_u32(child, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE));
    connect_both(self.nspace, child, false);
    finalize();
    return 0;
}

int mode_connect_child(int argc, char **argv) {
    if (argc < 1) die("connect-child needs the parent's namespace");
    std::string parent = argv[0];
    init();
    put_card();
    connect_both(parent, self.nspace, true);
    uint32_t n = get_u32(parent, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    for (pmix_rank_t r = 0; r < n; ++r) expect_card(parent, r);
    std::printf("child rank %u connected to %s of %u, cards ok\n", self.rank, parent.c_str(), n);
    connect_both(parent, self.nspace, false);
    finalize();
    return 0;
}

// serve NAME: the first plexrun's job publishes NAME (its namespace), finds the client's name
// NAME.client, reads the client's cards (through the other plexrun) and connects to it.
int mode_serve(int argc, char **argv) {
    if (argc < 1) die("serve needs NAME");
    std::string name = argv[0];
    init();
    put_card();
    if (self.rank == 0) publish(name, self.nspace);
    std::string client = must_lookup(name + ".client", 30);
    uint32_t n = get_u32(self.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    for (pmix_rank_t r = 0; r < 2; ++r) expect_card(client, r);
    std::printf("server rank %u found %s of %u, cards ok\n", self.rank, client.c_str(),
                get_u32(client, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE));
    std::fflush(stdout);
    connect_both(self.nspace, client, true);
    std::printf("server rank %u connected\n", self.rank);
    connect_both(self.nspace, client, false);
    (void)n;
    finalize();
    return 0;
}

// client NAME: the second plexrun's job (2 ranks) finds NAME, publishes NAME.client, reads the
// server's cards and connects.
int mode_client(int argc, char **argv) {
    if (argc < 1) die("client needs NAME");
    std::string name = argv[0];
    init();
    put_card();
    pmix_status_t rc;
    pmix_proc_t publisher;
    std::string server = lookup(name, 30, &rc, &publisher);
    check(rc, "PMIx_Lookup(" + name + ")");
    if (server != publisher.nspace) die("the publisher of " + name + " is " + publisher.nspace + ", not " + server);
    if (self.rank == 0) publish(name + ".client", self.nspace);
    expect_card(server, 0);
    std::printf("client rank %u found %s of %u, cards ok\n", self.rank, server.c_str(),
                get_u32(server, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE));
    std::fflush(stdout);
    connect_both(server, self.nspace, true);
    std::printf("client rank %u connected\n", self.rank);
    connect_both(server, self.nspace, false);
    finalize();
    return 0;
}

// miss NAME: a lookup of a name nobody publishes, for 1 s; prints the status.
int mode_miss(int argc, char **argv) {
    if (argc < 1) die("miss needs NAME");
    init();
    pmix_status_t rc;
    lookup(argv[0], 1, &rc);
    std::printf("lookup of %s: %s\n", argv[0], PMIx_Error_string(rc));
    finalize();
    return 0;
}

// What /proc says of process PID: its open descriptors and its resident memory (kB).
long count_fds(pid_t pid) {
    std::string cmd = "ls /proc/" + std::to_string(pid) + "/fd | wc -l";
    FILE *f = popen(cmd.c_str(), "r");
    long n = -1;
    if (f && std::fscanf(f, "%ld", &n) != 1) n = -1;
    if (f) pclose(f);
    return n;
}

long rss_kb(pid_t pid) {
    FILE *f = std::fopen(("/proc/" + std::to_string(pid) + "/status").c_str(), "r");
    char line[256];
    long kb = -1;
    while (f && std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "VmRSS: %ld", &kb) == 1) break;
    if (f) std::fclose(f);
    return kb;
}

// cycles N: rank 0 spawns N one-process jobs one after the other, each ending at once, and
// waits for each to be gone; then says how plexrun's (its parent's) descriptors and resident
// memory changed from cycle 10 to cycle N.
int mode_cycles(int argc, char **argv) {
    if (argc < 1) die("cycles needs N");
    int n = std::atoi(argv[0]);
    init();
    const pid_t plexrun = getppid();
    long fds0 = 0, rss0 = 0;
    for (int i = 0; i < n; ++i) {
        std::string child;
        check(spawn(1, {"cycle-child"}, &child), "PMIx_Spawn");
        pid_t pid = static_cast<pid_t>(std::atol(must_lookup(child + "-pid", 20).c_str()));
        wait_gone(pid);
        if (i == 9) {
            fds0 = count_fds(plexrun);
            rss0 = rss_kb(plexrun);
        }
    }
    usleep(200 * 1000);  // plexrun has reaped the last one
    long fds = count_fds(plexrun), rss = rss_kb(plexrun);
    std::printf("plexrun after %d spawns: %s descriptors, %ld kB more memory than after 10\n", n,
                fds == fds0 ? "the same" : (std::to_string(fds0) + " -> " + std::to_string(fds)).c_str(),
                rss - rss0);
    finalize();
    return 0;
}

int mode_cycle_child(int, char **) {
    init();
    publish(std::string(self.nspace) + "-pid", std::to_string(getpid()));
    finalize();
    return 0;
}

// The CPUs this process may run on, as /proc/self/status lists them ("0-1", "1").
std::string cpus_allowed() {
    FILE *f = std::fopen("/proc/self/status", "r");
    if (!f) die("/proc/self/status");
    char line[512];
    std::string list;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "Cpus_allowed_list:", 18) == 0) {
            list = line + 18;
            list.erase(0, list.find_first_not_of(" \t"));
            list.erase(list.find_last_not_of(" \t\n") + 1);
        }
    std::fclose(f);
    return list;
}

// cpus NP ROUNDS: every rank says its CPUs; rank 0 spawns NP children ROUNDS times, each round's
// children saying theirs and ending (finalized and gone) before the next round, while every
// parent still runs (they meet in a fence at the end).
int mode_cpus(int argc, char **argv) {
    if (argc < 2) die("cpus needs NP and ROUNDS");
    const int np = std::atoi(argv[0]), rounds = std::atoi(argv[1]);
    init();
    std::printf("parent rank %u cpus %s\n", self.rank, cpus_allowed().c_str());
    for (int round = 0; self.rank == 0 && round < rounds; ++round) {
        std::string child;
        check(spawn(np, {"cpus-child", std::to_string(round)}, &child), "PMIx_Spawn");
        for (int r = 0; r < np; ++r)
            wait_gone(static_cast<pid_t>(
                std::atol(must_lookup(child + "-pid-" + std::to_string(r), 20).c_str())));
    }
    check(PMIx_Fence(nullptr, 0, nullptr, 0), "PMIx_Fence");
    finalize();
    return 0;
}

int mode_cpus_child(int argc, char **argv) {
    init();
    std::printf("child round %s rank %u cpus %s\n", argc > 0 ? argv[0] : "?", self.rank,
                cpus_allowed().c_str());
    publish(std::string(self.nspace) + "-pid-" + std::to_string(self.rank), std::to_string(getpid()));
    finalize();
    return 0;
}

// find NAME: a waiting lookup (at most 20 s) of NAME; prints what it found and its publisher.
int mode_find(int argc, char **argv) {
    if (argc < 1) die("find needs NAME");
    init();
    pmix_status_t rc;
    pmix_proc_t publisher;
    std::string value = lookup(argv[0], 20, &rc, &publisher);
    check(rc, std::string("PMIx_Lookup(") + argv[0] + ")");
    std::printf("found %s=%s from %s:%u\n", argv[0], value.c_str(), publisher.nspace, publisher.rank);
    finalize();
    return 0;
}

// crash-after-publish NAME: publishes NAME, says so, and dies of SIGSEGV.
int mode_crash(int argc, char **argv) {
    if (argc < 1) die("crash needs NAME");
    init();
    publish(argv[0], self.nspace);
    std::printf("published %s\n", argv[0]);
    std::fflush(stdout);
    usleep(300 * 1000);
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    return 1;
}

// hold NAME: publishes NAME and waits to be killed.
int mode_hold(int argc, char **argv) {
    if (argc < 1) die("hold needs NAME");
    init();
    publish(argv[0], self.nspace);
    std::printf("published %s\n", argv[0]);
    std::fflush(stdout);
    for (;;) pause();
}

int usage() {
    std::fprintf(stderr,
                 "usage: pmix_dyn_client universe | order SPAWNER parent|child | too-many NP |\n"
                 "       fail-child SPAWNER | connect | serve NAME | client NAME | miss NAME |\n"
                 "       find NAME | cycles N | cpus NP ROUNDS |\n"
                 "       crash NAME | hold NAME\n");
    return 2;
}

}  // namespace

int main(int argc, char **argv) {
    setvbuf(stdout, nullptr, _IOLBF, 0);
    if (argc < 2) return usage();
    std::string mode = argv[1];
    int n = argc - 2;
    char **rest = argv + 2;
    if (mode == "universe") return mode_universe(n, rest);
    if (mode == "order") return mode_order(n, rest);
    if (mode == "order-child") return mode_order_child(n, rest);
    if (mode == "too-many") return mode_too_many(n, rest);
    if (mode == "fail-child") return mode_fail_child(n, rest);
    if (mode == "failing-child") return mode_failing_child(n, rest);
    if (mode == "connect") return mode_connect(n, rest);
    if (mode == "connect-child") return mode_connect_child(n, rest);
    if (mode == "serve") return mode_serve(n, rest);
    if (mode == "client") return mode_client(n, rest);
    if (mode == "miss") return mode_miss(n, rest);
    if (mode == "find") return mode_find(n, rest);
    if (mode == "cycles") return mode_cycles(n, rest);
    if (mode == "cycle-child") return mode_cycle_child(n, rest);
    if (mode == "cpus") return mode_cpus(n, rest);
    if (mode == "cpus-child") return mode_cpus_child(n, rest);
    if (mode == "crash") return mode_crash(n, rest);
    if (mode == "hold") return mode_hold(n, rest);
    return usage();
}
