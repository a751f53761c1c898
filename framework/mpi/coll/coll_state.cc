// Per-communicator selection: the scope, McaCore::select, the chains, the verbose trace, and
// the modules' end.
#include "mpi/coll/coll_state.h"

#include <algorithm>
#include <string>
#include <vector>

#include "mca/mca_core.h"
#include "base/output.h"
#include "mpi/coll/coll_handles.h"
#include "mpi/coll/coll_services.h"
#include "mpi/error_report.h"
#include "mpi/mpi_state.h"
#include "runtime/runtime.h"

namespace plexus::mpi::coll {
namespace {

// Members of comm's local group on this node, the caller included. Proc ids below the world
// size are world ranks, which is what the runtime's node list holds; processes of other jobs
// are not counted (their placement is not known here).
int local_peers(const Comm &comm) {
    const runtime::Runtime *rt = runtime::Runtime::current();
    if (!rt || !g_mpi) return 1;
    std::vector<uint32_t> node = rt->job().local_peers;
    std::sort(node.begin(), node.end());
    const size_t world = g_mpi->procs().world_size();
    int n = 0;
    for (uint32_t p : comm.local_procs)
        if (p < world && std::binary_search(node.begin(), node.end(), p)) ++n;
    return std::max(n, 1);
}

std::string describe_comm(const Comm &comm) {
    std::string d = comm_name(&comm) + " (context " + std::to_string(comm.context_id) + ", ";
    if (comm.inter) return d + "inter, " + std::to_string(comm.size()) + " + " + std::to_string(comm.remote_size()) + " ranks)";
    return d + std::to_string(comm.size()) + (comm.size() == 1 ? " rank)" : " ranks)");
}

void trace(const Comm &comm, const Chains &chains) {
    if (mca::framework_verbosity("coll") < PLEXUS_LOG_DECISION) return;
    const std::string on = describe_comm(comm) + ": ";
    for (const std::string &note : chains.notes) mca::emit(PLEXUS_LOG_DECISION, "coll", on + note);
    for (int fn = 0; fn < PLEXUS_COLL_FUNCTION_COUNT; ++fn)
        mca::emit(PLEXUS_LOG_DECISION, "coll", on + describe_chain(chains, fn));
}

void destroy_modules(CommState &st) {
    for (plexus_coll_module_t *m : st.chains.modules)
        if (m->destroy) m->destroy(m);
    st.chains = Chains{};
    st.built = false;
}

std::string preference_of(const CommState &st) {
    const std::string *p = st.hints.find(kPreferenceKey);
    return p ? *p : std::string();
}

}  // namespace

CommState &state_of(Comm *comm) {
    if (!comm->coll) comm->coll = new CommState;
    return *comm->coll;
}

const Chains &build_chains_of(Comm *comm) {
    CommState &st = state_of(comm);
    const std::string *preference = st.hints.find(kPreferenceKey);

    plexus_coll_scope_t scope{};
    scope.struct_size = sizeof scope;
    scope.context_id = comm->context_id;
    scope.size = comm->size();
    scope.rank = comm->rank;
    scope.is_inter = comm->inter;
    scope.remote_size = comm->inter ? comm->remote_size() : 0;
    scope.local_peers = local_peers(*comm);
    scope.name = comm->name.c_str();
    scope.preference = preference ? preference->c_str() : nullptr;
    scope.comm = handle(comm);
    scope.services = &services();

    mca::McaCore *core = mca::McaCore::current();
    std::vector<Candidate> chosen;
    std::vector<std::string> errors;
    if (core) {
        mca::Selection sel = core->select("coll", &scope);
        for (size_t i : sel.selected)
            chosen.push_back({sel.at(i).component->name, static_cast<plexus_coll_module_t *>(sel.at(i).module)});
        // A policy that keeps fewer than every usable module: the others are not used.
        for (size_t i : sel.ranked) {
            const mca::Decision &d = sel.at(i);
            auto *m = static_cast<plexus_coll_module_t *>(d.module);
            if (!d.selected && m && m->struct_size >= sizeof *m && m->destroy) m->destroy(m);
        }
        errors = std::move(sel.errors);
        for (std::string &d : sel.declines) errors.push_back(std::move(d));  // said when unserved
    } else {
        errors.push_back("the component framework is not running");
    }
    st.chains = build_chains(chosen, preference ? parse_preference(*preference) : std::vector<std::string>{});
    for (std::string &e : errors) st.chains.notes.push_back(std::move(e));
    st.built = true;
    trace(*comm, st.chains);
    return st.chains;
}

void set_hints(Comm *comm, const Info &info) {
    CommState &st = state_of(comm);
    const std::string before = preference_of(st);
    for (size_t i = 0; i < info.size(); ++i) {
        const std::string &key = info.key_at(i);
        st.hints.set(key, *info.find(key));
    }
    if (st.built && preference_of(st) != before) {
        mca::emit(PLEXUS_LOG_DECISION, "coll", describe_comm(*comm) + ": plexus_coll_preference is now '" +
                                                   preference_of(st) + "': the components are selected again at the next call");
        destroy_modules(st);
    }
}

void copy_hints(const Comm *from, Comm *to) {
    if (from->coll && from->coll->hints.size() > 0) set_hints(to, from->coll->hints);
}

void release(Comm *comm) {
    CommState *st = comm->coll;
    if (!st) return;
    comm->coll = nullptr;
    destroy_modules(*st);
    delete st;
}

}  // namespace plexus::mpi::coll
