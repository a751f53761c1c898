// libpmix's upcalls into plexrun. They run on libpmix's progress thread, which must never
// block (an inline spawn deadlocks: registering a namespace needs that very thread), so each
// one copies its arguments and posts the work to plexrun's event loop; a Host answers there
// and its answer is handed back to libpmix's callback.
#pragma once

#include "pmix_util.h"  // pmix.h before pmix_server.h

#include <pmix_server.h>

#include <functional>
#include <string>
#include <vector>

#include "app_spec.h"

namespace plexrun {

class EventLoop;

using OpDone = std::function<void(pmix_status_t)>;
using LookupDone = std::function<void(pmix_status_t, pmix_pdata_t *data, size_t ndata)>;
using SpawnDone = std::function<void(pmix_status_t, const std::string &nspace)>;
// A direct-modex answer: libpmix's packed data of one process (PMIx_server_dmodex_request's).
using ModexDone = std::function<void(pmix_status_t, std::vector<char> data)>;

// PMIx_Connect and PMIx_Disconnect reach the host only when some participant is not one of
// this plexrun's clients (libpmix completes the rest itself).
enum class FenceKind : uint8_t { Connect = 1, Disconnect = 2 };

struct PublishRequest {
    std::vector<std::pair<std::string, OwnedValue>> entries;
    pmix_data_range_t range = PMIX_RANGE_SESSION;
    pmix_persistence_t persistence = PMIX_PERSIST_SESSION;
};

struct LookupRequest {
    std::vector<std::string> keys;
    // -1: answer now with what is there; 0: wait for every key; n: wait for at least n keys.
    int wait_for = -1;
    int timeout_seconds = 0;  // 0: wait as long as the job runs
    pmix_data_range_t range = PMIX_RANGE_SESSION;
};

// Everything here runs on the event loop's thread; every callback must be called exactly once.
class Host {
public:
    virtual ~Host() = default;
    virtual void client_connected(const ProcName &proc, OpDone done) = 0;
    virtual void client_finalized(const ProcName &proc, OpDone done) = 0;
    // PMIx_Abort; the client has already been answered.
    virtual void abort(const ProcName &proc, int status, const std::string &message) = 0;
    virtual void publish(const ProcName &proc, PublishRequest request, OpDone done) = 0;
    virtual void lookup(const ProcName &proc, LookupRequest request, LookupDone done) = 0;
    virtual void unpublish(const ProcName &proc, std::vector<std::string> keys, OpDone done) = 0;
    virtual void spawn(const ProcName &proc, std::vector<AppSpec> apps, SpawnDone done) = 0;
    // PMIx_Job_control with PMIX_JOB_CTRL_KILL or _TERMINATE: ends the job like an abort.
    virtual void kill_request(const ProcName &proc) = 0;
    // Every participant of this server has called PMIx_Connect/Disconnect over PROCS (sorted);
    // done once the other servers' participants have too. TIMEOUT_S 0: no limit.
    virtual void fence_across(FenceKind kind, std::vector<ProcName> procs, int timeout_s,
                              OpDone done) = 0;
    // A process libpmix does not host: its data, from whoever hosts it, within TIMEOUT_S
    // (PMIX_TIMEOUT of the PMIx_Get; 0: no limit).
    virtual void direct_modex(const ProcName &proc, int timeout_s, ModexDone done) = 0;
};

// The module handed to PMIx_server_init. Fences are answered here (on one node libpmix has
// already gathered everything); the rest go to HOST.
pmix_server_module_t make_upcall_module(EventLoop *loop, Host *host);
// After PMIx_server_finalize: upcalls still in flight are dropped instead of posted.
void detach_upcalls();

}  // namespace plexrun
