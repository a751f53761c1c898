// Inter-communicators across jobs: the same objects as MPI_Intercomm_create's (comm/), built
// from a remote group that a dpm component learnt from the other job instead of over a bridge.
#include "mpi/dpm/dpm_intercomm.h"

#include <cstddef>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "base/output.h"
#include "mpi/bml/bml.h"
#include "mpi/comm/agreement_channels.h"
#include "mpi/comm/comm_build_common.h"
#include "mpi/comm/group.h"
#include "mpi/comm/internal_collectives.h"
#include "mpi/dpm/dpm.h"
#include "mpi/dpm/dpm_disconnect.h"
#include "mpi/mpi_state.h"
#include "runtime/runtime.h"

namespace plexus::mpi::dpm {

const char *intern(const std::string &nspace) {
    // Node-based: the strings never move while others are added.
    static std::set<std::string> names;
    return names.insert(nspace).first->c_str();
}

int context_id(Comm *comm, uint32_t at_least, uint32_t *cid) {
    const ContextIdAllocator &ids = comm_registry().ids;
    const uint32_t from = at_least < ContextIdAllocator::kFirstFree ? ContextIdAllocator::kFirstFree : at_least;
    // No id below the largest lowest-free id (from on) is free everywhere; then windows of
    // kWindowBits are ANDed until one holds an id free at every member.
    uint64_t base = ids.lowest_free(from);
    if (int rc = internal::allreduce(comm, &base, 1, ReduceOp::Max)) return rc;
    for (;;) {
        uint64_t window[kWindowWords];
        ids.free_window(static_cast<uint32_t>(base), kWindowWords, window);
        if (int rc = internal::allreduce(comm, window, kWindowWords, ReduceOp::BitAnd)) return rc;
        for (size_t w = 0; w < kWindowWords; ++w)
            if (window[w]) {
                *cid = static_cast<uint32_t>(base + 64 * w + static_cast<uint64_t>(__builtin_ctzll(window[w])));
                return MPI_SUCCESS;
            }
        base += kWindowBits;
    }
}

namespace {

// Whether the id of a process that left may name a newcomer: no BTL may still deliver a message
// of the old process under it, and no group the program holds names it (a group's members are
// ids: MPI_Group_compare with a later group would otherwise find the newcomer in it).
bool id_reusable(uint32_t id) { return !g_mpi->pml().bml().holds(id) && !group_names(id); }

// A newcomer under the id of a process that left: what the PML knew of the old one goes.
void took_departed_id(uint32_t id, const plexus_dpm_proc_t &p) {
    g_mpi->pml().forget_peer(id);
    mca::emit(PLEXUS_LOG_DETAIL, "dpm",
              "process id " + std::to_string(id) + " (a process that left) now names " + p.nspace + " rank " +
                  std::to_string(p.rank));
}

// The remote processes' proc ids (added to the table when new).
int remote_ids(const Comm *comm, const plexus_dpm_remote_group_t &remote, ProcList *out) {
    ProcTable &procs = g_mpi->procs();
    for (uint32_t i = 0; i < remote.size; ++i) {
        const plexus_dpm_proc_t &p = remote.procs[i];
        if (!p.nspace || !*p.nspace) {
            set_error("remote process " + std::to_string(i) + " has no namespace");
            return MPI_ERR_ARG;
        }
        bool reused = false;
        const uint32_t id = procs.add({p.nspace, p.rank}, id_reusable, &reused);
        if (reused) took_departed_id(id, p);
        for (uint32_t mine : comm->local_procs)
            if (mine == id) {
                set_error(std::string("process ") + p.nspace + ":" + std::to_string(p.rank) +
                          " is in both groups: an inter-communicator's groups must be disjoint (a process "
                          "connected to itself?)");
                return MPI_ERR_COMM;
            }
        out->push_back(id);
    }
    return MPI_SUCCESS;
}

// Every BTL's add_procs for the remote processes now, not at their first message: a process
// of the other job may send to us first, and our BTLs must know it by then.
int reach(const ProcList &ids) {
    Bml &bml = g_mpi->pml().bml();
    for (uint32_t id : ids)
        if (!bml.peer(id)) {
            set_error("no BTL reaches the other job: " + bml.last_error());
            return MPI_ERR_OTHER;
        }
    return MPI_SUCCESS;
}

// The meeting's pair secret, for every remote process (dpm services 1.4): what btl_tcp proves to
// them and they to us (runtime/peer_secrets.h). Registered before any BTL reaches them, dropped
// with their cards (drop_endpoints).
void register_pair_secret(const plexus_dpm_remote_group_t &remote, const ProcList &ids) {
    const bool has = remote.struct_size >= offsetof(plexus_dpm_remote_group_t, pair_secret) + sizeof remote.pair_secret;
    runtime::Runtime *rt = runtime::Runtime::current();
    if (!has || !remote.pair_secret || !rt) return;
    runtime::PeerSecrets::Secret s;
    std::memcpy(s.data(), remote.pair_secret, s.size());
    for (uint32_t id : ids) rt->peer_secrets().add(g_mpi->procs().at(id), s);
}

}  // namespace

int intercomm_create(Comm *comm, const plexus_dpm_remote_group_t &remote, Comm **out) {
    build::reap();
    if (remote.size == 0 || !remote.procs) {
        set_error("the remote group is empty");
        return MPI_ERR_ARG;
    }
    ProcList ids;
    // Before any BTL reached them: the ids of newcomers only go back to the table.
    auto abandon = [&ids](int rc) {
        g_mpi->procs().depart(unreached_except(ids, nullptr));
        return rc;
    };
    if (int rc = remote_ids(comm, remote, &ids)) return abandon(rc);
    if (!comm_registry().ids.reserve(remote.context_id)) {
        set_error("context id " + std::to_string(remote.context_id) +
                  " agreed with the other job is already in use here (the agreement went wrong)");
        return abandon(MPI_ERR_INTERN);
    }
    // The hidden local communicator's id only needs to be free in the local group.
    IntraChannel channel(comm);
    std::vector<uint32_t> local_id;
    if (int rc = agree_context_ids(comm_registry().ids, channel, 1, &local_id)) {
        comm_registry().unused_id(remote.context_id);
        set_error("agreeing on the local group's context id failed");
        return abandon(rc);
    }
    Comm *c = build::make_inter(remote.context_id, local_id[0], comm->local_procs, ids, comm->rank, comm);
    register_pair_secret(remote, ids);
    if (int rc = reach(ids)) {
        // Half built: the object and the endpoints of the processes reached before the one that
        // failed, unless another communicator reaches them too.
        comm_registry().discard(nullptr, c);
        drop_endpoints(unreached_except(ids, nullptr));
        return rc;
    }
    build::publish(c, out);
    return MPI_SUCCESS;
}

int proc_name(const Comm *comm, int rank, bool remote, plexus_dpm_proc_t *out) {
    const ProcList &list = remote ? comm->remote_procs : comm->local_procs;
    if (!out || rank < 0 || static_cast<size_t>(rank) >= list.size()) return MPI_ERR_RANK;
    const runtime::ProcId &p = g_mpi->procs().at(list[static_cast<size_t>(rank)]);
    out->nspace = intern(p.nspace);
    out->rank = p.rank;
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi::dpm
