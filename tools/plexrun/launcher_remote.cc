// PMIx across the plexruns of this user on this machine (rendezvous.h): connect/disconnect
// fences that span them, direct modex of their processes, lookups in their stores, and the
// answers to theirs.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <utility>

#include "launcher.h"
#include "trace.h"

namespace plexrun {
namespace {

// How often a waiting lookup asks the other plexruns again.
constexpr std::chrono::milliseconds kLookupRetry{100};
// How long one round of a lookup waits for the other plexruns' answers: a plexrun that is
// stopped (SIGSTOP) or stuck must not hold a lookup past its PMIX_TIMEOUT.
constexpr std::chrono::milliseconds kRoundLimit{2000};

// Both sides of a connect see the same participants (libpmix sorts them); the kind keeps a
// connect and a disconnect of the same group apart.
std::string signature_of(FenceKind kind, const std::vector<ProcName> &procs) {
    std::vector<std::string> names;
    for (const ProcName &p : procs)
        names.push_back(p.nspace + ":" + (p.rank == PMIX_RANK_WILDCARD ? "*" : std::to_string(p.rank)));
    std::sort(names.begin(), names.end());
    std::string sig = kind == FenceKind::Connect ? "connect" : "disconnect";
    for (const std::string &n : names) sig += " " + n;
    return sig;
}

}  // namespace

void Launcher::start_rendezvous() {
    try {
        rendezvous_ = std::make_unique<Rendezvous>(loop_, *this);
    } catch (const std::exception &e) {
        // The job runs anyway; only what spans plexruns is missing. Said under --verbose only:
        // every job's output would carry it on a machine where /tmp/plexus-UID is not usable.
        trace("no rendezvous with other plexruns: %s", e.what());
        if (options_.verbose) std::fprintf(stderr, "plexrun: no rendezvous with other plexruns: %s\n", e.what());
    }
}

// ---------------------------------------------------------------- connect / disconnect

void Launcher::fence_across(FenceKind kind, std::vector<ProcName> procs, int timeout_s, OpDone done) {
    std::set<pid_t> others;
    for (const ProcName &p : procs) {
        if (job_.find(p.nspace)) continue;
        pid_t pid = plexrun_of(p.nspace);
        if (!pid || pid == ::getpid() || !rendezvous_) {
            trace("connect: nobody hosts namespace %s", p.nspace.c_str());
            return done(PMIX_ERR_UNREACH);
        }
        others.insert(pid);
    }
    if (others.empty()) return done(PMIX_SUCCESS);
    const std::string sig = signature_of(kind, procs);
    // Sent before the state exists: a link lost while sending fails only older fences.
    for (pid_t pid : others)
        if (!rendezvous_->send_fence(pid, sig)) {
            trace("%s: plexrun %d unreachable", sig.c_str(), pid);
            return done(PMIX_ERR_UNREACH);
        }
    CrossFence &f = fences_[sig];
    f.done = std::move(done);
    f.needed = std::move(others);
    if (timeout_s > 0)
        f.timer = loop_.after(std::chrono::seconds(timeout_s), [this, sig] {
            auto it = fences_.find(sig);
            if (it == fences_.end() || !it->second.done) return;
            OpDone d = std::move(*it->second.done);
            fences_.erase(it);
            trace("%s: timed out", sig.c_str());
            d(PMIX_ERR_TIMEOUT);
        });
    try_fence(sig);
}

void Launcher::fence_arrived(pid_t from, const std::string &signature) {
    trace("rendezvous: fence '%s' from plexrun %d", signature.c_str(), from);
    ++fences_[signature].arrived[from];
    try_fence(signature);
}

// Complete once this side arrived and every other plexrun's message is here; a message that
// came early (the other side is a fence ahead) stays counted for the next one.
void Launcher::try_fence(const std::string &signature) {
    auto it = fences_.find(signature);
    if (it == fences_.end() || !it->second.done) return;
    CrossFence &f = it->second;
    for (pid_t pid : f.needed)
        if (f.arrived[pid] < 1) return;
    for (pid_t pid : f.needed)
        if (--f.arrived[pid] == 0) f.arrived.erase(pid);
    OpDone d = std::move(*f.done);
    if (f.timer) loop_.cancel(f.timer);
    if (f.arrived.empty()) {
        fences_.erase(it);
    } else {
        f.done.reset();
        f.needed.clear();
        f.timer = 0;
    }
    trace("%s: complete", signature.c_str());
    d(PMIX_SUCCESS);
}

void Launcher::plexrun_lost(pid_t pid) {
    std::vector<OpDone> failed;
    for (auto it = fences_.begin(); it != fences_.end();) {
        CrossFence &f = it->second;
        if (f.done && f.needed.count(pid) && f.arrived[pid] < 1) {
            if (f.timer) loop_.cancel(f.timer);
            failed.push_back(std::move(*f.done));
            it = fences_.erase(it);
        } else {
            ++it;
        }
    }
    trace("rendezvous: lost plexrun %d; %zu fence(s) fail", pid, failed.size());
    for (OpDone &d : failed) d(PMIX_ERR_UNREACH);
}

// ---------------------------------------------------------------- direct modex

// The first request about another plexrun's namespace registers it with libpmix first (as a
// namespace with no process here, and its size): libpmix otherwise files it, at the first
// answer, as a namespace whose registration is still to come, and a PMIx_Connect naming it
// would then wait for that registration for ever. Requests for the job-level data
// (PMIX_RANK_WILDCARD) are answered by the registration itself; the others are forwarded.
void Launcher::direct_modex(const ProcName &proc, int timeout_s, ModexDone done) {
    pid_t pid = plexrun_of(proc.nspace);
    if (job_.find(proc.nspace) || !pid || pid == ::getpid() || !rendezvous_)
        return done(PMIX_ERR_NOT_FOUND, {});
    if (timeout_s > 0) {
        // libpmix leaves the PMIx_Get's timeout to the host: the first of the answer and the
        // timer answers, the other finds it done.
        auto once = std::make_shared<ModexDone>(std::move(done));
        loop_.after(std::chrono::seconds(timeout_s), [once] {
            if (*once) std::exchange(*once, nullptr)(PMIX_ERR_TIMEOUT, {});
        });
        done = [once](pmix_status_t s, std::vector<char> data) {
            if (*once) std::exchange(*once, nullptr)(s, std::move(data));
        };
    }
    if (remote_namespaces_.count(proc.nspace)) return modex_of_known(proc, std::move(done));
    auto &waiting = awaiting_job_[proc.nspace];
    waiting.emplace_back(proc, std::move(done));
    if (waiting.size() > 1) return;  // its registration is on the way
    const std::string nspace = proc.nspace;
    rendezvous_->job(pid, nspace, [this, nspace](bool found, RemoteJob job) {
        auto waiting = std::move(awaiting_job_[nspace]);
        awaiting_job_.erase(nspace);
        if (found) {
            try {
                learn_remote_job(nspace, job);
            } catch (const std::exception &e) {
                trace("cannot register %s: %s", nspace.c_str(), e.what());
                found = false;
            }
        }
        for (auto &[p, d] : waiting)
            if (found)
                modex_of_known(p, std::move(d));
            else
                d(PMIX_ERR_NOT_FOUND, {});
    });
}

void Launcher::learn_remote_job(const std::string &nspace, RemoteJob job) {
    InfoList info;
    info.add_string(PMIX_JOBID, nspace);
    info.add_u32(PMIX_JOB_SIZE, job.size);
    info.add_u32(PMIX_MAX_PROCS, job.size);
    info.add_u32(PMIX_UNIV_SIZE, job.universe_size);
    info.add_u32(PMIX_JOB_NUM_APPS, job.apps);
    info.add_u32(PMIX_NUM_NODES, 1);
    server_->register_namespace(nspace, 0, info);
    remote_namespaces_.insert(nspace);
    trace("registered %s of another plexrun (%u processes)", nspace.c_str(), job.size);
}

void Launcher::modex_of_known(const ProcName &proc, ModexDone done) {
    if (proc.rank == PMIX_RANK_WILDCARD) return done(PMIX_SUCCESS, {});  // registered: libpmix has it
    std::string who = proc.nspace + ":" + std::to_string(proc.rank);
    rendezvous_->dmodex(plexrun_of(proc.nspace), proc, [who, done = std::move(done)](pmix_status_t s, std::vector<char> data) {
        trace("data of %s: %s, %zu bytes", who.c_str(), pmix_error(s).c_str(), data.size());
        done(s, std::move(data));
    });
}

bool Launcher::answer_job(const std::string &nspace, RemoteJob *out) {
    const Namespace *ns = job_.find(nspace);
    if (!ns) return false;
    out->size = static_cast<uint32_t>(ns->ranks.size());
    out->universe_size = launcher_ ? launcher_->universe_size() : 0;
    out->apps = static_cast<uint32_t>(ns->apps.size());
    return true;
}

namespace {

struct PendingModex {
    EventLoop *loop;
    ModexDone done;
};

// On libpmix's thread: copy the data and take it to the event loop.
void modex_ready(pmix_status_t status, char *data, size_t size, void *cbdata) {
    auto *p = static_cast<PendingModex *>(cbdata);
    std::vector<char> bytes;
    if (data && size) bytes.assign(data, data + size);
    p->loop->post([p, status, bytes = std::move(bytes)]() mutable {
        p->done(status, std::move(bytes));
        delete p;
    });
}

}  // namespace

void Launcher::answer_dmodex(const ProcName &proc, ModexDone done) {
    // A namespace libpmix forgot (ended, purge_if_ended) would be held there for ever.
    const Namespace *ns = job_.find(proc.nspace);
    if (!ns || ns->purged) return done(PMIX_ERR_NOT_FOUND, {});
    auto *p = new PendingModex{&loop_, std::move(done)};
    pmix_proc_t target = proc.to_pmix();
    // libpmix answers once the process has committed its data (it may not have yet).
    pmix_status_t rc = PMIx_server_dmodex_request(&target, modex_ready, p);
    if (rc != PMIX_SUCCESS) {
        ModexDone d = std::move(p->done);
        delete p;
        d(rc, {});
    }
}

// ---------------------------------------------------------------- publish / lookup

// Another plexrun's lookup takes what it finds as this plexrun's own would (a FIRST_READ value
// is read once, wherever the reader is).
std::vector<FoundEntry> Launcher::answer_lookup(const ProcName &requester,
                                                const std::vector<std::string> &keys) {
    return store_.take_now(requester, keys);
}

std::vector<std::string> Launcher::missing_keys(const SpanningLookup &op) const {
    std::vector<std::string> missing;
    for (const std::string &k : op.request.keys)
        if (!op.found.count(k)) missing.push_back(k);
    return missing;
}

// This plexrun's store first (again at every publish here, so a local answer comes at once),
// then every other plexrun for what is still missing.
void Launcher::lookup_everywhere(const std::shared_ptr<SpanningLookup> &op) {
    if (look_here(op)) return;
    std::vector<std::string> missing = missing_keys(*op);
    std::vector<pid_t> others = rendezvous_ ? rendezvous_->others() : std::vector<pid_t>{};
    const int round = ++op->round;
    op->outstanding = static_cast<int>(others.size()) + 1;  // +1: answers that come at once
    for (pid_t pid : others)
        rendezvous_->lookup(pid, op->requester, missing, [this, op, round](bool, std::vector<FoundEntry> found) {
            if (op->round != round) return;
            for (FoundEntry &f : found) op->found.emplace(f.key, std::move(f));
            if (--op->outstanding == 0) conclude_lookup(op);
        });
    if (--op->outstanding == 0) return conclude_lookup(op);
    loop_.after(kRoundLimit, [this, op, round] {
        if (op->answered || op->round != round || op->outstanding == 0) return;
        trace("lookup: %d plexrun(s) did not answer within %lld ms", op->outstanding,
              static_cast<long long>(kRoundLimit.count()));
        op->outstanding = 0;
        ++op->round;  // their answers, if they come, are for nobody
        conclude_lookup(op);
    });
}

// True when the lookup is answered.
bool Launcher::look_here(const std::shared_ptr<SpanningLookup> &op) {
    if (op->answered) return true;
    for (FoundEntry &f : store_.take_now(op->requester, missing_keys(*op)))
        op->found.emplace(f.key, std::move(f));
    if (!satisfied(*op)) return false;
    answer_spanning(*op, PMIX_ERR_NOT_FOUND);
    spanning_.remove(op);
    return true;
}

void Launcher::retry_spanning_here() {
    auto ops = spanning_;  // answering removes from the list
    for (auto &op : ops) look_here(op);
}

bool Launcher::satisfied(const SpanningLookup &op) const {
    const LookupRequest &req = op.request;
    size_t needed = req.wait_for > 0 ? std::min<size_t>(req.wait_for, req.keys.size()) : req.keys.size();
    return op.found.size() >= needed;
}

void Launcher::conclude_lookup(const std::shared_ptr<SpanningLookup> &op) {
    if (op->answered) return;
    if (op->request.wait_for < 0 || satisfied(*op)) {
        answer_spanning(*op, PMIX_ERR_NOT_FOUND);
    } else if (EventLoop::Clock::now() >= op->deadline) {
        answer_spanning(*op, PMIX_ERR_TIMEOUT);
    } else {
        loop_.after(kLookupRetry, [this, op] {
            if (!op->answered) lookup_everywhere(op);
        });
        return;
    }
    spanning_.remove(op);
}

void Launcher::answer_spanning(SpanningLookup &op, pmix_status_t status_if_none) {
    op.answered = true;
    trace("lookup by %s:%u of %s answered: %zu found", op.requester.nspace.c_str(), op.requester.rank,
          op.request.keys.empty() ? "-" : op.request.keys[0].c_str(), op.found.size());
    if (op.found.empty()) return op.done(status_if_none, nullptr, 0);
    pmix_pdata_t *data;
    PMIX_PDATA_CREATE(data, op.found.size());
    size_t i = 0;
    for (auto &[key, f] : op.found) {
        data[i].proc = f.publisher.to_pmix();
        PMIX_LOAD_KEY(data[i].key, key.c_str());
        unpack_value(f.value, &data[i].value);
        ++i;
    }
    op.done(PMIX_SUCCESS, data, op.found.size());  // libpmix packs the answer before returning
    PMIX_PDATA_FREE(data, op.found.size());
}

// ---------------------------------------------------------------- publish

// Two plexruns publishing one name at once must not both succeed: while a publish asks the
// others, its names count as held here for a plexrun of a larger pid asking, and as free for one
// of a smaller pid; so of two concurrent publishes the smaller pid's wins and the other is
// refused. A plexrun that cannot be reached (or does not answer within kRoundLimit) holds nothing.
void Launcher::publish_everywhere(const ProcName &proc, PublishRequest request, OpDone done) {
    auto op = std::make_shared<SpanningPublish>();
    op->publisher = proc;
    for (const auto &[key, value] : request.entries) op->keys.push_back(key);
    if (store_.holds(proc, op->keys)) return done(PMIX_ERR_DUPLICATE_KEY);
    for (const std::string &k : op->keys)
        if (pending_names_.count(k)) return done(PMIX_ERR_DUPLICATE_KEY);
    op->request = std::move(request);
    op->done = std::move(done);
    for (const std::string &k : op->keys) ++pending_names_[k];
    spanning_publishes_.push_back(op);
    std::vector<pid_t> others = rendezvous_->others();
    op->outstanding = static_cast<int>(others.size()) + 1;  // +1: answers that come at once
    for (pid_t pid : others)
        rendezvous_->holds(pid, proc, op->keys, [this, op](bool, bool held) {
            op->held = op->held || held;
            if (--op->outstanding == 0) conclude_publish(op);
        });
    if (--op->outstanding == 0) return conclude_publish(op);
    loop_.after(kRoundLimit, [this, op] {
        if (op->answered) return;
        trace("publish: %d plexrun(s) did not answer within %lld ms", op->outstanding,
              static_cast<long long>(kRoundLimit.count()));
        op->outstanding = 0;
        conclude_publish(op);
    });
}

void Launcher::conclude_publish(const std::shared_ptr<SpanningPublish> &op) {
    if (op->answered) return;
    op->answered = true;
    for (const std::string &k : op->keys)
        if (--pending_names_[k] == 0) pending_names_.erase(k);
    spanning_publishes_.remove(op);
    if (op->held) {
        trace("publish of %s by %s:%u refused: another plexrun holds it", op->keys.empty() ? "-" : op->keys[0].c_str(),
              op->publisher.nspace.c_str(), op->publisher.rank);
        return op->done(PMIX_ERR_DUPLICATE_KEY);
    }
    op->done(store_.publish(op->publisher, std::move(op->request)));  // retries the lookups waiting here
}

bool Launcher::answer_holds(pid_t from, const ProcName &publisher, const std::vector<std::string> &keys) {
    if (store_.holds(publisher, keys)) return true;
    if (from > ::getpid())
        for (const std::string &k : keys)
            if (pending_names_.count(k)) return true;
    return false;
}

// The job ends: everything still waiting is answered while libpmix can take the answers.
void Launcher::cancel_remote_work() {
    auto publishes = std::move(spanning_publishes_);
    spanning_publishes_.clear();
    for (auto &op : publishes)
        if (!op->answered) {
            op->answered = true;
            op->done(PMIX_ERR_UNREACH);
        }
    pending_names_.clear();
    auto lookups = std::move(spanning_);
    spanning_.clear();
    for (auto &op : lookups)
        if (!op->answered) answer_spanning(*op, PMIX_ERR_TIMEOUT);
    auto jobs = std::move(awaiting_job_);
    awaiting_job_.clear();
    for (auto &[ns, waiting] : jobs)
        for (auto &[p, d] : waiting) d(PMIX_ERR_NOT_FOUND, {});
    std::vector<OpDone> fences;
    for (auto &[sig, f] : fences_)
        if (f.done) fences.push_back(std::move(*f.done));
    fences_.clear();
    for (OpDone &d : fences) d(PMIX_ERR_UNREACH);
    if (rendezvous_) rendezvous_->close_links();
}

}  // namespace plexrun
