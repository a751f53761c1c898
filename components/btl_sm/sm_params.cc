#include "sm_params.h"

#include <algorithm>
#include <string>

#include "fastbox.h"
#include "shared_word.h"

namespace plexus::btl_sm {
namespace {

constexpr const char *kSingleCopyValues[] = {"cma", "none", nullptr};

plexus_param_desc_t desc(const char *name, plexus_param_type_t type, const char *def, const char *help,
                         int level, void *storage) {
    plexus_param_desc_t d{};
    d.struct_size = sizeof d;
    d.name = name;
    d.type = type;
    d.default_value = def;
    d.help = help;
    d.level = level;
    d.storage = storage;
    return d;
}

plexus_param_desc_t ranged(plexus_param_desc_t d, int64_t min, int64_t max) {
    d.has_range = 1;
    d.min = min;
    d.max = max;
    return d;
}

std::string size_text(uint64_t v) { return std::to_string(v) + " bytes"; }

}  // namespace

int register_sm_params(const plexus_host_api_t *host, const plexus_component_t *self, SmParams *p) {
    plexus_param_desc_t all[] = {
        ranged(desc("fastbox_threshold", PLEXUS_PARAM_INT, "8",
                    "Messages sent to a peer on the FIFO path before asking it for a fast box "
                    "(0: ask with the first message). Default 8.",
                    5, &p->fastbox_threshold),
               0, 1 << 30),
        ranged(desc("fastbox_max", PLEXUS_PARAM_INT, "32",
                    "Most fast boxes this process grants to senders (each costs btl_sm_fastbox_size "
                    "bytes of its segment); 0 turns fast boxes off. Default 32, at most 4096.",
                    4, &p->fastbox_max),
               0, 4096),
        desc("fastbox_size", PLEXUS_PARAM_SIZE, "32k",
             "Bytes of one fast-box ring: a power of two from 4k to 4m. Messages up to a quarter of "
             "it (and up to btl_sm_eager_limit) use the box. Default 32k.",
             5, &p->fastbox_size),
        [&] {
            plexus_param_desc_t d = desc("single_copy", PLEXUS_PARAM_ENUM, "cma",
                                         "Single-copy mechanism for large messages and put/get: cma "
                                         "(Cross Memory Attach, process_vm_readv/writev; peers where "
                                         "the kernel forbids it fall back to copies through shared "
                                         "fragments) or none. Default cma.",
                                         3, &p->single_copy);
            d.enum_values = kSingleCopyValues;
            return d;
        }(),
        desc("single_copy_threshold", PLEXUS_PARAM_SIZE, "16m",
             "Payloads of at least this many bytes go by single copy (rdma_threshold) when "
             "btl_sm_single_copy is cma and works; smaller rendezvous messages are pipelined "
             "through fragments, which both processes copy at once (faster wherever both have a "
             "core). Left at its default on a node that runs more ranks of the job than it has "
             "CPUs, payloads from 1m on go by single copy instead. At least 1. Default 16m.",
             4, &p->single_copy_threshold),
        desc("eager_limit", PLEXUS_PARAM_SIZE, "32k",
             "Largest message (header + payload) sent without asking the receiver first: from 256 "
             "bytes to btl_sm_max_send_size. Default 32k.",
             4, &p->eager_limit),
        desc("max_send_size", PLEXUS_PARAM_SIZE, "32k",
             "Largest message (header + payload) of any send, i.e. the fragment size of pipelined "
             "rendezvous: from btl_sm_eager_limit to 16m. Default 32k.",
             4, &p->max_send_size),
        ranged(desc("free_list_num", PLEXUS_PARAM_INT, "64",
                    "Eager-size fragments in this process's segment (messages on the FIFO path in "
                    "flight at once, to all peers). Default 64.",
                    6, &p->free_list_num),
               4, 65536),
        ranged(desc("max_frag_num", PLEXUS_PARAM_INT, "32",
                    "Max-size fragments (btl_sm_max_send_size each) in this process's segment, for "
                    "large messages sent by copy. Default 32.",
                    6, &p->max_frag_num),
               2, 4096),
        ranged(desc("fifo_size", PLEXUS_PARAM_INT, "1024",
                    "Slots of the receive FIFO (a power of two from 64 to 65536); senders finding it "
                    "full retry later. Default 1024.",
                    6, &p->fifo_size),
               64, 65536),
        ranged(desc("single_copy_stall", PLEXUS_PARAM_INT, "200",
                    "Microseconds a send may find every fragment of this process still with its "
                    "receivers (none drained meanwhile) before rendezvous payloads from "
                    "btl_sm_eager_limit on go by single copy: the rest of a pipelined transfer in "
                    "progress (the sender writes it) and every rendezvous message of the next "
                    "100 ms, longer while stalls keep coming (the receiver reads it). Needs btl_sm_single_copy=cma. 0: at the first "
                    "such send; -1: never. Default 200.",
                    5, &p->single_copy_stall),
               -1, 10'000'000),
    };
    for (const auto &d : all)
        if (int rc = host->param_register(self, &d); rc != PLEXUS_SUCCESS) return rc;
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
    if (!is_power_of_two(static_cast<uint64_t>(p.fifo_size)))
        return "btl_sm_fifo_size is " + std::to_string(p.fifo_size) + "; valid: a power of two from 64 to 65536";
    return "";
}

// The pipelined copy through fragments needs sender and receiver on a CPU at once. At 2-3 ranks
// per CPU a fragment rarely waits long for its peer, and pinning the pages for a single copy costs
// more than the second copy up to 4 MiB; from 4 ranks per CPU the waits dominate from 1 MiB.
uint64_t oversubscribed_single_copy_from(uint64_t configured, uint32_t local_size, uint32_t cpus) {
    const bool crowded = cpus == 0 || local_size >= uint64_t{kCrowdedRanksPerCpu} * cpus;
    return std::min(configured, crowded ? kCrowdedSingleCopyFrom : kOversubscribedSingleCopyFrom);
}

}  // namespace plexus::btl_sm
