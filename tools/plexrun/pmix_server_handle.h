// The PMIx server library as one object: initialised with the job's private directory and
// plexrun's upcalls, finalised when dropped. Call it from the event loop's thread only.
#pragma once

#include "upcalls.h"

#include <chrono>
#include <string>
#include <vector>

namespace plexrun {

class PmixServer {
public:
    // Throws std::runtime_error naming libpmix's error.
    PmixServer(const std::string &job_dir, EventLoop *loop, Host *host);
    ~PmixServer();
    PmixServer(const PmixServer &) = delete;
    PmixServer &operator=(const PmixServer &) = delete;

    // These block until libpmix's progress thread has done the work, which is why they must
    // never be called from an upcall.
    void register_namespace(const std::string &nspace, int local_procs, InfoList &info);
    void register_client(const ProcName &proc);
    // Purges a namespace whose processes have all ended (libpmix keeps every namespace's data
    // until told: tens of kilobytes per spawned job). false when libpmix did not confirm in time.
    bool deregister_namespace(const std::string &nspace);
    // The NAME=VALUE entries a client needs to find this server (PMIx_server_setup_fork).
    std::vector<std::string> client_environment(const ProcName &proc);

    // PMIx_server_finalize, given LIMIT to finish. It joins libpmix's progress thread, which a
    // stuck data store can hang forever (seen with gds=ds21 and a killed client): false then,
    // and the caller must leave with _exit.
    bool finalize(std::chrono::milliseconds limit);

private:
    pmix_server_module_t module_;
    bool finalized_ = false;
};

}  // namespace plexrun
