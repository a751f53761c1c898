// The machine's IPv4 interfaces (every address of an interface that is up, with its netmask and
// MTU), and the one a parameter names (by name or by one of its addresses), reported with the
// interfaces that would match when nothing does. The dgram facility and, through host API 1.5,
// the components (btl_tcp) look interfaces up here alike.
#pragma once

#include <netinet/in.h>

#include <string>
#include <vector>

#include "runtime/status.h"

namespace plexus::runtime::dgram {

struct Ipv4Interface {
    std::string name;
    in_addr address{};
    in_addr netmask{};
    unsigned index = 0;
    size_t mtu = 0;
    bool multicast = false;  // IFF_MULTICAST (loopback lacks it yet loops multicast back)
    bool loopback = false;
};

// In the kernel's order; PLEXUS_ERR_NOT_AVAILABLE when getifaddrs fails.
Status list_ipv4_interfaces(std::vector<Ipv4Interface> *out);

// PLEXUS_ERR_NOT_AVAILABLE naming the valid choices when nothing matches.
Status find_ipv4_interface(const std::string &name_or_address, Ipv4Interface *out);

}  // namespace plexus::runtime::dgram
