// The job's life: start, reap, fail, kill, clean up.
#include "launcher.h"

#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>

#include "failure.h"
#include "secret.h"
#include "signals.h"
#include "trace.h"

namespace plexrun {
namespace {

// How long ranks get between the first signal and SIGKILL.
constexpr std::chrono::milliseconds kGrace{3000};
// Signals closer together than this are one signal delivered twice, not a second ^C.
constexpr std::chrono::milliseconds kSameSignal{500};
// How long libpmix gets to shut down once every rank has ended. It takes milliseconds, except
// after a PMIx_Connect or PMIx_Disconnect given a PMIX_TIMEOUT: libpmix 4.2.2 then keeps the
// timer and its finalize waits for it (20 s for a 20 s timeout).
constexpr std::chrono::milliseconds kFinalizeLimit{2000};

std::unique_ptr<CoreMap> load_cores(BindPolicy policy) {
    if (policy == BindPolicy::None) return nullptr;
    try {
        return std::make_unique<CoreMap>();
    } catch (const std::exception &e) {
        if (policy == BindPolicy::Core) throw;
        return nullptr;  // automatic binding quietly becomes none
    }
}

}  // namespace

Launcher::Launcher(Options options)
    : options_(std::move(options)),
      cores_(load_cores(options_.bind)),
      output_(loop_, options_.tag_output),
      signals_(open_signalfd()) {
    // Orphans of the ranks are re-parented to plexrun, which reaps them.
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    trace("%s",
          cores_ ? ("hwloc: " + std::to_string(cores_->cores()) + " cores").c_str() : "no binding");
    loop_.watch(signals_.get(), EPOLLIN, [this](uint32_t) { on_signals(); });
    server_ = std::make_unique<PmixServer>(dir_.path(), &loop_, this);
    launcher_ =
        std::make_unique<NamespaceLauncher>(loop_, *server_, output_, job_, options_, cores_.get());
    start_rendezvous();
    store_.on_publish([this] { retry_spanning_here(); });
}

Launcher::~Launcher() {
    kill_and_reap_everything();
    store_.cancel_waiting();  // its answers go to libpmix, so before it is finalised
    cancel_remote_work();
    launcher_.reset();
    server_.reset();
}

int Launcher::run() {
    start_first_namespace();
    arm_timeout();
    if (job_.running_ranks() > 0) loop_.run();
    finish();
    return exit_status_.value_or(0);
}

void Launcher::start_first_namespace() {
    AppSpec app;
    app.command = options_.command[0];
    app.argv = options_.command;
    app.procs = options_.ranks;
    Namespace &ns = job_.add_namespace({app}, std::nullopt);
    try {
        launcher_->launch(ns);
    } catch (const LaunchError &e) {
        bool started = job_.running_ranks() > 0;
        fail(e.exit_status,
             std::string("plexrun: ") + e.what() + (started ? "; killing the job" : ""));
    }
}

void Launcher::arm_timeout() {
    if (!options_.timeout_seconds) return;
    double s = *options_.timeout_seconds;
    auto ms = std::chrono::milliseconds(static_cast<long long>(std::ceil(s * 1000)));
    loop_.after(ms, [this, s] {
        char text[64];
        std::snprintf(text, sizeof text, "%g", s);
        fail(124, std::string("plexrun: the job timed out after ") + text + " s (" +
                      options_.timeout_source + "); killing the job");
    });
}

void Launcher::on_signals() {
    signalfd_siginfo si;
    while (::read(signals_.get(), &si, sizeof si) == sizeof si) {
        int sig = static_cast<int>(si.ssi_signo);
        if (sig == SIGCHLD) {
            // libpmix posted a rank's finalize or abort before the rank could exit.
            loop_.run_posted();
            reap_children();
        } else if (sig == SIGUSR1 || sig == SIGUSR2) {
            signal_ranks(sig);
        } else if (exit_status_) {
            // Already ending, or a second ^C: no more patience. A repeat within moments is
            // one signal delivered twice (timeout(1) signals its child and its group).
            if (!first_signal_ || EventLoop::Clock::now() - *first_signal_ > kSameSignal)
                signal_ranks(SIGKILL);
        } else {
            first_signal_ = EventLoop::Clock::now();
            exit_status_ = 128 + sig;
            std::fprintf(stderr,
                         "plexrun: caught %s; forwarding it to %d rank(s), SIGKILL in %lld s\n",
                         signal_abbrev(sig), job_.running_ranks(),
                         static_cast<long long>(kGrace.count() / 1000));
            kill_job(sig);
        }
    }
    if (job_.running_ranks() == 0) loop_.stop();
}

void Launcher::reap_children() {
    siginfo_t info;
    for (;;) {
        info.si_pid = 0;
        // Peek first: until it is reaped, the ended rank still holds its pid, and so its
        // process group id cannot have been reused by anyone else.
        if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0) return;
        pid_t pid = info.si_pid;
        auto [ns, r] = job_.find(pid);
        bool rank = ns && r->running;
        if (rank) ::kill(-pid, SIGKILL);  // what the rank left running in its group
        int status;
        if (::waitpid(pid, &status, 0) != pid) return;
        if (rank) rank_ended(*ns, *r, status);
        // anything else was a rank's orphan (plexrun is their subreaper), now reaped
    }
}

