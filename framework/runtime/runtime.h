// The runtime of this process: who it is in which job, the job secret, business cards, fences,
// abort, spawn and the name service, over PMIx when a server launched the process and on its own
// as a singleton otherwise. One per process, reached by the MPI layer and (through the host API)
// by components.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "runtime/backend.h"
#include "runtime/job_info.h"
#include "runtime/job_secret.h"
#include "runtime/modex.h"
#include "runtime/peer_secrets.h"
#include "runtime/runtime_params.h"

namespace plexus::runtime {

class Runtime {
public:
    // Starts the runtime, or counts one more user of the running one: every successful init
    // needs one finalize, and the last finalize disconnects from the server. Settings come from
    // the settings source when one is set and answers, else from the process's own parameter
    // sources (read once per process).
    static Status init();
    // The MCA core, which sits above the runtime, sets itself as the source (its parameters may
    // hold more than the process's sources: a tool's --mca, a test's environment).
    using SettingsSource = std::optional<RuntimeSettings> (*)();
    static void set_settings_source(SettingsSource source);
    static Status init(const RuntimeSettings &settings);
    // Over a backend of the caller's (tests, other launch systems); ignored when running.
    static Status init(const RuntimeSettings &settings, std::unique_ptr<Backend> backend);
    static void finalize();
    static Runtime *current();  // nullptr when not initialized

    const JobInfo &job() const { return backend_->job(); }
    const RuntimeSettings &settings() const { return settings_; }
    std::chrono::nanoseconds connect_time() const { return backend_->connect_time(); }

    // The job secret, known from init on: the server's, or rank 0's (shared by one extra fence
    // when the server has none).
    Status secret(JobSecret *out) const;
    Status shm_prefix(std::string *out) const;  // "plexus-<16 hex>-"

    Modex &modex() { return *modex_; }
    // Secrets shared with other jobs' processes (their meetings'); host API peer_secrets.
    PeerSecrets &peer_secrets() { return peer_secrets_; }
    // The init fence: commits every card put so far and fences the namespace. Later calls are
    // plain fences.
    Status fence_init();
    // A barrier of the whole namespace (procs empty) or of the given processes; no data.
    Status fence(const std::vector<ProcId> &procs = {});

    [[noreturn]] void abort(int status, const std::string &message);
    Status spawn(const SpawnRequest &request, std::string *nspace);
    Status publish(const std::string &key, const std::string &value);
    Status lookup(const std::string &key, bool wait, int timeout_ms, std::string *value);
    Status unpublish(const std::string &key);
    // Dynamic processes: several applications in one namespace, publish with a lifetime, the
    // size of another job (bounded by the modex timeout).
    Status spawn(const std::vector<SpawnRequest> &requests, std::string *nspace);
    Status publish(const std::string &key, const std::string &value, Persistence persistence);
    Status job_size_of(const std::string &nspace, uint32_t *size);
    // MPI_Comm_disconnect across jobs (Backend::disconnect_start), bounded by timeout_ms.
    Status disconnect_start(const std::vector<ProcId> &procs, int timeout_ms, const std::shared_ptr<PendingOp> &op);

    static constexpr const char *kSecretKey = "plexus.job.secret";

    ~Runtime();

private:
    explicit Runtime(const RuntimeSettings &settings);
    Status start(std::unique_ptr<Backend> backend);
    Status connect();
    Status settle_secret_before_fence();
    Status generate_secret(const char *source);
    Status share_secret_of_rank0();
    Status fetch_secret_from_rank0();
    void log(int level, const std::string &message) const;

    RuntimeSettings settings_;
    std::unique_ptr<Backend> backend_;
    std::unique_ptr<Modex> modex_;
    PeerSecrets peer_secrets_;
    std::optional<JobSecret> secret_;
    std::string secret_source_;
};

// Holds the runtime for a scope: init in the constructor (check status()), finalize in the
// destructor when init succeeded.
class RuntimeSession {
public:
    RuntimeSession() : status_(Runtime::init()) {}
    explicit RuntimeSession(const RuntimeSettings &s) : status_(Runtime::init(s)) {}
    ~RuntimeSession() {
        if (status_) Runtime::finalize();
    }
    RuntimeSession(const RuntimeSession &) = delete;
    RuntimeSession &operator=(const RuntimeSession &) = delete;
    const Status &status() const { return status_; }
    Runtime &operator*() const { return *Runtime::current(); }
    Runtime *operator->() const { return Runtime::current(); }

private:
    Status status_;
};

}  // namespace plexus::runtime
