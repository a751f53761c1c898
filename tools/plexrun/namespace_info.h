// The job-level and per-rank keys a namespace is registered with (docs/runtime-contract.md).
#pragma once

#include <string>

#include "job.h"
#include "pmix_util.h"  // pmix.h before pmix_server.h

#include <pmix_server.h>

namespace plexrun {

struct NodeFacts {
    std::string hostname;
    uint32_t universe_size = 0;  // PMIX_UNIV_SIZE (NamespaceLauncher::universe_size)
    uint32_t node_procs = 0;     // PMIX_NODE_SIZE: ranks of every namespace on this node
};

void fill_namespace_info(const Namespace &ns, const NodeFacts &node, InfoList &info);

}  // namespace plexrun
