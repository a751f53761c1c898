// The tcp business card: where a peer reaches this process (its listening port on each selected
// IPv4 address), and the host and node it runs on, for messages and for telling same-node peers
// when the runtime cannot. Put into the modex at open, read by every peer in add_procs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interfaces.h"

namespace plexus::btl_tcp {

inline constexpr uint32_t kCardMagic = 0x43435450u;  // "PTCC"
inline constexpr uint32_t kCardVersion = 1;
inline constexpr size_t kMaxCardAddresses = 16;

struct CardAddress {
    uint32_t addr;     // host byte order
    uint32_t netmask;  // host byte order
    uint8_t loopback;
    uint8_t reserved[3];
};

struct Card {
    uint32_t magic;
    uint32_t version;
    uint16_t port;  // host byte order; the same on every address
    uint16_t count;
    int32_t pid;
    char host[64];    // hostname, for messages
    char node[192];   // hostname + boot id: same node iff equal
    CardAddress addrs[kMaxCardAddresses];
};

// hostname + "/" + boot id, so that two containers or a rebooted host of one name differ.
std::string node_identity();
std::string host_name();

// Builds a card of at most kMaxCardAddresses of ifs (the rest are left out: *dropped counts
// them); false when a name does not fit.
bool make_card(const std::vector<Interface> &ifs, uint16_t port, int32_t pid, const std::string &host,
               const std::string &node, Card *out, size_t *dropped);

// Checks what came out of the modex: length, magic, version, terminated strings, count.
bool parse_card(const void *data, size_t len, Card *out, std::string *why);

}  // namespace plexus::btl_tcp
