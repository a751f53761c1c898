// What plexrun knows about its job: the namespaces (the one it started, then one per
// PMIx_Spawn) and the state of each of their ranks.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app_spec.h"
#include "pmix_util.h"
#include "secret.h"

namespace plexrun {

struct RankRecord {
    uint32_t rank = 0;
    uint32_t app = 0;       // PMIX_APPNUM
    uint32_t app_rank = 0;  // rank within its app
    int node_rank = 0;      // over every namespace on this node, in launch order
    pid_t pid = -1;
    bool running = false;
    bool connected = false;  // called PMIx_Init
    bool finalized = false;  // called PMIx_Finalize
};

struct Namespace {
    std::string name;
    int job = 1;  // the short job number of --tag-output and of messages
    std::string secret;
    std::optional<ProcName> parent;  // the rank that spawned it
    std::vector<AppSpec> apps;
    std::vector<RankRecord> ranks;
    bool abandoned = false;  // a spawn that failed to start: its ranks' ends are not failures
    bool purged = false;     // every rank ended well and libpmix forgot the namespace

    std::string shm_prefix() const { return shm_prefix_of(secret); }
};

class Job {
public:
    // A new namespace (job number, name and secret assigned) with its ranks laid out.
    Namespace &add_namespace(std::vector<AppSpec> apps, std::optional<ProcName> parent);

    Namespace *find(const std::string &nspace);
    RankRecord *find(const ProcName &proc);
    // The rank with this pid, and its namespace; nullptrs for any other process.
    std::pair<Namespace *, RankRecord *> find(pid_t pid);

    int running_ranks() const;
    int launched_ranks() const { return next_node_rank_; }
    const std::vector<std::unique_ptr<Namespace>> &namespaces() const { return namespaces_; }

private:
    std::vector<std::unique_ptr<Namespace>> namespaces_;  // stable addresses
    int next_node_rank_ = 0;
};

}  // namespace plexrun
