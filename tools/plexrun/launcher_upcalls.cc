// The Launcher's answers to libpmix's upcalls (already moved to the event loop's thread).
#include <cstdio>

#include "failure.h"
#include "launcher.h"
#include "trace.h"

namespace plexrun {

void Launcher::client_connected(const ProcName &proc, OpDone done) {
    if (RankRecord *r = job_.find(proc)) r->connected = true;
    done(PMIX_SUCCESS);
}

// Recorded before libpmix releases the client, so before it can exit: an exit is never
// seen ahead of the finalize that preceded it.
void Launcher::client_finalized(const ProcName &proc, OpDone done) {
    if (RankRecord *r = job_.find(proc)) r->finalized = true;
    done(PMIX_SUCCESS);
}

void Launcher::abort(const ProcName &proc, int status, const std::string &message) {
    Namespace *ns = job_.find(proc.nspace);
    RankRecord *r = job_.find(proc);
    if (!ns || !r) {
        fail(status & 0xff ? status & 0xff : 1,
             "plexrun: " + proc.nspace + ":" + std::to_string(proc.rank) +
                 " called abort: " + message + "; killing the job");
        return;
    }
    Failure f = abort_failure(*ns, *r, status, message);
    fail(f.exit_status, f.message);
}

void Launcher::kill_request(const ProcName &proc) {
    Namespace *ns = job_.find(proc.nspace);
    RankRecord *r = job_.find(proc);
    std::string who =
        ns && r ? describe_rank(*ns, *r) : proc.nspace + ":" + std::to_string(proc.rank);
    fail(1,
         "plexrun: " + who + " asked (PMIx_Job_control) for the job to be killed; killing the job");
}

// A name another plexrun holds is a duplicate too (PMIx: PMIX_ERR_DUPLICATE_KEY, MPI:
// MPI_ERR_SERVICE), so while other plexruns run they are asked first; what only this store can
// see (the narrow ranges) stays here.
void Launcher::publish(const ProcName &proc, PublishRequest request, OpDone done) {
    const bool narrow = request.range == PMIX_RANGE_PROC_LOCAL || request.range == PMIX_RANGE_NAMESPACE;
    if (!narrow && rendezvous_ && !rendezvous_->others().empty())
        return publish_everywhere(proc, std::move(request), std::move(done));
    for (const auto &[key, value] : request.entries)
        if (pending_names_.count(key)) return done(PMIX_ERR_DUPLICATE_KEY);  // asked about elsewhere
    done(store_.publish(proc, std::move(request)));
}

// A lookup that waits for what this store does not have yet, or that misses here while other
// plexruns run, asks them too (every 100 ms while it waits, since a name may be published in any
// of them later; this store again at each publish here). What this store answers alone stays
// with it: the narrow ranges, and everything found here at once.
void Launcher::lookup(const ProcName &proc, LookupRequest request, LookupDone done) {
    bool narrow = request.range == PMIX_RANGE_PROC_LOCAL || request.range == PMIX_RANGE_NAMESPACE;
    bool waits = request.wait_for >= 0;
    bool all_here = store_.visible_count(proc, request.keys) == request.keys.size();
    if (narrow || !rendezvous_ || all_here || (!waits && rendezvous_->others().empty()))
        return store_.lookup(proc, std::move(request), std::move(done));
    auto op = std::make_shared<SpanningLookup>();
    op->requester = proc;
    op->deadline = request.timeout_seconds > 0
                       ? EventLoop::Clock::now() + std::chrono::seconds(request.timeout_seconds)
                       : EventLoop::Clock::time_point::max();
    op->request = std::move(request);
    op->done = std::move(done);
    trace("lookup by %s:%u %s %s (here and in other plexruns)", proc.nspace.c_str(), proc.rank,
          waits ? "waits for" : "asks for", op->request.keys.empty() ? "-" : op->request.keys[0].c_str());
    spanning_.push_back(op);
    lookup_everywhere(op);
}

void Launcher::unpublish(const ProcName &proc, std::vector<std::string> keys, OpDone done) {
    store_.unpublish(proc, keys);
    done(PMIX_SUCCESS);
}

// The new namespace's ranks are plexrun's children like the first ones: same output
// forwarding, same failure rules, same cleanup.
void Launcher::spawn(const ProcName &proc, std::vector<AppSpec> apps, SpawnDone done) {
    if (exit_status_) return done(PMIX_ERR_JOB_FAILED_TO_LAUNCH, "");
    long procs = 0;
    for (const AppSpec &app : apps) {
        if (app.procs < 1 || app.command.empty()) return done(PMIX_ERR_BAD_PARAM, "");
        procs += app.procs;
    }
    // The universe the user declared is a limit on what runs at once; the default is not (plexrun
    // oversubscribes the CPUs for spawned jobs as it does for -n).
    if (options_.universe_size && job_.running_ranks() + procs > *options_.universe_size) {
        std::fprintf(stderr,
                     "plexrun: spawn of %ld process(es) by %s:%u refused: %d of the universe's %d "
                     "slots (--universe-size) are taken\n",
                     procs, proc.nspace.c_str(), proc.rank, job_.running_ranks(),
                     *options_.universe_size);
        return done(PMIX_ERR_OUT_OF_RESOURCE, "");
    }
    Namespace &ns = job_.add_namespace(std::move(apps), proc);
    try {
        launcher_->launch(ns);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "plexrun: spawn by %s:%u failed: %s\n", proc.nspace.c_str(), proc.rank,
                     e.what());
        kill_namespace(ns);
        return done(PMIX_ERR_JOB_FAILED_TO_LAUNCH, "");
    }
    trace("spawned %s for %s:%u", ns.name.c_str(), proc.nspace.c_str(), proc.rank);
    done(PMIX_SUCCESS, ns.name);
}

}  // namespace plexrun