void Launcher::rank_ended(Namespace &ns, RankRecord &r, int wait_status) {
    r.running = false;
    lost_client_ |= r.connected && !r.finalized;
    trace("%s:%u (pid %d) ended: wait status 0x%x", ns.name.c_str(), r.rank, r.pid, wait_status);
    store_.process_ended(ProcName{ns.name, r.rank});
    if (ns.abandoned || exit_status_) return;  // we are killing it: not news
    if (auto failure = judge_rank_end(ns, r, wait_status))
        return fail(failure->exit_status, failure->message, failure->ordinary);
    purge_if_ended(ns);
}

// A namespace whose ranks all ended well, and whose spawned jobs all ended and were dropped,
// is dropped from libpmix, which would otherwise keep its data for plexrun's life: tens of
// kilobytes per spawned job, for ever, under a program that spawns 1,000 of them. A job's
// children may still read its keys after it ended (its size, its cards), hence the wait for them;
// its parent is looked at again once it is dropped.
void Launcher::purge_if_ended(Namespace &ns) {
    if (ns.purged) return;
    for (const RankRecord &r : ns.ranks)
        if (r.running || (r.connected && !r.finalized)) return;
    for (const auto &other : job_.namespaces())
        if (other->parent && other->parent->nspace == ns.name && !other->purged) return;
    ns.purged = true;
    bool done = server_->deregister_namespace(ns.name);
    trace("namespace %s ended%s", ns.name.c_str(), done ? "; libpmix forgot it" : "; libpmix did not confirm");
    if (ns.parent)
        if (Namespace *parent = job_.find(ns.parent->nspace)) purge_if_ended(*parent);
}

void Launcher::fail(int exit_status, const std::string &message, bool ordinary) {
    if (exit_status_) return;  // one failure, one message
    exit_status_ = exit_status;
    if (!ordinary || options_.verbose) std::fprintf(stderr, "%s\n", message.c_str());
    kill_job(SIGTERM);
}

void Launcher::signal_ranks(int sig) {
    for (auto &ns : job_.namespaces())
        for (RankRecord &r : ns->ranks)
            if (r.running) ::kill(-r.pid, sig);  // the rank's process group: it and its children
}

void Launcher::kill_job(int first_signal) {
    signal_ranks(first_signal);
    if (escalation_armed_) return;
    escalation_armed_ = true;
    loop_.after(kGrace, [this] { signal_ranks(SIGKILL); });
    if (job_.running_ranks() == 0) loop_.stop();
}

void Launcher::kill_namespace(Namespace &ns) {
    ns.abandoned = true;
    for (RankRecord &r : ns.ranks)
        if (r.running) ::kill(-r.pid, SIGKILL);
}

// Every rank has ended: forward their last output, then remove what the job leaves behind.
void Launcher::finish() {
    output_.drain_all();
    // What nobody read or withdrew (tests/launcher check that a failed meeting leaves nothing).
    trace("publish store: %zu value(s) left at the end", store_.size());
    store_.cancel_waiting();
    cancel_remote_work();
    if (rendezvous_) rendezvous_->remove_files();  // nobody should find us from here on
    kill_and_reap_everything();
    for (auto &ns : job_.namespaces()) {
        int n = remove_shm_objects(ns->shm_prefix());
        trace("removed %d /dev/shm object(s) of %s", n, ns->name.c_str());
    }
    launcher_.reset();
    // libpmix 4.2.2 crashes in PMIx_server_finalize (about one run in two) once clients died
    // in the middle of a fence: not finalizing is then the only safe way out.
    if (lost_client_) leave_without_libpmix("a client ended without PMIx_Finalize");
    trace("finalizing libpmix");
    if (!server_->finalize(kFinalizeLimit)) {
        // Every client finalized and everything else is cleaned up: nothing is lost by leaving
        // libpmix as it is, so only --verbose says so.
        if (options_.verbose)
            std::fprintf(stderr, "plexrun: libpmix did not shut down within %lld ms; exiting without it\n",
                         static_cast<long long>(kFinalizeLimit.count()));
        leave_without_libpmix("PMIx_server_finalize hangs");
    }
    server_.reset();  // before its directory goes (with dir_)
    trace("libpmix finalized");
}

// Everything else is clean by now; the directory is the last thing to go. _exit, because
// libpmix's thread is still running and an orderly exit would run destructors under it.
void Launcher::leave_without_libpmix(const char *why) {
    trace("leaving without finalizing libpmix: %s", why);
    if (rendezvous_) rendezvous_->remove_files();
    remove_tree(dir_.path());
    std::fflush(nullptr);
    ::_exit(exit_status_.value_or(0));
}

// Also the safety net for an exception: no rank, and none of their children, outlives us.
void Launcher::kill_and_reap_everything() {
    signal_ranks(SIGKILL);
    for (auto &ns : job_.namespaces())
        for (RankRecord &r : ns->ranks)
            if (r.running && ::waitpid(r.pid, nullptr, 0) == r.pid) r.running = false;
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
}

}  // namespace plexrun
