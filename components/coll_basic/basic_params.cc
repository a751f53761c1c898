#include "basic_params.h"

#include <cstdint>

#include <plexus/sdk/param.hpp>

#include "basic_scratch.h"

namespace plexus::coll_basic {
namespace {

constexpr const char *kBarrierValues[] = {"auto", "dissemination", "linear", nullptr};
constexpr const char *kBcastValues[] = {"auto", "binomial", "scatter_allgather", "linear", "pipeline", nullptr};
constexpr const char *kReduceValues[] = {"auto", "binomial", "reduce_scatter_gather", "linear", "direct", nullptr};
constexpr const char *kAllreduceValues[] = {"auto",         "recursive_doubling", "rabenseifner", "ring",
                                            "reduce_bcast", "direct",             nullptr};
constexpr const char *kAllgatherValues[] = {"auto", "recursive_doubling", "ring", "bruck", "linear", nullptr};
constexpr const char *kOversubscribedValues[] = {"auto", "no", "yes", nullptr};
constexpr const char *kAlltoallValues[] = {"auto", "bruck", "pairwise", "linear", nullptr};

// What the core writes at registration (SIZE parameters are uint64_t), copied into g_params.
struct Storage {
    uint64_t bcast_large = kDefaultBcastLarge;
    uint64_t reduce_large = kDefaultReduceLarge;
    uint64_t allreduce_large = kDefaultAllreduceLarge;
    uint64_t allgather_large = kDefaultAllgatherLarge;
    uint64_t alltoall_large = kDefaultAlltoallLarge;
    uint64_t gather_large = kDefaultGatherLarge;
    uint64_t scatter_large = kDefaultScatterLarge;
    uint64_t scratch_keep = kDefaultScratchKeep;
    uint64_t reduce_segment = kDefaultReduceSegment;
    uint64_t reduce_linear_below = kDefaultReduceLinearBelow;
    uint64_t bcast_linear_below = kDefaultBcastLinearBelow;
    uint64_t bcast_segment = kDefaultBcastSegment;
    uint64_t bcast_pipeline_below = kDefaultBcastPipelineBelow;
    uint64_t allreduce_reduce_bcast_below = kDefaultAllreduceReduceBcastBelow;
    uint64_t allreduce_direct_below = kDefaultAllreduceDirectBelow;
};

Params defaults() {
    Params p;
    p.bcast_large = kDefaultBcastLarge;
    p.reduce_large = kDefaultReduceLarge;
    p.allreduce_large = kDefaultAllreduceLarge;
    p.allgather_large = kDefaultAllgatherLarge;
    p.alltoall_large = kDefaultAlltoallLarge;
    p.gather_large = kDefaultGatherLarge;
    p.scatter_large = kDefaultScatterLarge;
    p.reduce_segment = kDefaultReduceSegment;
    p.reduce_linear_below = kDefaultReduceLinearBelow;
    p.bcast_linear_below = kDefaultBcastLinearBelow;
    p.bcast_segment = kDefaultBcastSegment;
    p.bcast_pipeline_below = kDefaultBcastPipelineBelow;
    p.allreduce_reduce_bcast_below = kDefaultAllreduceReduceBcastBelow;
    p.allreduce_direct_below = kDefaultAllreduceDirectBelow;
    return p;
}

Params g_params = defaults();
int g_oversubscribed = kOversubscribedAuto;
uint32_t g_node_cpus = 0;  // 0: unknown, never oversubscribed under auto
Storage g_storage;

using plexus::sdk::ParamDesc;

ParamDesc enumerated(const char *name, const char *const *values, const char *help, int *storage) {
    return plexus::sdk::enum_param(name, storage, values, "auto", help, 5);
}

// Byte sizes: the thresholds at which auto switches algorithm, the segments of the pipelined ones
// (level 6: tuning, not everyday use).
ParamDesc threshold(const char *name, const char *def, const char *help, uint64_t *storage) {
    return plexus::sdk::size_param(name, storage, def, help, 6);
}

long clamp_long(uint64_t v) { return v > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<long>(v); }

}  // namespace

int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
    const int rc = plexus::sdk::register_params(host, self, {
        enumerated("barrier_algorithm", kBarrierValues,
                   "Barrier algorithm: dissemination (ceil(log2 p) rounds of zero-byte messages), "
                   "linear (everyone signals rank 0, which releases everyone); auto is dissemination, "
                   "linear on an oversubscribed node from 3 processes on. Default auto.",
                   &g_params.barrier_algorithm),
        enumerated("bcast_algorithm", kBcastValues,
                   "Bcast algorithm: binomial (tree), scatter_allgather (binomial scatter + ring "
                   "allgather of the packed bytes, van de Geijn), linear (the root sends to every "
                   "process), pipeline (up to 3 chains in rank order headed by the root, the message "
                   "cut in segments of coll_basic_bcast_segment_bytes, each passed on while the next "
                   "arrives); auto uses scatter_allgather from coll_basic_bcast_large_bytes on "
                   "(communicators of more than 2 processes), below it binomial; on an oversubscribed "
                   "node linear below coll_basic_bcast_linear_bytes, pipeline from it and linear again "
                   "from coll_basic_bcast_pipeline_bytes (from 3 processes). Default auto.",
                   &g_params.bcast_algorithm),
        enumerated("reduce_algorithm", kReduceValues,
                   "Reduce algorithm: binomial (tree; keeps the operand order of non-commutative "
                   "operations), reduce_scatter_gather (Rabenseifner: recursive halving + binomial "
                   "gather; commutative operations only, others use binomial), linear (the root "
                   "receives every vector and combines them in rank order), direct (every process "
                   "combines its block of the vector from all the others at once, then sends it to "
                   "the root; any operation); auto uses reduce_scatter_gather from "
                   "coll_basic_reduce_large_bytes on, below it binomial; on an oversubscribed node "
                   "linear below coll_basic_reduce_linear_bytes and direct from it on (from 3 "
                   "processes). Default auto.",
                   &g_params.reduce_algorithm),
        enumerated("allreduce_algorithm", kAllreduceValues,
                   "Allreduce algorithm: recursive_doubling, rabenseifner (recursive halving + "
                   "recursive doubling allgather), ring (ring reduce-scatter + ring allgather); both "
                   "need a commutative operation and at least one item per block, else "
                   "recursive_doubling is used; reduce_bcast (linear reduce to rank 0, linear bcast "
                   "from it); direct (every process combines its block of the vector from all the "
                   "others at once, then sends it to all; any operation); auto uses rabenseifner from "
                   "coll_basic_allreduce_large_bytes on, below it recursive_doubling; on an "
                   "oversubscribed node from 3 processes reduce_bcast below "
                   "coll_basic_allreduce_reduce_bcast_bytes, direct below "
                   "coll_basic_allreduce_direct_bytes, rabenseifner from it on. Default auto.",
                   &g_params.allreduce_algorithm),
        enumerated("allgather_algorithm", kAllgatherValues,
                   "Allgather algorithm: recursive_doubling (power-of-two sizes; others use bruck), "
                   "ring, bruck, linear (every block sent to every process at once); auto uses "
                   "recursive_doubling or bruck below coll_basic_allgather_large_bytes and ring from "
                   "it on; on an oversubscribed node linear from that size on, and for every size "
                   "from 3 processes on (Allgatherv: linear on an oversubscribed node, else ring). "
                   "Default auto.",
                   &g_params.allgather_algorithm),
        enumerated("alltoall_algorithm", kAlltoallValues,
                   "Alltoall algorithm: bruck (log2 p rounds, blocks forwarded), pairwise (p - 1 "
                   "exchanges), linear (every exchange posted at once); auto uses bruck below "
                   "coll_basic_alltoall_large_bytes and pairwise from it on; on an oversubscribed "
                   "node linear from that size on, and for every size from 3 processes on. "
                   "Default auto.",
                   &g_params.alltoall_algorithm),
        enumerated("node_oversubscribed", kOversubscribedValues,
                   "Whether auto's choices assume more ranks than CPUs on this node, where a process "
                   "waiting for a relay waits for it to be scheduled, so the algorithms without "
                   "relays win: linear barrier (from 3 processes), linear bcast below "
                   "coll_basic_bcast_linear_bytes and from coll_basic_bcast_pipeline_bytes, pipeline "
                   "between them (from 3 processes), linear reduce below coll_basic_reduce_linear_bytes "
                   "and direct from it (from 3 processes), reduce_bcast and direct allreduce below "
                   "coll_basic_allreduce_reduce_bcast_bytes and coll_basic_allreduce_direct_bytes "
                   "(from 3 processes), "
                   "linear allgather, allgatherv and alltoall from their large sizes on (every size "
                   "from 3 processes). auto decides per communicator: yes when all its members are "
                   "on this node and outnumber its CPUs online (no for a communicator with members "
                   "of other jobs or nodes, so that every member decides alike). Default auto.",
                   &g_oversubscribed),
        threshold("bcast_large_bytes", "4m",
                  "Bcast messages (count * type size) of at least this many bytes use scatter_allgather "
                  "under auto. Default 4m.",
                  &g_storage.bcast_large),
        threshold("reduce_large_bytes", "16m",
                  "Reduce vectors (count * type size) of at least this many bytes use "
                  "reduce_scatter_gather under auto (commutative operations). Default 16m.",
                  &g_storage.reduce_large),
        threshold("allreduce_large_bytes", "16k",
                  "Allreduce vectors (count * type size) of at least this many bytes use rabenseifner "
                  "under auto (commutative operations). Default 16k.",
                  &g_storage.allreduce_large),
        threshold("allgather_large_bytes", "256k",
                  "Allgather results (communicator size * recvcount * type size) of at least this many "
                  "bytes use ring under auto. Default 256k.",
                  &g_storage.allgather_large),
        threshold("alltoall_large_bytes", "1k",
                  "Alltoall blocks (bytes one process sends to one peer) of at least this many bytes use "
                  "pairwise under auto. Default 1k.",
                  &g_storage.alltoall_large),
        threshold("gather_large_bytes", "1k",
                  "Gather blocks (bytes each process contributes) of at least this many bytes are "
                  "received by the root one by one (linear) instead of along a binomial tree. Default 1k.",
                  &g_storage.gather_large),
        threshold("scatter_large_bytes", "8k",
                  "Scatter blocks (bytes each process receives) of at least this many bytes are sent by "
                  "the root one by one (linear) instead of along a binomial tree. Default 8k.",
                  &g_storage.scatter_large),
        threshold("reduce_linear_bytes", "256k",
                  "On a node with more ranks than CPUs (coll_basic_node_oversubscribed), Reduce "
                  "vectors (count * type size) below this many bytes use linear under auto, larger "
                  "ones direct (from 3 processes; binomial on 2). Default 256k.",
                  &g_storage.reduce_linear_below),
        threshold("allreduce_reduce_bcast_bytes", "32k",
                  "On a node with more ranks than CPUs (coll_basic_node_oversubscribed), from 3 "
                  "processes, Allreduce vectors (count * type size) below this many bytes use "
                  "reduce_bcast under auto. Default 32k.",
                  &g_storage.allreduce_reduce_bcast_below),
        threshold("allreduce_direct_bytes", "256k",
                  "On a node with more ranks than CPUs (coll_basic_node_oversubscribed), from 3 "
                  "processes, Allreduce vectors (count * type size) from "
                  "coll_basic_allreduce_reduce_bcast_bytes up to below this many bytes use direct "
                  "under auto, larger ones rabenseifner. Default 256k.",
                  &g_storage.allreduce_direct_below),
        threshold("bcast_linear_bytes", "64k",
                  "On a node with more ranks than CPUs (coll_basic_node_oversubscribed), Bcast "
                  "messages (count * type size) below this many bytes use linear under auto, larger "
                  "ones pipeline (from 3 processes; binomial on 2). Default 64k.",
                  &g_storage.bcast_linear_below),
        threshold("bcast_pipeline_bytes", "512k",
                  "On a node with more ranks than CPUs (coll_basic_node_oversubscribed), from 3 "
                  "processes, Bcast messages (count * type size) of at least this many bytes use "
                  "linear again instead of pipeline under auto: every process takes the whole message "
                  "from the root, which the shared-memory transport can do by single copy without "
                  "the root running, while the chains' segments wait for every relay to be "
                  "scheduled. Default 512k.",
                  &g_storage.bcast_pipeline_below),
        threshold("bcast_segment_bytes", "8000",
                  "Bytes of one segment of the pipeline bcast (what the shared-memory transport sends "
                  "through its fast boxes, at most 8 KiB with the header). At least 1. Default 8000.",
                  &g_storage.bcast_segment),
        threshold("reduce_segment_bytes", "128k",
                  "The binomial reduce (Reduce, and the reductions other collectives make with it) "
                  "moves vectors of at least two segments of this many bytes segment by segment, "
                  "combining one while the next arrives; 0 moves whole vectors. Default 128k.",
                  &g_storage.reduce_segment),
        threshold("scratch_keep_bytes", "64m",
                  "Bytes of temporaries (the scratch buffers of reductions, Bruck, in-place copies) each "
                  "thread keeps between collective calls instead of freeing and allocating them again; "
                  "a larger temporary is freed after its call, 0 keeps none. Default 64m.",
                  &g_storage.scratch_keep),
    });
    if (rc != PLEXUS_SUCCESS) return rc;
    g_params.bcast_large = clamp_long(g_storage.bcast_large);
    g_params.reduce_large = clamp_long(g_storage.reduce_large);
    g_params.allreduce_large = clamp_long(g_storage.allreduce_large);
    g_params.allgather_large = clamp_long(g_storage.allgather_large);
    g_params.alltoall_large = clamp_long(g_storage.alltoall_large);
    g_params.gather_large = clamp_long(g_storage.gather_large);
    g_params.scatter_large = clamp_long(g_storage.scatter_large);
    g_params.reduce_segment = clamp_long(g_storage.reduce_segment);
    g_params.reduce_linear_below = clamp_long(g_storage.reduce_linear_below);
    g_params.bcast_linear_below = clamp_long(g_storage.bcast_linear_below);
    g_params.bcast_segment = clamp_long(g_storage.bcast_segment);
    g_params.bcast_pipeline_below = clamp_long(g_storage.bcast_pipeline_below);
    g_params.allreduce_reduce_bcast_below = clamp_long(g_storage.allreduce_reduce_bcast_below);
    g_params.allreduce_direct_below = clamp_long(g_storage.allreduce_direct_below);
    set_scratch_keep(g_storage.scratch_keep);
    return PLEXUS_SUCCESS;
}

const Params &params() { return g_params; }

void set_node_cpus(uint32_t cpus_online) { g_node_cpus = cpus_online; }

// Every member must decide alike, or they run different algorithms and wait for messages that
// never come (a communicator merged from two jobs, one of them crowding the node, hung so). So
// auto asks only what every member sees the same: whether the whole communicator is on this
// node (local_peers counts neither other nodes' members nor other jobs', so a member elsewhere
// makes it false everywhere) and how its size compares with the node's CPUs.
bool oversubscribed_for(const plexus_coll_scope_t &scope) {
    if (g_oversubscribed != kOversubscribedAuto) return g_oversubscribed == kOversubscribedYes;
    const bool whole_comm_here = scope.is_inter == 0 && scope.local_peers == scope.size;
    return whole_comm_here && g_node_cpus > 0 && static_cast<uint32_t>(scope.size) > g_node_cpus;
}

}  // namespace plexus::coll_basic
