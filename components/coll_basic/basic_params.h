// The coll_basic parameters: the algorithm each collective uses (auto, or one forced by
// coll_basic_<function>_algorithm) and the message sizes at which auto switches to the
// large-message algorithm. Registered with the core, which parses and checks the values (a bad
// enum value or size is reported with the parameter's name and the valid values).
#pragma once

#include <plexus/coll.h>
#include <plexus/component.h>

#include "basic_context.h"

namespace plexus::coll_basic {

// Index in each parameter's enum values; 0 is always "auto".
enum BarrierAlgorithm : int { kBarrierAuto = 0, kBarrierDissemination, kBarrierLinear };
enum BcastAlgorithm : int { kBcastAuto = 0, kBcastBinomial, kBcastScatterAllgather, kBcastLinear, kBcastPipeline };
enum ReduceAlgorithm : int {
    kReduceAuto = 0,
    kReduceBinomial,
    kReduceScatterGather,
    kReduceLinear,
    kReduceDirect
};
enum AllreduceAlgorithm : int {
    kAllreduceAuto = 0,
    kAllreduceRecursiveDoubling,
    kAllreduceRabenseifner,
    kAllreduceRing,
    kAllreduceReduceBcast,
    kAllreduceDirect
};
enum AllgatherAlgorithm : int {
    kAllgatherAuto = 0,
    kAllgatherRecursiveDoubling,
    kAllgatherRing,
    kAllgatherBruck,
    kAllgatherLinear
};
enum Oversubscribed : int { kOversubscribedAuto = 0, kOversubscribedNo, kOversubscribedYes };
enum AlltoallAlgorithm : int { kAlltoallAuto = 0, kAlltoallBruck, kAlltoallPairwise, kAlltoallLinear };

// Defaults (bytes of the whole vector: count * type size; for allgather and alltoall the bytes one
// process contributes to one peer times the communicator size). Measured: see README.md.
inline constexpr long kDefaultBcastLarge = 4 * 1024 * 1024;
inline constexpr long kDefaultReduceLarge = 16 * 1024 * 1024;
inline constexpr long kDefaultAllreduceLarge = 16 * 1024;
inline constexpr long kDefaultAllgatherLarge = 256 * 1024;
inline constexpr long kDefaultAlltoallLarge = 1024;
inline constexpr long kDefaultGatherLarge = 1024;
inline constexpr long kDefaultScatterLarge = 8 * 1024;
inline constexpr long kDefaultReduceSegment = 128 * 1024;
inline constexpr long kDefaultReduceLinearBelow = 256 * 1024;
inline constexpr long kDefaultAllreduceReduceBcastBelow = 32 * 1024;
inline constexpr long kDefaultAllreduceDirectBelow = 256 * 1024;
inline constexpr long kDefaultBcastLinearBelow = 64 * 1024;
inline constexpr long kDefaultBcastSegment = 8000;
inline constexpr long kDefaultBcastPipelineBelow = 512 * 1024;
inline constexpr long kDefaultScratchKeep = 64l * 1024 * 1024;

// Registers every parameter; the effective values land in the process-wide parameters.
int register_params(const plexus_host_api_t *host, const plexus_component_t *self);

// The values registered (the defaults until register_params ran).
const Params &params();

// The node's CPUs online (plexus_job_info_t::cpus_online; 0 when unknown), told at open.
void set_node_cpus(uint32_t cpus_online);

// Params::oversubscribed for one communicator: coll_basic_node_oversubscribed, or under auto
// whether all its members are on this node and outnumber its CPUs (the same at every member).
bool oversubscribed_for(const plexus_coll_scope_t &scope);

}  // namespace plexus::coll_basic
