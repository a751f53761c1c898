// Who this process is in its job: rank, size, node-local peers, namespace, parent. Read from the
// PMIx server when the process was launched, made up as rank 0 of 1 when it runs alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plexus_config.h"
#include "runtime/status.h"

namespace plexus::runtime {

// One process anywhere: its job's namespace and its rank there.
struct ProcId {
    std::string nspace;
    uint32_t rank = 0;
    bool operator==(const ProcId &) const = default;
    auto operator<=>(const ProcId &) const = default;
};

struct JobInfo {
    uint32_t rank = 0;
    uint32_t size = 1;
    uint32_t local_rank = 0;
    uint32_t local_size = 1;
    std::vector<uint32_t> local_peers{0};  // ranks of this job on this node, self included
    uint32_t node_id = 0;
    std::string nspace;
    uint32_t appnum = 0;
    std::optional<uint32_t> universe_size;  // absent when the server does not say
    std::optional<ProcId> parent;           // the process that spawned this job, if any
    bool singleton = true;

    ProcId self() const { return {nspace, rank}; }
    // More ranks of this job on this node than CPUs online: the one place that decides it (the
    // progress engine's spin, btl_sm's single copy and coll_basic's algorithms all follow it).
    bool oversubscribed() const;
    // CPUs online on this node (0 when the system cannot say).
    static uint32_t cpus_online();
};

// Rank 0 of 1 in namespace "singleton-<pid>", alone on node 0.
JobInfo singleton_job_info();

// PMIX_LOCAL_PEERS form: "0,1,4-6" (ranges allowed, as some servers send them).
std::optional<std::vector<uint32_t>> parse_rank_list(std::string_view text);

// True when the environment says a PMIx server launched this process.
bool launched_by_pmix_server();

#ifdef PLEXUS_HAVE_PMIX
class PmixClient;
// Every job-level and per-rank fact PMIx provides; size and the peers are required, the rest
// optional with the singleton defaults.
Status job_info_from_pmix(PmixClient &client, int timeout_s, JobInfo *out);
#endif

}  // namespace plexus::runtime
