// The runtime facade: picks the backend (PMIx or singleton), settles the job secret before any
// component opens, and counts its users so that init and finalize may nest.
#include "runtime/runtime.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "base/output.h"
#include "plexus_config.h"
#include "runtime/pmix_backend.h"
#include "runtime/singleton_backend.h"

namespace plexus::runtime {
namespace {

std::mutex g_lock;  // init and finalize
// Deliberately not a smart pointer with a static destructor: a process that never calls
// finalize must not be finalized behind its back at exit, so that the launcher can report it.
std::atomic<Runtime *> g_runtime{nullptr};
int g_users = 0;

std::string millis(std::chrono::nanoseconds t) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f ms", std::chrono::duration<double, std::milli>(t).count());
    return buf;
}

std::string describe(const JobInfo &j) {
    std::string s = j.nspace + " rank " + std::to_string(j.rank) + " of " + std::to_string(j.size) +
                    ", local rank " + std::to_string(j.local_rank) + " of " +
                    std::to_string(j.local_size) + ", node " + std::to_string(j.node_id);
    if (j.parent) s += ", spawned by " + j.parent->nspace + ":" + std::to_string(j.parent->rank);
    return s;
}

// Whether the init fence ships every card to every process. The user's runtime_modex_collect
// stands; unset, a job on one node fetches cards on first contact (its peers' cards are with its
// own server), and a job across nodes collects them: a peer on another node would be asked
// through its server (a direct modex), and PMIx 4.2.2's server answers such a request from what
// it already holds of that process when it holds anything, here rank 0's job secret read before
// the components opened, not from the fresh copy it fetched; the card is then NOT_FOUND, as
// often as one step in two across two hosts under Slurm 22.05 (tests/multinode/README.md).
bool collect_cards(const RuntimeSettings &s, const JobInfo &j) {
    if (s.modex_collect) return *s.modex_collect;
    return j.local_size < j.size;
}

}  // namespace

namespace {
std::atomic<Runtime::SettingsSource> g_settings_source{nullptr};
}  // namespace

void Runtime::set_settings_source(SettingsSource source) { g_settings_source = source; }

Status Runtime::init() {
    if (SettingsSource source = g_settings_source.load())
        if (std::optional<RuntimeSettings> s = source()) return init(*s);
    return init(runtime_settings_from_process());
}

Status Runtime::init(const RuntimeSettings &settings) { return init(settings, nullptr); }

Status Runtime::init(const RuntimeSettings &settings, std::unique_ptr<Backend> backend) {
    std::lock_guard guard(g_lock);
    if (g_runtime.load()) {
        ++g_users;
        return Status::ok();
    }
    mca::set_framework_verbosity("runtime", settings.verbose);
    std::unique_ptr<Runtime> rt(new Runtime(settings));
    if (Status s = rt->start(std::move(backend)); !s) return s;  // rt's destructor disconnects
    g_runtime = rt.release();
    g_users = 1;
    return Status::ok();
}

void Runtime::finalize() {
    std::lock_guard guard(g_lock);
    Runtime *rt = g_runtime.load();
    if (!rt || --g_users > 0) return;
    g_runtime = nullptr;
    delete rt;
}

Runtime *Runtime::current() { return g_runtime.load(); }

Runtime::Runtime(const RuntimeSettings &settings) : settings_(settings) {}

Runtime::~Runtime() {
    modex_.reset();  // before the backend it talks to
    backend_.reset();
}

void Runtime::log(int level, const std::string &message) const { mca::emit(level, "runtime", message); }

Status Runtime::start(std::unique_ptr<Backend> backend) {
    backend_ = std::move(backend);
    if (!backend_)
        if (Status s = connect(); !s) return s;
    log(PLEXUS_LOG_DECISION, describe(job()));
    modex_ = std::make_unique<Modex>(*backend_);
    return settle_secret_before_fence();
}

Status Runtime::connect() {
    if (launched_by_pmix_server()) {
#ifdef PLEXUS_HAVE_PMIX
        if (Status s = PmixBackend::create(timeout_seconds(settings_.modex_timeout_ms), &backend_); !s) return s;
        log(PLEXUS_LOG_DECISION, "PMIx_Init took " + millis(backend_->connect_time()));
#else
        return Status::error(PLEXUS_ERR_NOT_SUPPORTED,
                             std::string("launched by a PMIx server (PMIX_NAMESPACE=") +
                                 std::getenv("PMIX_NAMESPACE") +
                                 ") but this Plexus was built without PMIx: reconfigure with libpmix-dev installed");
#endif
    } else {
        backend_ = std::make_unique<SingletonBackend>();
    }
    return Status::ok();
}

// The server's secret when it has one; else rank 0 makes one, and one extra fence carries it to
// the others before any component opens (components name their shared memory after it). Under
// plexrun the server has one and this costs nothing; under other servers (Slurm) it costs one
// fence of the namespace (docs/runtime-contract.md).
Status Runtime::settle_secret_before_fence() {
    if (job().singleton) return generate_secret("generated (singleton)");
    std::string hex;
    Status st = backend_->get_job_string(kSecretKey, &hex);
    if (st) {
        secret_ = JobSecret::from_hex(hex);
        if (!secret_)
            return Status::error(PLEXUS_ERROR, std::string("the server's ") + kSecretKey +
                                                   " is not 64 hex digits: '" + hex + "'");
        secret_source_ = "from the server";
        log(PLEXUS_LOG_DECISION, "job secret from the server, shm prefix " + secret_->shm_prefix());
        return Status::ok();
    }
    if (st.code != PLEXUS_ERR_NOT_FOUND) return st;
    return share_secret_of_rank0();
}

