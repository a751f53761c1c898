// Initialising, using and finalising the PMIx server library.
#include "pmix_server_handle.h"

#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "trace.h"

namespace plexrun {
namespace {

// libpmix reads its MCA parameters from the environment when it initialises. Set them for
// PMIx_server_init only, so the ranks inherit nothing from it.
class ScopedEnv {
public:
    // KEEP_USERS: a value the user set wins over ours.
    ScopedEnv(const char *name, const char *value, bool keep_users = false) : name_(name) {
        if (const char *old = std::getenv(name)) old_ = old;
        if (!(keep_users && old_)) ::setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (old_)
            ::setenv(name_, old_->c_str(), 1);
        else
            ::unsetenv(name_);
    }

private:
    const char *name_;
    std::optional<std::string> old_;
};

void check(pmix_status_t rc, const std::string &what) {
    if (rc != PMIX_SUCCESS) throw std::runtime_error(what + " failed: " + pmix_error(rc));
}

// Waits for an operation libpmix completes on its progress thread. Not every libpmix
// version blocks by itself when given a null callback, so plexrun always brings its own.
class Completion {
public:
    static void done(pmix_status_t status, void *self) {
        auto *c = static_cast<Completion *>(self);
        std::lock_guard<std::mutex> lock(c->mutex_);
        c->status_ = status;
        c->cv_.notify_one();
    }
    pmix_status_t wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        cv_.wait(lock, [this] { return status_.has_value(); });
        return *status_;
    }
    bool wait_for(std::chrono::milliseconds limit) {
        std::unique_lock<std::mutex> lock(mutex_);
        return cv_.wait_for(lock, limit, [this] { return status_.has_value(); });
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    std::optional<pmix_status_t> status_;
};

// Runs START(callback, cbdata) and waits for the callback.
template <typename Start>
void call_and_wait(Start start, const std::string &what) {
    Completion c;
    check(start(&Completion::done, &c), what);
    check(c.wait(), what);
}

}  // namespace

PmixServer::PmixServer(const std::string &job_dir, EventLoop *loop, Host *host)
    : module_(make_upcall_module(loop, host)) {
    // By default libpmix completes a fence whose members are all local without asking the
    // host; plexrun wants the fence_nb upcall on every fence (it is where a multi-node host
    // would exchange data, and where plexrun can see collectives happen).
    ScopedEnv fence("PMIX_MCA_pmix_server_fence_localonly_opt", "0");
    // The hash data store: a client's PMIx_Init is 3x faster than with the shared-memory
    // stores (ds12/ds21), which also leave pmix_dstor_* folders behind when killed. A user's
    // PMIX_MCA_gds still wins.
    ScopedEnv gds("PMIX_MCA_gds", "hash", true);
    InfoList info;
    info.add_string(PMIX_SERVER_TMPDIR, job_dir);
    info.add_string(PMIX_SYSTEM_TMPDIR, job_dir);
    info.add_bool(PMIX_SERVER_SYSTEM_SUPPORT, false);
    info.add_bool(PMIX_SERVER_TOOL_SUPPORT, false);
    check(PMIx_server_init(&module_, info.data(), info.size()), "PMIx_server_init");
    trace("PMIx server %s initialised in %s", PMIx_Get_version(), job_dir.c_str());
}

PmixServer::~PmixServer() {
    if (!finalized_) PMIx_server_finalize();
    detach_upcalls();
}

bool PmixServer::finalize(std::chrono::milliseconds limit) {
    auto done = std::make_shared<Completion>();
    std::thread([done] { Completion::done(PMIx_server_finalize(), done.get()); }).detach();
    finalized_ = true;
    if (!done->wait_for(limit)) return false;
    detach_upcalls();
    return true;
}

void PmixServer::register_namespace(const std::string &nspace, int local_procs, InfoList &info) {
    call_and_wait(
        [&](pmix_op_cbfunc_t cb, void *cbdata) {
            return PMIx_server_register_nspace(nspace.c_str(), local_procs, info.data(),
                                               info.size(), cb, cbdata);
        },
        "PMIx_server_register_nspace(" + nspace + ")");
}

bool PmixServer::deregister_namespace(const std::string &nspace) {
    pmix_nspace_t ns;
    PMIX_LOAD_NSPACE(ns, nspace.c_str());
    auto c = std::make_shared<Completion>();  // the callback may come after a late return here
    auto *keep = new std::shared_ptr<Completion>(c);
    PMIx_server_deregister_nspace(
        ns,
        [](pmix_status_t status, void *cbdata) {
            auto *k = static_cast<std::shared_ptr<Completion> *>(cbdata);
            Completion::done(status, k->get());
            delete k;
        },
        keep);
    return c->wait_for(std::chrono::milliseconds(2000));
}

void PmixServer::register_client(const ProcName &proc) {
    pmix_proc_t p = proc.to_pmix();
    call_and_wait(
        [&](pmix_op_cbfunc_t cb, void *cbdata) {
            return PMIx_server_register_client(&p, ::getuid(), ::getgid(), nullptr, cb, cbdata);
        },
        "PMIx_server_register_client(" + proc.nspace + ":" + std::to_string(proc.rank) + ")");
}

std::vector<std::string> PmixServer::client_environment(const ProcName &proc) {
    pmix_proc_t p = proc.to_pmix();
    char **env = nullptr;
    check(PMIx_server_setup_fork(&p, &env), "PMIx_server_setup_fork");
    std::vector<std::string> out;
    for (size_t i = 0; env && env[i]; ++i) out.emplace_back(env[i]);
    PMIX_ARGV_FREE(env);
    return out;
}

}  // namespace plexrun
