// Benchmark of the progress engine's wait loop when ranks outnumber cores: N forked processes
// pass a token around a ring through shared-memory flags, each waiting for its flag with
// ProgressEngine::wait_until (the flag check is the progress callback); with --work-us the holder
// first computes for that much CPU time, so waiters that do not give the CPU away slow it down.
// Prints one CSV line: procs,policy,work_us,seconds,hops,hops_per_s,rounds_per_s,mean_hop_us,
// yields,sleeps
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "runtime/progress.h"

using plexus::runtime::BackoffPolicy;
using plexus::runtime::ProgressEngine;

namespace {

struct alignas(64) Slot {
    std::atomic<uint64_t> token{0};   // the hop number handed to this process, 0 once taken
    std::atomic<uint64_t> passed{0};  // the last hop number this process passed on
    std::atomic<uint64_t> yields{0};
    std::atomic<uint64_t> sleeps{0};
};

struct Shared {
    std::atomic<int> ready{0};
    std::atomic<int> go{0};
    std::atomic<int> stop{0};
    Slot slots[1];  // really procs of them
};

// Anonymous shared memory that the forked processes inherit; unmapped when it goes.
class SharedMapping {
public:
    explicit SharedMapping(size_t bytes) : bytes_(bytes) {
        addr_ = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (addr_ == MAP_FAILED) {
            std::perror("mmap");
            std::exit(1);
        }
    }
    ~SharedMapping() { munmap(addr_, bytes_); }
    SharedMapping(const SharedMapping &) = delete;
    SharedMapping &operator=(const SharedMapping &) = delete;
    void *get() const { return addr_; }

private:
    void *addr_;
    size_t bytes_;
};

struct Options {
    int procs = 2;
    std::string policy = "backoff";  // spin | yield | backoff
    double seconds = 2.0;
    int work_us = 0;
    BackoffPolicy tuned;  // --spin-count, --yield-count, --min-sleep-us, --max-sleep-us
};

BackoffPolicy policy_named(const std::string &name, BackoffPolicy p) {
    if (name == "spin") return BackoffPolicy::pure_spin();
    if (name == "yield") p.max_sleep_us = 0;
    return p;
}

// What the progress callback watches: this process's slot, and whether the run is over.
struct Watch {
    Shared *shared;
    Slot *slot;
    uint64_t seen = 0;
    bool ready() const { return seen != 0 || shared->stop.load(std::memory_order_relaxed); }
    static int poll(void *ctx) {
        auto *w = static_cast<Watch *>(ctx);
        uint64_t t = w->slot->token.exchange(0, std::memory_order_acquire);
        if (t == 0) return 0;
        w->seen = t;
        return 1;
    }
};

// Burns us microseconds of this process's own CPU time (not wall time: being descheduled by a
// spinning neighbour must make the hop slower, which is what is measured).
void compute(int us) {
    if (us <= 0) return;
    auto cpu_now = [] {
        timespec ts;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return ts.tv_sec * 1000000000LL + ts.tv_nsec;
    };
    const long long end = cpu_now() + us * 1000LL;
    while (cpu_now() < end) {
    }
}

[[noreturn]] void run_rank(Shared *sh, int rank, const Options &o) {
    ProgressEngine engine;
    engine.set_policy(policy_named(o.policy, o.tuned));
    Watch w{sh, &sh->slots[rank]};
    engine.add(&Watch::poll, &w);
    Slot &next = sh->slots[(rank + 1) % o.procs];
    sh->ready.fetch_add(1);
    while (!sh->go.load(std::memory_order_acquire)) sched_yield();
    if (rank == 0) next.token.store(1, std::memory_order_release);
    while (true) {
        w.seen = 0;
        engine.wait_until([&] { return w.ready(); });
        if (sh->stop.load(std::memory_order_relaxed)) break;
        compute(o.work_us);
        next.token.store(w.seen + 1, std::memory_order_release);
        sh->slots[rank].passed.store(w.seen + 1, std::memory_order_relaxed);
    }
    sh->slots[rank].yields = engine.stats().yields;
    sh->slots[rank].sleeps = engine.stats().sleeps;
    std::_Exit(0);
}

Options parse(int argc, char **argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string a = argv[i];
        if (a == "--procs") o.procs = std::atoi(argv[i + 1]);
        else if (a == "--policy") o.policy = argv[i + 1];
        else if (a == "--seconds") o.seconds = std::atof(argv[i + 1]);
        else if (a == "--work-us") o.work_us = std::atoi(argv[i + 1]);
        else if (a == "--spin-count") o.tuned.spin_count = static_cast<uint32_t>(std::atol(argv[i + 1]));
        else if (a == "--yield-count") o.tuned.yield_count = static_cast<uint32_t>(std::atol(argv[i + 1]));
        else if (a == "--min-sleep-us") o.tuned.min_sleep_us = static_cast<uint32_t>(std::atol(argv[i + 1]));
        else if (a == "--max-sleep-us") o.tuned.max_sleep_us = static_cast<uint32_t>(std::atol(argv[i + 1]));
    }
    if (o.procs < 2 || (o.policy != "spin" && o.policy != "yield" && o.policy != "backoff")) {
        std::fprintf(stderr, "usage: progress_pingpong --procs N(>=2) --policy spin|yield|backoff [--seconds S] [--work-us N]\n"
                             "         [--spin-count N] [--yield-count N] [--min-sleep-us N] [--max-sleep-us N]\n");
        std::exit(2);
    }
    return o;
}

}  // namespace

int main(int argc, char **argv) {
    const Options o = parse(argc, argv);
    SharedMapping map(sizeof(Shared) + sizeof(Slot) * o.procs);
    auto *sh = new (map.get()) Shared;
    for (int r = 1; r < o.procs; ++r) new (&sh->slots[r]) Slot;
    std::vector<pid_t> kids;
    for (int r = 0; r < o.procs; ++r) {
        pid_t pid = fork();
        if (pid == 0) run_rank(sh, r, o);
        kids.push_back(pid);
    }
    while (sh->ready.load() < o.procs) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const auto start = std::chrono::steady_clock::now();
    sh->go.store(1, std::memory_order_release);
    std::this_thread::sleep_for(std::chrono::duration<double>(o.seconds));
    sh->stop.store(1, std::memory_order_release);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (pid_t k : kids) waitpid(k, nullptr, 0);
    uint64_t hops = 0, yields = 0, sleeps = 0;
    for (int r = 0; r < o.procs; ++r) {
        hops = std::max<uint64_t>(hops, sh->slots[r].passed.load());  // the hops made
        yields += sh->slots[r].yields.load();
        sleeps += sh->slots[r].sleeps.load();
    }
    const double hps = hops / elapsed;
    std::printf("%d,%s,%d,%.3f,%llu,%.0f,%.1f,%.2f,%llu,%llu\n", o.procs, o.policy.c_str(), o.work_us, elapsed,
                static_cast<unsigned long long>(hops), hps, hps / o.procs, hops ? 1e6 / hps : 0.0,
                static_cast<unsigned long long>(yields), static_cast<unsigned long long>(sleeps));
    return 0;
}
