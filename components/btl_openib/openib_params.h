// The btl_openib parameters: their defaults, their registration with the core, and the checks the
// registry cannot make alone (one value against another, the device lists' syntax).
#pragma once

#include <cstdint>
#include <string>

#include <plexus/btl.h>
#include <plexus/component.h>

namespace plexus::btl_openib {

// btl_openib_leave_pinned's values.
enum LeavePinned : int { kLeavePinnedNo = 0, kLeavePinnedYes = 1 };

struct OpenibParams {
    // Comma-separated device[:port] entries; at most one of the two may be set.
    const char *if_include = "";
    const char *if_exclude = "";
    // Receive buffers posted per connected peer for its data messages, and for its credit
    // messages; the send queue's depth per queue pair.
    int64_t recv_queue_depth = 32;
    int64_t ctl_credits = 4;
    int64_t send_queue_depth = 128;
    // Registered send buffers of max_send_size bytes, shared by every peer.
    int64_t send_buffers = 128;
    // Eager RDMA channels: at most eager_rdma_num rings granted to peers (paper 003's maxRDMA),
    // each of eager_rdma_slots slots of eager_limit bytes; one is asked for after
    // eager_rdma_threshold messages to a peer (0: only when reconf asks).
    int64_t eager_rdma_num = 8;
    int64_t eager_rdma_slots = 32;
    int64_t eager_rdma_threshold = 16;
    // Registration cache: keep registrations after use (leave_pinned), up to these limits.
    int leave_pinned = kLeavePinnedNo;
    uint64_t reg_cache_max_bytes = uint64_t{1} << 30;
    int64_t reg_cache_max_entries = 4096;
    // Bytes accepted for one peer and not yet posted (no connection or no credits yet).
    uint64_t max_queued = 4 * 1024 * 1024;
    // RC transport: ACK timeout exponent (4.096 us * 2^timeout) and retries; connect timeout (ms).
    int64_t ib_timeout = 20;
    int64_t ib_retry_count = 7;
    int64_t connect_timeout = 30000;
    // The core registers these for every BTL; openib's own values, used unless the user sets them.
    uint64_t eager_limit = 12 * 1024;
    uint64_t max_send_size = 32 * 1024;
    uint32_t exclusivity = PLEXUS_BTL_EXCLUSIVITY_HIGH;
};

// Registers every parameter with storage in *p, and reads the ones every BTL has into *p.
int register_openib_params(const plexus_host_api_t *host, const plexus_component_t *self, OpenibParams *p);

// Empty when p is usable, else one sentence naming the parameter, its value and what is valid.
std::string validate_openib_params(const OpenibParams &p);

}  // namespace plexus::btl_openib
