// What the runtime needs from whoever launched the process: a PMIx server, or nobody (a
// singleton). The Runtime facade and the modex talk to this, never to PMIx directly.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/job_info.h"
#include "runtime/spawn_request.h"
#include "runtime/status.h"

namespace plexus::runtime {

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
};

}  // namespace plexus::runtime