Status Runtime::generate_secret(const char *source) {
    JobSecret s;
    if (Status g = JobSecret::generate(&s); !g) return g;
    secret_ = s;
    secret_source_ = source;
    log(PLEXUS_LOG_DECISION, std::string("job secret ") + source + ", shm prefix " + s.shm_prefix());
    return Status::ok();
}

// Rank 0 puts and commits its secret, the namespace fences once (collecting, so that the
// others read it locally), and the others read it.
Status Runtime::share_secret_of_rank0() {
    if (job().rank == 0) {
        if (Status g = generate_secret("generated by rank 0 (the server has none)"); !g) return g;
        if (job().size == 1) return Status::ok();
        if (Status p = backend_->put_string(kSecretKey, secret_->hex()); !p) return p;
        if (Status c = backend_->commit(); !c) return c;
    }
    const auto start = std::chrono::steady_clock::now();
    if (Status f = backend_->fence({}, true, timeout_seconds(settings_.fence_timeout_ms)); !f)
        return Status::error(f.code, "the fence that shares rank 0's job secret: " + f.message);
    log(PLEXUS_LOG_DECISION, "the secret's fence took " + millis(std::chrono::steady_clock::now() - start));
    return job().rank == 0 ? Status::ok() : fetch_secret_from_rank0();
}

Status Runtime::fetch_secret_from_rank0() {
    std::vector<uint8_t> bytes;
    const ProcId rank0{job().nspace, 0};
    if (Status s = backend_->get(rank0, kSecretKey, timeout_seconds(settings_.modex_timeout_ms), &bytes); !s)
        return Status::error(s.code, "job secret from rank 0: " + s.message);
    auto secret = JobSecret::from_hex(std::string(bytes.begin(), bytes.end()));
    if (!secret) return Status::error(PLEXUS_ERROR, std::string("rank 0's ") + kSecretKey + " is not 64 hex digits");
    secret_ = secret;
    secret_source_ = "from rank 0";
    log(PLEXUS_LOG_DECISION, "job secret from rank 0, shm prefix " + secret_->shm_prefix());
    return Status::ok();
}

Status Runtime::secret(JobSecret *out) const {
    *out = *secret_;  // settled before init returned
    return Status::ok();
}

Status Runtime::shm_prefix(std::string *out) const {
    JobSecret s;
    if (Status st = secret(&s); !st) return st;
    *out = s.shm_prefix();
    return Status::ok();
}

Status Runtime::fence_init() {
    if (modex_->fenced()) return fence();
    const auto start = std::chrono::steady_clock::now();
    const bool collect = collect_cards(settings_, job());
    if (Status s = modex_->commit_and_fence(collect, timeout_seconds(settings_.fence_timeout_ms)); !s) return s;
    log(PLEXUS_LOG_DECISION, std::string("init fence (") + (collect ? "collecting every card" : "cards fetched on first contact") +
                                 ") took " + millis(std::chrono::steady_clock::now() - start));
    return Status::ok();
}

Status Runtime::fence(const std::vector<ProcId> &procs) {
    return backend_->fence(procs, false, timeout_seconds(settings_.fence_timeout_ms));
}

void Runtime::abort(int status, const std::string &message) {
    mca::emit(PLEXUS_LOG_ERROR, "runtime", job().nspace + ":" + std::to_string(job().rank) +
                                               " aborts the job (status " + std::to_string(status) + "): " + message);
    // The server normally kills the job before PMIx_Abort returns; whatever it did, this process
    // does not go on (and does not finalize: the launcher must see a failure).
    if (Status s = backend_->abort(status, message); !s)
        mca::emit(PLEXUS_LOG_ERROR, "runtime", "abort request failed (" + s.message + "); exiting");
    std::_Exit(status == 0 ? 1 : status);
}

Status Runtime::spawn(const SpawnRequest &request, std::string *nspace) {
    Status s = backend_->spawn(request, nspace);
    if (s) log(PLEXUS_LOG_DECISION, "spawned " + std::to_string(request.maxprocs) + " x " + request.command + " as " + *nspace);
    return s;
}

Status Runtime::publish(const std::string &key, const std::string &value) { return backend_->publish(key, value); }

Status Runtime::lookup(const std::string &key, bool wait, int timeout_ms, std::string *value) {
    return backend_->lookup(key, wait, timeout_seconds(timeout_ms), value);
}

Status Runtime::unpublish(const std::string &key) { return backend_->unpublish(key); }

Status Runtime::spawn(const std::vector<SpawnRequest> &requests, std::string *nspace) {
    Status s = backend_->spawn_apps(requests, nspace);
    if (s) {
        size_t procs = 0;
        for (const auto &r : requests) procs += static_cast<size_t>(r.maxprocs);
        log(PLEXUS_LOG_DECISION, "spawned " + std::to_string(procs) + " process(es) of " +
                                     std::to_string(requests.size()) + " command(s) as " + *nspace);
    }
    return s;
}

Status Runtime::publish(const std::string &key, const std::string &value, Persistence persistence) {
    return backend_->publish_as(key, value, persistence);
}

Status Runtime::job_size_of(const std::string &nspace, uint32_t *size) {
    return backend_->job_size_of(nspace, timeout_seconds(settings_.modex_timeout_ms), size);
}

Status Runtime::disconnect_start(const std::vector<ProcId> &procs, int timeout_ms,
                                 const std::shared_ptr<PendingOp> &op) {
    return backend_->disconnect_start(procs, timeout_seconds(timeout_ms), op);
}

}  // namespace plexus::runtime
