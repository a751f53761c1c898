#include "sm_params.h"

#include <algorithm>
#include <string>

#include <plexus/sdk/btl_limits.hpp>
#include <plexus/sdk/param.hpp>

#include "fastbox.h"
#include "sm_sdk.h"

namespace plexus::btl_sm {
namespace {

constexpr const char *kSingleCopyValues[] = {"cma", "none", nullptr};

std::string size_text(uint64_t v) { return std::to_string(v) + " bytes"; }

}  // namespace

int register_sm_params(const plexus_host_api_t *host, const plexus_component_t *self, SmParams *p) {
    using namespace plexus::sdk;
    const int rc = register_params(host, self, {
        int_param("fastbox_threshold", &p->fastbox_threshold, "8",
                  "Messages sent to a peer on the FIFO path before asking it for a fast box "
                  "(0: ask with the first message). Default 8.",
                  5).range(0, 1 << 30),
        int_param("fastbox_max", &p->fastbox_max, "32",
                  "Most fast boxes this process grants to senders (each costs btl_sm_fastbox_size "
                  "bytes of its segment); 0 turns fast boxes off. Default 32, at most 4096.",
                  4).range(0, 4096),
        size_param("fastbox_size", &p->fastbox_size, "32k",
                   "Bytes of one fast-box ring: a power of two from 4k to 4m. Messages up to a quarter of "
                   "it (and up to btl_sm_eager_limit) use the box. Default 32k.",
                   5),
        enum_param("single_copy", &p->single_copy, kSingleCopyValues, "cma",
                   "Single-copy mechanism for large messages and put/get: cma (Cross Memory Attach, "
                   "process_vm_readv/writev; peers where the kernel forbids it fall back to copies "
                   "through shared fragments) or none. Default cma.",
                   3),
        size_param("single_copy_threshold", &p->single_copy_threshold, "32k",
                   "Payloads of at least this many bytes (and at most btl_sm_single_copy_limit) go by "
                   "single copy (rdma_threshold) when btl_sm_single_copy is cma and works; smaller "
                   "rendezvous messages are pipelined through fragments. Left at its default on a node "
                   "that runs more ranks of the job than it has CPUs, single copy from 4m (1m from 4 "
                   "ranks per CPU) on instead, with no limit. At least 1. Default 32k.",
                   4),
        size_param("single_copy_limit", &p->single_copy_limit, "2m",
                   "Payloads larger than this go by fragments again, which both processes copy at once "
                   "(faster than a single copy from a few MiB on wherever both have a core); 0: no "
                   "limit. Not applied on an oversubscribed node, nor when btl_sm_single_copy_threshold "
                   "is set and this is not. Default 2m.",
                   4),
        int_param("free_list_num", &p->free_list_num, "64",
                  "Eager-size fragments in this process's segment (messages on the FIFO path in "
                  "flight at once, to all peers). Default 64.",
                  6).range(4, 65536),
        int_param("max_frag_num", &p->max_frag_num, "32",
                  "Max-size fragments (btl_sm_max_send_size each) in this process's segment, for "
                  "large messages sent by copy. Default 32.",
                  6).range(2, 4096),
        int_param("fifo_size", &p->fifo_size, "1024",
                  "Slots of the receive FIFO (a power of two from 64 to 65536); senders finding it "
                  "full retry later. Default 1024.",
                  6).range(64, 65536),
        int_param("single_copy_stall", &p->single_copy_stall, "200",
                  "Microseconds a send may find every fragment of this process still with its "
                  "receivers (none drained meanwhile) before rendezvous payloads from "
                  "btl_sm_eager_limit on go by single copy: the rest of a pipelined transfer in "
                  "progress (the sender writes it) and every rendezvous message of the next "
                  "100 ms, longer while stalls keep coming (the receiver reads it). Needs btl_sm_single_copy=cma. 0: at the first "
                  "such send; -1: never. Default 200.",
                  5).range(-1, 10'000'000),
    });
    if (rc != PLEXUS_SUCCESS) return rc;
    // btl_sm_eager_limit, _max_send_size and _exclusivity are the core's (every BTL has them).
    const BtlLimits limits = btl_limits(host, self, {p->eager_limit, p->max_send_size, p->exclusivity});
    p->eager_limit = limits.eager_limit;
    p->max_send_size = limits.max_send_size;
    p->exclusivity = limits.exclusivity;
    return PLEXUS_SUCCESS;
}

std::string validate_sm_params(const SmParams &p) {
    if (!is_power_of_two(p.fastbox_size) || p.fastbox_size < 4096 || p.fastbox_size > 4 * 1024 * 1024)
        return "btl_sm_fastbox_size is " + size_text(p.fastbox_size) +
               "; valid: a power of two from 4k (4096) to 4m";
    if (p.eager_limit < 256 || p.eager_limit > p.max_send_size)
        return "btl_sm_eager_limit is " + size_text(p.eager_limit) +
               "; valid: from 256 bytes to btl_sm_max_send_size (" + size_text(p.max_send_size) + ")";
    if (p.max_send_size > 16 * 1024 * 1024)
        return "btl_sm_max_send_size is " + size_text(p.max_send_size) + "; valid: from btl_sm_eager_limit to 16m";
    if (p.single_copy_threshold < 1) return "btl_sm_single_copy_threshold is 0 bytes; valid: 1 byte or more";
    if (p.single_copy_limit != 0 && p.single_copy_limit < p.single_copy_threshold)
        return "btl_sm_single_copy_limit is " + size_text(p.single_copy_limit) +
               ", below btl_sm_single_copy_threshold (" + size_text(p.single_copy_threshold) +
               "); valid: 0 (no limit) or at least the threshold";
    if (!is_power_of_two(static_cast<uint64_t>(p.fifo_size)))
        return "btl_sm_fifo_size is " + std::to_string(p.fifo_size) + "; valid: a power of two from 64 to 65536";
    return "";
}

// The pipelined copy through fragments needs sender and receiver on a CPU at once. At 2-3 ranks
// per CPU a fragment rarely waits long for its peer, and pinning the pages for a single copy costs
// more than the second copy up to 4 MiB; from 4 ranks per CPU the waits dominate from 1 MiB.
uint64_t oversubscribed_single_copy_from(uint32_t local_size, uint32_t cpus) {
    const bool crowded = cpus == 0 || local_size >= uint64_t{kCrowdedRanksPerCpu} * cpus;
    return crowded ? kCrowdedSingleCopyFrom : kOversubscribedSingleCopyFrom;
}

}  // namespace plexus::btl_sm
