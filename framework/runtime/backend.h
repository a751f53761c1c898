// What the runtime needs from whoever launched the process: a PMIx server, or nobody (a
// singleton). The Runtime facade and the modex talk to this, never to PMIx directly.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/job_info.h"
#include "runtime/spawn_request.h"
#include "runtime/status.h"

namespace plexus::runtime {

// How long a published value lives (PMIX_PERSISTENCE): the server's default, until the publisher
// ends, or until the first lookup reads it (a one-shot message between two processes).
enum class Persistence { Default, Process, FirstRead };

// An operation the job manager completes on a thread of its own (the PMIx client's): whoever
// waits polls done(); status and message are final once it is set.
class PendingOp {
public:
    bool done() const { return done_.load(std::memory_order_acquire); }
    const Status &result() const { return result_; }  // read only once done()
    void finish(Status s) {
        result_ = std::move(s);
        done_.store(true, std::memory_order_release);
    }

private:
    std::atomic<bool> done_{false};
    Status result_ = Status::ok();
};

class Backend {
public:
    virtual ~Backend() = default;

    virtual const JobInfo &job() const = 0;
    // Time spent connecting (PMIx_Init); zero for a singleton.
    virtual std::chrono::nanoseconds connect_time() const = 0;

    // A job-level string the server may provide; PLEXUS_ERR_NOT_FOUND when it does not.
    virtual Status get_job_string(const char *key, std::string *out) = 0;
    // Visible to every process of every namespace once committed.
    virtual Status put(const std::string &key, const void *data, size_t len) = 0;
    virtual Status put_string(const std::string &key, const std::string &value) = 0;
    virtual Status commit() = 0;
    virtual Status get(const ProcId &peer, const std::string &key, int timeout_s,
                       std::vector<uint8_t> *out) = 0;
    // Over this process's whole namespace when procs is empty.
    virtual Status fence(const std::vector<ProcId> &procs, bool collect, int timeout_s) = 0;

    virtual Status abort(int status, const std::string &message) = 0;
    virtual Status spawn(const SpawnRequest &request, std::string *nspace) = 0;
    virtual Status publish(const std::string &key, const std::string &value) = 0;
    virtual Status lookup(const std::string &key, bool wait, int timeout_s, std::string *value) = 0;
    virtual Status unpublish(const std::string &key) = 0;

    // Dynamic processes (issue 19). The defaults serve backends without a job manager: one
    // application, the default persistence, no other jobs.
    // Every request in one new namespace (application i gets appnum i).
    virtual Status spawn_apps(const std::vector<SpawnRequest> &requests, std::string *nspace) {
        if (requests.size() == 1) return spawn(requests[0], nspace);
        return Status::error(PLEXUS_ERR_NOT_SUPPORTED, "this launcher starts one application per spawn");
    }
    virtual Status publish_as(const std::string &key, const std::string &value, Persistence) {
        return publish(key, value);
    }
    // The number of processes of another namespace.
    virtual Status job_size_of(const std::string &nspace, int timeout_s, uint32_t *size) {
        (void)timeout_s;
        (void)size;
        return Status::error(PLEXUS_ERR_NOT_SUPPORTED, "no job manager knows namespace " + nspace);
    }
    // MPI_Comm_disconnect of a communicator that spans jobs: collective over every process in
    // procs (each calls it with the same set); once it completes, the job manager's client
    // library may drop what it learnt of the other namespaces. Started here, *op finished later
    // (on another thread). Without a job manager nothing was learnt: finished at once.
    virtual Status disconnect_start(const std::vector<ProcId> &procs, int timeout_s,
                                    const std::shared_ptr<PendingOp> &op) {
        (void)procs;
        (void)timeout_s;
        op->finish(Status::ok());
        return Status::ok();
    }
};

}  // namespace plexus::runtime
