// Job information: the singleton's made-up values, and every fact read from the PMIx server.
#include "runtime/job_info.h"

#include <unistd.h>

#include <charconv>
#include <cstdlib>

#include "base/output.h"
#include "runtime/pmix_client.h"

namespace plexus::runtime {

uint32_t JobInfo::cpus_online() {
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 0 ? static_cast<uint32_t>(cpus) : 0;
}

bool JobInfo::oversubscribed() const {
    const uint32_t cpus = cpus_online();
    return cpus > 0 && local_size > cpus;
}

namespace {

std::optional<uint32_t> parse_u32(std::string_view text) {
    uint32_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

}  // namespace

JobInfo singleton_job_info() {
    JobInfo info;
    info.nspace = "singleton-" + std::to_string(getpid());
    return info;
}

std::optional<std::vector<uint32_t>> parse_rank_list(std::string_view text) {
    std::vector<uint32_t> out;
    while (!text.empty()) {
        size_t comma = text.find(',');
        std::string_view item = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
        size_t dash = item.find('-');
        auto first = parse_u32(item.substr(0, dash));
        auto last = dash == std::string_view::npos ? first : parse_u32(item.substr(dash + 1));
        if (!first || !last || *last < *first) return std::nullopt;
        for (uint64_t r = *first; r <= *last; ++r) out.push_back(static_cast<uint32_t>(r));
    }
    return out;
}

bool launched_by_pmix_server() {
    const char *ns = std::getenv("PMIX_NAMESPACE");
    return ns && *ns;
}

#ifdef PLEXUS_HAVE_PMIX
namespace {

// Job-level facts arrive with PMIx_Init; PMIX_OPTIONAL keeps a server that lacks one from
// being asked (and from making us wait).
GetOptions local_only(int timeout_s) { return GetOptions{timeout_s, true}; }

Status read_local_peers(PmixClient &c, const GetOptions &o, JobInfo *info) {
    std::string text;
    Status s = c.get_string(info->nspace, std::nullopt, PMIX_LOCAL_PEERS, o, &text);
    if (s.code == PLEXUS_ERR_NOT_FOUND) {  // a server that omits it: assume we are alone
        info->local_peers = {info->rank};
        return Status::ok();
    }
    if (!s) return s;
    auto peers = parse_rank_list(text);
    if (!peers) return Status::error(PLEXUS_ERROR, "PMIX_LOCAL_PEERS is not a rank list: '" + text + "'");
    info->local_peers = *peers;
    return Status::ok();
}

void read_optional(PmixClient &c, const JobInfo &info, std::optional<uint32_t> rank,
                   const char *key, const GetOptions &o, uint32_t *out) {
    uint32_t v = 0;
    if (c.get_u32(info.nspace, rank, key, o, &v)) *out = v;
}

void read_parent(PmixClient &c, const GetOptions &o, JobInfo *info) {
    ProcId parent;
    // Servers put it at job level or on each process; the standard allows either.
    if (c.get_proc(info->nspace, std::nullopt, PMIX_PARENT_ID, o, &parent) ||
        c.get_proc(info->nspace, info->rank, PMIX_PARENT_ID, o, &parent))
        info->parent = parent;
}

// The peer list is what components act on (whom to share memory with), so size and rank follow
// from it; a server whose PMIX_LOCAL_SIZE or PMIX_LOCAL_RANK disagrees is noted, not trusted.
void settle_local_size_and_rank(PmixClient &c, const GetOptions &o, JobInfo *info) {
    info->local_size = static_cast<uint32_t>(info->local_peers.size());
    for (size_t i = 0; i < info->local_peers.size(); ++i)
        if (info->local_peers[i] == info->rank) info->local_rank = static_cast<uint32_t>(i);
    uint32_t server_size = info->local_size, server_rank = info->local_rank;
    read_optional(c, *info, std::nullopt, PMIX_LOCAL_SIZE, o, &server_size);
    read_optional(c, *info, info->rank, PMIX_LOCAL_RANK, o, &server_rank);
    if (server_size != info->local_size || server_rank != info->local_rank)
        mca::emit(PLEXUS_LOG_DECISION, "runtime",
                  "the server's PMIX_LOCAL_SIZE " + std::to_string(server_size) + " / PMIX_LOCAL_RANK " +
                      std::to_string(server_rank) + " disagree with PMIX_LOCAL_PEERS (" +
                      std::to_string(info->local_size) + " peers, this one at " +
                      std::to_string(info->local_rank) + "); the peer list is used");
}

}  // namespace

Status job_info_from_pmix(PmixClient &c, int timeout_s, JobInfo *out) {
    JobInfo info;
    info.singleton = false;
    info.nspace = c.self().nspace;
    info.rank = c.self().rank;
    const GetOptions o = local_only(timeout_s);
    if (Status s = c.get_u32(info.nspace, std::nullopt, PMIX_JOB_SIZE, o, &info.size); !s) return s;
    if (Status s = read_local_peers(c, o, &info); !s) return s;
    settle_local_size_and_rank(c, o, &info);
    read_optional(c, info, info.rank, PMIX_NODEID, o, &info.node_id);
    read_optional(c, info, info.rank, PMIX_APPNUM, o, &info.appnum);  // per process: MPMD jobs
    if (uint32_t u = 0; c.get_u32(info.nspace, std::nullopt, PMIX_UNIV_SIZE, o, &u)) info.universe_size = u;
    read_parent(c, o, &info);
    *out = std::move(info);
    return Status::ok();
}
#endif

}  // namespace plexus::runtime
