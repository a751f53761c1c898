// What every coll_basic algorithm needs: the services table of the MPI layer and the component's
// parameters (thresholds, forced algorithms), reached through the module a function is called
// with. Written by the module (basic_module.cc) at query time; read-only afterwards.
#pragma once

#include <plexus/coll.h>

namespace plexus::coll_basic {

// Algorithm choices a parameter can force (coll_basic_<function>_algorithm); Auto picks by
// message size and communicator size with the thresholds below.
struct Params {
    // Each int is an enum of its algorithm file; 0 is always "auto".
    int barrier_algorithm = 0;
    int bcast_algorithm = 0;
    int reduce_algorithm = 0;
    int allreduce_algorithm = 0;
    int allgather_algorithm = 0;
    int alltoall_algorithm = 0;
    // Bytes at and above which the large-message algorithm is used.
    long bcast_large = 0;
    long reduce_large = 0;
    long allreduce_large = 0;
    long allgather_large = 0;
    long alltoall_large = 0;
    // Gather / scatter blocks (bytes per process) at and above which the linear algorithm is used
    // instead of the binomial tree (added by coll_basic's module; the inter functions ignore them).
    long gather_large = 0;
    long scatter_large = 0;
    // Binomial reduce in segments of this many bytes (0: whole vectors).
    long reduce_segment = 0;
    // On an oversubscribed node, Reduce vectors and Bcast messages below these many bytes go linear.
    long reduce_linear_below = 0;
    long bcast_linear_below = 0;
    // Bytes of one segment of the pipelined (chain) bcast.
    long bcast_segment = 0;
    // On an oversubscribed node, Bcast messages from this many bytes go linear again (each process
    // receives the whole message from the root, by single copy where the transport offers it).
    long bcast_pipeline_below = 0;
    // On an oversubscribed node from 3 processes, Allreduce vectors below the first go reduce_bcast,
    // from it below the second direct.
    long allreduce_reduce_bcast_below = 0;
    long allreduce_direct_below = 0;
    // More ranks than CPUs on this node: auto prefers the algorithms in which no process waits
    // for a relay (linear bcast, allgather and alltoall), since every relay waits to be scheduled.
    bool oversubscribed = false;
};

struct Module {
    plexus_coll_module_t base;  // first: the MPI layer sees this
    const plexus_coll_services_t *svc = nullptr;
    const Params *params = nullptr;  // &own_params
    Params own_params;               // the process-wide values, oversubscribed decided for this communicator
};

inline Module &module_of(plexus_coll_module_t *self) { return *reinterpret_cast<Module *>(self); }

}  // namespace plexus::coll_basic
