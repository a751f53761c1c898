// The sm business card: what a peer needs to reach this process through shared memory. Put
// into the modex at open, fetched by every peer in add_procs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <plexus/shm.h>

namespace plexus::btl_sm {

constexpr uint32_t kCardMagic = 0x50534d43u;  // "PSMC"
constexpr uint32_t kCardVersion = 2;

struct Card {
    uint32_t magic;
    uint32_t version;
    int32_t pid;
    uint32_t reserved;
    uint64_t probe_addr;          // a word of this process a peer reads to see whether CMA works
    uint64_t probe_value;         // what it holds
    char node[192];               // hostname + boot id: same node iff equal
    plexus_shm_desc_t segment;    // the core's descriptor of this process's segment
};

// hostname + "/" + /proc/sys/kernel/random/boot_id (so that two containers or a rebooted host
// with the same name are told apart). Empty on failure, with *why.
std::string node_identity(std::string *why);

// Builds a card; false when a string does not fit.
bool make_card(const std::string &node, const plexus_shm_desc_t &segment, int32_t pid, uint64_t probe_addr,
               uint64_t probe_value, Card *out);

// Checks what came out of the modex: length, magic, version, a terminated node (the core checks
// the segment descriptor when it attaches).
bool parse_card(const void *data, size_t len, Card *out, std::string *why);

}  // namespace plexus::btl_sm
