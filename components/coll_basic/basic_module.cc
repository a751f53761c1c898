#include "basic_module.h"

#include <cstddef>
#include <new>

#include "basic_functions.h"
#include "basic_params.h"

namespace plexus::coll_basic {
namespace {

constexpr plexus_coll_functions_t kIntra = {
    intra_barrier,   intra_bcast,     intra_reduce,         intra_allreduce,      intra_gather,
    intra_gatherv,   intra_scatter,   intra_scatterv,       intra_allgather,      intra_allgatherv,
    intra_alltoall,  intra_alltoallv, intra_alltoallw,      intra_reduce_scatter, intra_reduce_scatter_block,
    intra_scan,      intra_exscan};

// MPI defines scan and exscan on intra-communicators only: those two stay unserved.
constexpr plexus_coll_functions_t kInter = {
    inter_barrier,   inter_bcast,     inter_reduce,         inter_allreduce,      inter_gather,
    inter_gatherv,   inter_scatter,   inter_scatterv,       inter_allgather,      inter_allgatherv,
    inter_alltoall,  inter_alltoallv, inter_alltoallw,      inter_reduce_scatter, inter_reduce_scatter_block,
    nullptr,         nullptr};

void destroy(plexus_coll_module_t *self) { delete &module_of(self); }

// Members after `preference` are COLL 1.1; an older host passes a scope without them.
bool has_services(const plexus_coll_scope_t &scope) {
    return scope.struct_size >= offsetof(plexus_coll_scope_t, services) + sizeof scope.services &&
           scope.services != nullptr;
}

}  // namespace

Module *create_module(const plexus_coll_scope_t &scope, int priority, const Params *params) {
    auto *m = new (std::nothrow) Module{};
    if (!m) return nullptr;
    m->base.struct_size = sizeof m->base;
    const bool inter = scope.is_inter != 0;
    m->base.fn = inter ? kInter : kIntra;
    for (int &p : m->base.priority) p = priority;
    if (inter) {
        m->base.priority[PLEXUS_COLL_SCAN] = -1;
        m->base.priority[PLEXUS_COLL_EXSCAN] = -1;
    }
    m->base.destroy = destroy;
    m->svc = has_services(scope) ? scope.services : nullptr;
    m->own_params = *params;
    m->own_params.oversubscribed = oversubscribed_for(scope);
    m->params = &m->own_params;
    return m;
}

}  // namespace plexus::coll_basic
