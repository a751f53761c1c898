// coll_shm_inter's parameters: the per-function size table (up to which size the engine serves
// a call; larger ones go down the chain to coll_basic), forcing every size, the engine's chunk
// and single-copy sizes, and the fake node split the tests use for the two-level paths.
#pragma once

#include <cstddef>
#include <cstdint>

#include <plexus/component.h>

#include "flag_wait.h"

namespace plexus::coll_shm_inter {

struct Params {
    bool force = false;           // serve every size (tests; the table is ignored)
    size_t chunk = 16384;         // bytes of one slot of the segment
    size_t single_copy_from = 0;  // Bcast by single copy from this many bytes (0: never)
    // The size table: the engine serves messages up to these many bytes (0: never).
    size_t bcast_max = 0;
    size_t reduce_max = 0;
    size_t allreduce_max = 0;
    size_t gather_max = 0;      // per process's block
    size_t allgather_max = 0;   // per process's block
    int ranks_per_node = 0;     // > 0: pretend nodes of this many consecutive ranks (tests)
    int spin = 0;               // flag polls before waiting through the progress engine
    int max_groups = 256;       // node groups (segments) a process keeps at once
    int flat_barrier_max = 16;  // node groups up to this size use the flat barrier
    // Single copy from these many bytes (0: never): the large-message half of the size table.
    size_t reduce_single_copy_from = 0;
    size_t allreduce_single_copy_from = 0;
    size_t gather_single_copy_from = 0;     // Gather and Scatter, per process's block
    size_t allgather_single_copy_from = 0;  // per process's block
    size_t leaders_single_copy_from = 0;    // inter-communicators: the leaders' exchange
    size_t alltoall_single_copy_from = 0;   // inter-communicators: Alltoall, per block
    size_t reduce_root_copy_from = 0;       // Reduce written into the root, which combines
    bool inter_union = true;  // inter-communicators on one node: one segment over both groups
    bool inter_union_rooted = true;  // and Bcast, Reduce over it (else through the leaders)
    FlagWaitPolicy wait;             // how flag waits poll and sleep (spin as above)
};

// Registers coll_shm_inter_* with the core (values land in params()).
int register_params(const plexus_host_api_t *host, const plexus_component_t *self);
// The values, read from the storage the core wrote (call after register_params; open copies).
const Params &params();
// Open: snapshot the registered values; oversubscribed nodes never spin before waiting.
void snapshot_params(bool oversubscribed);

}  // namespace plexus::coll_shm_inter
