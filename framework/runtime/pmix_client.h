// The PMIx client of this process: PMIx_Init/PMIx_Finalize held by one object, and the calls the
// runtime makes (typed gets with timeouts, put/commit, fence, abort, spawn, publish/lookup), each
// turning a PMIx error into a PLEXUS_* status and a message naming the call that failed.
#pragma once

#include "plexus_config.h"

#ifdef PLEXUS_HAVE_PMIX

#include <pmix.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/backend.h"
#include "runtime/job_info.h"
#include "runtime/spawn_request.h"
#include "runtime/status.h"

namespace plexus::runtime {

// Where a Get looks and how long it may wait.
struct GetOptions {
    int timeout_s = 0;      // PMIX_TIMEOUT; 0 = as long as the server takes
    bool optional = false;  // PMIX_OPTIONAL: only the local store, never ask the server
};

class PmixClient {
public:
    // PMIx_Init; on success *out owns the connection until it is destroyed.
    static Status connect(std::unique_ptr<PmixClient> *out);
    ~PmixClient();  // PMIx_Finalize
    PmixClient(const PmixClient &) = delete;
    PmixClient &operator=(const PmixClient &) = delete;

    ProcId self() const { return {self_.nspace, self_.rank}; }
    std::chrono::nanoseconds init_time() const { return init_time_; }

    // Job level (the namespace's wildcard rank) when rank is absent.
    Status get_u32(const std::string &nspace, std::optional<uint32_t> rank, const char *key,
                   const GetOptions &o, uint32_t *out);
    Status get_string(const std::string &nspace, std::optional<uint32_t> rank, const char *key,
                      const GetOptions &o, std::string *out);
    Status get_bytes(const ProcId &proc, const std::string &key, const GetOptions &o,
                     std::vector<uint8_t> *out);
    Status get_proc(const std::string &nspace, std::optional<uint32_t> rank, const char *key,
                    const GetOptions &o, ProcId *out);

    enum class Scope { Local, Remote, Global };
    Status put_bytes(Scope scope, const std::string &key, const void *data, size_t len);
    Status put_string(Scope scope, const std::string &key, const std::string &value);
    Status commit();

    // Over the whole namespace when procs is empty. collect = PMIX_COLLECT_DATA.
    Status fence(const std::vector<ProcId> &procs, bool collect, int timeout_s);
    Status abort(int status, const std::string &message);
    Status spawn(const SpawnRequest &request, std::string *nspace);
    // Every request as one application of one new namespace.
    Status spawn(const std::vector<SpawnRequest> &requests, std::string *nspace);

    Status publish(const std::string &key, const std::string &value,
                   Persistence persistence = Persistence::Default);
    // wait: block until somebody publishes key (PMIX_WAIT), at most timeout_s (0 = forever).
    Status lookup(const std::string &key, bool wait, int timeout_s, std::string *value);
    Status unpublish(const std::string &key);

    // PMIx_Disconnect_nb over procs (a collective of every process listed, bounded by timeout_s
    // where the server honours PMIX_TIMEOUT); *op is finished from libpmix's thread. libpmix 4.2.2
    // drops what this client holds of every other namespace listed when the call is made
    // (pmix_client_connect.c, PMIx_Disconnect_nb: PMIX_GDS_DEL_NSPACE), the only client call
    // that does: each namespace a client learns of (a spawn's answer, a PMIx_Get of one of its
    // processes) costs it three hash tables, about 52 KB, until then.
    Status disconnect_start(const std::vector<ProcId> &procs, int timeout_s,
                            const std::shared_ptr<PendingOp> &op);

private:
    PmixClient() = default;
    struct ValueDeleter {
        void operator()(pmix_value_t *v) const;
    };
    using ValuePtr = std::unique_ptr<pmix_value_t, ValueDeleter>;
    Status get(const pmix_proc_t &proc, const char *key, const GetOptions &o, ValuePtr *out);

    pmix_proc_t self_{};
    bool initialized_ = false;
    std::chrono::nanoseconds init_time_{};
};

// The PLEXUS_* status closest to a PMIx error.
int plexus_status_from_pmix(pmix_status_t rc);

}  // namespace plexus::runtime

#endif  // PLEXUS_HAVE_PMIX
