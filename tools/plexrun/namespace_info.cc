// Building a namespace's registration info.
#include "namespace_info.h"

#include <cstdlib>

#include "trace.h"

namespace plexrun {
namespace {

std::string rank_list(size_t n) {
    std::string s;
    for (size_t r = 0; r < n; ++r) s += (r ? "," : "") + std::to_string(r);
    return s;
}

// PMIX_NODE_MAP and PMIX_PROC_MAP in libpmix's own compressed form (PMIX_REGEX).
void add_maps(const Namespace &ns, const NodeFacts &node, InfoList &info) {
    char *nodes = nullptr, *procs = nullptr;
    // A comma list: libpmix counts its entries for PMIX_LOCAL_SIZE, so "0-3" would be one.
    std::string ranks = rank_list(ns.ranks.size());
    if (PMIx_generate_regex(node.hostname.c_str(), &nodes) == PMIX_SUCCESS && nodes)
        info.add_regex(PMIX_NODE_MAP, nodes);
    if (PMIx_generate_ppn(ranks.c_str(), &procs) == PMIX_SUCCESS && procs)
        info.add_regex(PMIX_PROC_MAP, procs);
    trace("node map '%s', proc map '%s' from '%s'", nodes ? nodes : "", procs ? procs : "",
          ranks.c_str());
    std::free(nodes);
    std::free(procs);
}

void add_apps(const Namespace &ns, InfoList &info) {
    uint32_t first = 0;
    for (uint32_t a = 0; a < ns.apps.size(); ++a) {
        InfoList app;
        app.add_u32(PMIX_APPNUM, a);
        app.add_u32(PMIX_APP_SIZE, static_cast<uint32_t>(ns.apps[a].procs));
        app.add_rank(PMIX_APPLDR, first);
        info.add_array(PMIX_APP_INFO, app);
        first += static_cast<uint32_t>(ns.apps[a].procs);
    }
}

void add_rank(const Namespace &ns, const RankRecord &r, const NodeFacts &node, InfoList &info) {
    InfoList proc;
    proc.add_rank(PMIX_RANK, r.rank);  // must come first: libpmix files the rest under it
    proc.add_u16(PMIX_LOCAL_RANK, static_cast<uint16_t>(r.rank));
    proc.add_u16(PMIX_NODE_RANK, static_cast<uint16_t>(r.node_rank));
    proc.add_u32(PMIX_APPNUM, r.app);
    proc.add_rank(PMIX_APP_RANK, r.app_rank);
    proc.add_rank(PMIX_GLOBAL_RANK, r.rank);
    proc.add_u32(PMIX_NODEID, 0);
    proc.add_string(PMIX_HOSTNAME, node.hostname);
    if (ns.parent) proc.add_proc(PMIX_PARENT_ID, *ns.parent);
    info.add_array(PMIX_PROC_DATA, proc);
}

}  // namespace

void fill_namespace_info(const Namespace &ns, const NodeFacts &node, InfoList &info) {
    uint32_t size = static_cast<uint32_t>(ns.ranks.size());
    info.add_string(PMIX_JOBID, ns.name);
    info.add_u32(PMIX_JOB_SIZE, size);
    info.add_u32(PMIX_MAX_PROCS, size);
    info.add_u32(PMIX_UNIV_SIZE, node.universe_size);
    info.add_u32(PMIX_LOCAL_SIZE, size);
    info.add_string(PMIX_LOCAL_PEERS, rank_list(size));
    info.add_rank(PMIX_LOCALLDR, 0);
    info.add_u32(PMIX_NODEID, 0);
    info.add_u32(PMIX_NUM_NODES, 1);
    info.add_u32(PMIX_NODE_SIZE, node.node_procs);
    info.add_string(PMIX_HOSTNAME, node.hostname);
    info.add_u32(PMIX_JOB_NUM_APPS, static_cast<uint32_t>(ns.apps.size()));
    if (ns.apps.size() == 1) info.add_u32(PMIX_APPNUM, 0);  // per rank otherwise
    info.add_bool(PMIX_SPAWNED, ns.parent.has_value());
    if (ns.parent) info.add_proc(PMIX_PARENT_ID, *ns.parent);
    info.add_string("plexus.job.secret", ns.secret);
    add_maps(ns, node, info);
    add_apps(ns, info);
    for (const RankRecord &r : ns.ranks) add_rank(ns, r, node, info);
}

}  // namespace plexrun
