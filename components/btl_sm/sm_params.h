// The btl_sm parameters: their defaults, their registration with the core and the checks the
// core's registry cannot make on its own (powers of two, one limit against another).
#pragma once

#include <cstdint>
#include <string>

#include <plexus/btl.h>
#include <plexus/component.h>

namespace plexus::btl_sm {

enum SingleCopy : int { kSingleCopyCma = 0, kSingleCopyNone = 1 };  // index in the enum values

// On a node with more ranks than CPUs, while single_copy_threshold is left at its default, single
// copy from these payload sizes on, with no upper limit (measured: see README.md, "Oversubscribed
// nodes"): from 4 MiB up to kCrowdedRanksPerCpu ranks per CPU, from 1 MiB beyond.
inline constexpr uint64_t kOversubscribedSingleCopyFrom = 4 * 1024 * 1024;
inline constexpr uint64_t kCrowdedSingleCopyFrom = 1024 * 1024;
inline constexpr uint32_t kCrowdedRanksPerCpu = 4;

// The single-copy threshold for local_size ranks on cpus CPUs (cpus 0: unknown, taken as crowded)
// when the user left it at its default.
uint64_t oversubscribed_single_copy_from(uint32_t local_size, uint32_t cpus);

// The single-copy window a module uses: [threshold, limit], limit 0 for none.
struct SingleCopyWindow {
    uint64_t threshold;
    uint64_t limit;
};

struct SmParams {
    int64_t fastbox_threshold = 8;
    int64_t fastbox_max = 32;
    uint64_t fastbox_size = 32 * 1024;
    int single_copy = kSingleCopyCma;
    // Single copy for payloads from single_copy_threshold up to single_copy_limit (0: no limit);
    // fragments below and above, where both processes copying at once is faster (README.md).
    uint64_t single_copy_threshold = 32 * 1024;
    uint64_t single_copy_limit = 2 * 1024 * 1024;
    // The core registers these for every BTL (btl_sm_eager_limit, btl_sm_max_send_size,
    // btl_sm_exclusivity); these are sm's own values, used unless the user sets them.
    uint64_t eager_limit = 32 * 1024;
    uint64_t max_send_size = 32 * 1024;
    uint32_t exclusivity = PLEXUS_BTL_EXCLUSIVITY_NODE;
    int64_t free_list_num = 64;
    int64_t max_frag_num = 32;
    int64_t fifo_size = 1024;
    // Microseconds a send may find every fragment still with receivers before rendezvous
    // payloads switch to single copy (see README.md, "Receivers that do not drain"); -1: never.
    int64_t single_copy_stall = 200;
};

// How long rendezvous payloads keep going by single copy after a stall, unless another stall
// extends it: short enough that an idle machine is back on the faster fragments soon after a
// passing disturbance. A stall again within a hold of coming back doubles the hold (up to
// kStallHoldMaxNs), so that a machine that stays busy pays the stall bound rarely.
inline constexpr int64_t kStallHoldNs = 100'000'000;
inline constexpr int64_t kStallHoldMaxNs = 6'400'000'000;

// Registers every parameter with storage in *p (the core writes the effective values there), and
// reads the ones the core registers for every BTL into *p.
int register_sm_params(const plexus_host_api_t *host, const plexus_component_t *self, SmParams *p);

// Empty when p is usable, else one sentence naming the parameter, its value and what is valid.
std::string validate_sm_params(const SmParams &p);

}  // namespace plexus::btl_sm
