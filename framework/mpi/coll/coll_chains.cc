// Building the dispatch table from the selection's modules.
#include "mpi/coll/coll_chains.h"

#include <algorithm>

namespace plexus::mpi::coll {
namespace {

constexpr const char *kNames[PLEXUS_COLL_FUNCTION_COUNT] = {
    "barrier",   "bcast",      "reduce",   "allreduce", "gather",         "gatherv",
    "scatter",   "scatterv",   "allgather", "allgatherv", "alltoall",     "alltoallv",
    "alltoallw", "reduce_scatter", "reduce_scatter_block", "scan",         "exscan"};

constexpr const char *kMpiNames[PLEXUS_COLL_FUNCTION_COUNT] = {
    "MPI_Barrier",   "MPI_Bcast",      "MPI_Reduce",   "MPI_Allreduce", "MPI_Gather",  "MPI_Gatherv",
    "MPI_Scatter",   "MPI_Scatterv",   "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv",
    "MPI_Alltoallw", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block", "MPI_Scan", "MPI_Exscan"};

// The function pointer of fn, as a plain "is it set" answer: the members have different types.
bool has_pointer(const plexus_coll_functions_t &f, int fn) {
    switch (fn) {
    case PLEXUS_COLL_BARRIER: return f.barrier != nullptr;
    case PLEXUS_COLL_BCAST: return f.bcast != nullptr;
    case PLEXUS_COLL_REDUCE: return f.reduce != nullptr;
    case PLEXUS_COLL_ALLREDUCE: return f.allreduce != nullptr;
    case PLEXUS_COLL_GATHER: return f.gather != nullptr;
    case PLEXUS_COLL_GATHERV: return f.gatherv != nullptr;
    case PLEXUS_COLL_SCATTER: return f.scatter != nullptr;
    case PLEXUS_COLL_SCATTERV: return f.scatterv != nullptr;
    case PLEXUS_COLL_ALLGATHER: return f.allgather != nullptr;
    case PLEXUS_COLL_ALLGATHERV: return f.allgatherv != nullptr;
    case PLEXUS_COLL_ALLTOALL: return f.alltoall != nullptr;
    case PLEXUS_COLL_ALLTOALLV: return f.alltoallv != nullptr;
    case PLEXUS_COLL_ALLTOALLW: return f.alltoallw != nullptr;
    case PLEXUS_COLL_REDUCE_SCATTER: return f.reduce_scatter != nullptr;
    case PLEXUS_COLL_REDUCE_SCATTER_BLOCK: return f.reduce_scatter_block != nullptr;
    case PLEXUS_COLL_SCAN: return f.scan != nullptr;
    case PLEXUS_COLL_EXSCAN: return f.exscan != nullptr;
    default: return false;
    }
}

std::string trim(std::string_view s) {
    const size_t b = s.find_first_not_of(" \t");
    if (b == std::string_view::npos) return "";
    const size_t e = s.find_last_not_of(" \t");
    return std::string(s.substr(b, e - b + 1));
}

// Where a component stands in the hint: its position, or past the end when not named.
size_t preference_rank(const std::vector<std::string> &preference, const std::string &name) {
    return static_cast<size_t>(std::find(preference.begin(), preference.end(), name) - preference.begin());
}

}  // namespace

const char *function_name(int fn) { return fn >= 0 && fn < PLEXUS_COLL_FUNCTION_COUNT ? kNames[fn] : "?"; }
const char *mpi_function_name(int fn) { return fn >= 0 && fn < PLEXUS_COLL_FUNCTION_COUNT ? kMpiNames[fn] : "?"; }

bool serves(const plexus_coll_module_t &module, int fn) { return module.priority[fn] >= 0 && has_pointer(module.fn, fn); }

std::vector<std::string> parse_preference(std::string_view text) {
    std::vector<std::string> names;
    while (!text.empty()) {
        const size_t comma = text.find(',');
        std::string name = trim(text.substr(0, comma));
        if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    return names;
}

Chains build_chains(const std::vector<Candidate> &ranked, const std::vector<std::string> &preference) {
    Chains out;
    for (const Candidate &c : ranked) {
        if (!c.module) {
            out.notes.push_back(c.component + ": query returned no module, ignored");
            continue;
        }
        if (c.module->struct_size < sizeof(plexus_coll_module_t)) {
            out.notes.push_back(c.component + ": module struct_size " + std::to_string(c.module->struct_size) +
                                " is smaller than this library's " + std::to_string(sizeof(plexus_coll_module_t)) +
                                " (built for an older coll interface), ignored");
            continue;
        }
        out.components.push_back(c.component);
        out.modules.push_back(c.module);
    }
    for (const std::string &p : preference)
        if (std::find(out.components.begin(), out.components.end(), p) == out.components.end())
            out.notes.push_back("plexus_coll_preference names '" + p + "', which offers no module here, ignored");

    for (int fn = 0; fn < PLEXUS_COLL_FUNCTION_COUNT; ++fn) {
        std::vector<Link> &chain = out.chain[static_cast<size_t>(fn)];
        for (size_t i = 0; i < out.modules.size(); ++i)
            if (serves(*out.modules[i], fn)) chain.push_back({out.modules[i], static_cast<int>(i), out.modules[i]->priority[fn]});
        // Stable: equal keys keep the selection's rank order.
        std::stable_sort(chain.begin(), chain.end(), [&](const Link &a, const Link &b) {
            const size_t pa = preference_rank(preference, out.name(a)), pb = preference_rank(preference, out.name(b));
            if (pa != pb) return pa < pb;
            return a.priority > b.priority;
        });
    }
    return out;
}

std::string describe_chain(const Chains &chains, int fn) {
    const std::vector<Link> &chain = chains.chain[static_cast<size_t>(fn)];
    std::string line = std::string(function_name(fn)) + ": ";
    if (chain.empty()) return line + "no component serves it";
    line += chains.name(chain[0]) + " (priority " + std::to_string(chain[0].priority) + "); fallback: ";
    if (chain.size() == 1) return line + "none";
    for (size_t i = 1; i < chain.size(); ++i)
        line += (i > 1 ? ", " : "") + chains.name(chain[i]) + " (" + std::to_string(chain[i].priority) + ")";
    return line;
}

}  // namespace plexus::mpi::coll
