// The IPv4 interface a parameter names (by name or by one of its addresses), with its MTU; what
// does not match is reported with the interfaces that would.
#pragma once

#include <netinet/in.h>

#include <string>

#include "runtime/status.h"

namespace plexus::runtime::dgram {

struct Ipv4Interface {
    std::string name;
    in_addr address{};
    unsigned index = 0;
    size_t mtu = 0;
    bool multicast = false;  // IFF_MULTICAST (loopback lacks it yet loops multicast back)
    bool loopback = false;
};

// PLEXUS_ERR_NOT_AVAILABLE naming the valid choices when nothing matches.
Status find_ipv4_interface(const std::string &name_or_address, Ipv4Interface *out);

}  // namespace plexus::runtime::dgram
