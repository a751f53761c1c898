// coll_shm_inter's module: one per communicator. An intra-communicator's carries the TwoLevel
// made (collectively) in query; an inter-communicator's makes one over its local group at the
// first collective that has a local phase (the paper's hidden 2-level communicator), or runs
// that phase through the local communicator's own chain when shared memory cannot serve it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <plexus/coll.h>

#include "shm_two_level.h"

namespace plexus::coll_shm_inter {

struct Module {
    plexus_coll_module_t base;  // first: the MPI layer holds &base
    Env env;
    std::unique_ptr<TwoLevel>
        two;                   // intra: the communicator's; inter: the local group's, once made
    bool local_tried = false;  // inter: the local TwoLevel was attempted
    // inter: one node group over both groups (inter_local.h, union_two), once tried; both_lo /
    // other_lo: where this process's group and the other group start in it.
    std::unique_ptr<TwoLevel> both;
    bool both_tried = false;
    int both_lo = 0, other_lo = 0;
    std::vector<uint8_t> temps[2];  // inter: the leaders' temporaries, kept between calls
};

inline Module &module_of(plexus_coll_module_t *self) {
    return *reinterpret_cast<Module *>(self);
}

// The intra module over two (every served function at priority), or the inter module (two
// empty). nullptr when out of memory.
Module *create_intra_module(const Env &env, std::unique_ptr<TwoLevel> two, int priority);
Module *create_inter_module(const Env &env, int priority);

}  // namespace plexus::coll_shm_inter
