#include "shm_module.h"

#include <new>

#include "shm_functions.h"

namespace plexus::coll_shm_inter {
namespace {

// The functions the engine has algorithms for; the rest (alltoall*, the v forms, scans) stay
// with the next component.
constexpr plexus_coll_functions_t kIntra = {
    intra_barrier, intra_bcast, intra_reduce,    intra_allreduce, intra_gather, nullptr,
    intra_scatter, nullptr,     intra_allgather, nullptr,         nullptr,      nullptr,
    nullptr,       nullptr,     nullptr,         nullptr,         nullptr};

// Alltoall stays pairwise, as in the paper: nothing to gain from a local phase; large blocks go
// by single copy between the pairs on one node (inter_alltoall.cc), smaller ones are declined to
// coll_basic, and so are Alltoallv / w. The v forms of the rooted ones are coll_basic's too: only
// the root knows the counts, so its direct messages beat any local phase.
constexpr plexus_coll_functions_t kInter = {
    inter_barrier,  inter_bcast,   inter_reduce, inter_allreduce,      inter_gather,
    nullptr,        inter_scatter, nullptr,      inter_allgather,      nullptr,
    inter_alltoall, nullptr,       nullptr,      inter_reduce_scatter, inter_reduce_scatter_block,
    nullptr,        nullptr};

void destroy(plexus_coll_module_t *self) {
    delete &module_of(self);
}

Module *make(const Env &env, const plexus_coll_functions_t &fns, int priority) {
    auto *m = new (std::nothrow) Module{};
    if (!m) return nullptr;
    m->base.struct_size = sizeof m->base;
    m->base.fn = fns;
    const bool served[PLEXUS_COLL_FUNCTION_COUNT] = {fns.barrier != nullptr,
                                                     fns.bcast != nullptr,
                                                     fns.reduce != nullptr,
                                                     fns.allreduce != nullptr,
                                                     fns.gather != nullptr,
                                                     fns.gatherv != nullptr,
                                                     fns.scatter != nullptr,
                                                     fns.scatterv != nullptr,
                                                     fns.allgather != nullptr,
                                                     fns.allgatherv != nullptr,
                                                     fns.alltoall != nullptr,
                                                     fns.alltoallv != nullptr,
                                                     fns.alltoallw != nullptr,
                                                     fns.reduce_scatter != nullptr,
                                                     fns.reduce_scatter_block != nullptr,
                                                     fns.scan != nullptr,
                                                     fns.exscan != nullptr};
    for (int f = 0; f < PLEXUS_COLL_FUNCTION_COUNT; ++f)
        m->base.priority[f] = served[f] ? priority : -1;
    m->base.destroy = destroy;
    m->env = env;
    return m;
}

}  // namespace

Module *create_intra_module(const Env &env, std::unique_ptr<TwoLevel> two, int priority) {
    Module *m = make(env, kIntra, priority);
    if (m) m->two = std::move(two);
    return m;
}

Module *create_inter_module(const Env &env, int priority) {
    return make(env, kInter, priority);
}

}  // namespace plexus::coll_shm_inter
