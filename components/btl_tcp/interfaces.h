// Which IPv4 interfaces btl_tcp listens on and advertises: the machine's list (the core's
// lookup, host API 1.5, the one behind runtime_dgram_if), the user's btl_tcp_if_include /
// _if_exclude (names or CIDRs) parsed and applied, and a message that names the parameter and the
// interfaces that exist when an entry is wrong.
#pragma once

#include <netinet/in.h>
#include <plexus/component.h>

#include <cstdint>
#include <string>
#include <vector>

namespace plexus::btl_tcp {

struct Interface {
    std::string name;
    uint32_t addr = 0;     // host byte order
    uint32_t netmask = 0;  // host byte order
    bool loopback = false;
};

// One entry of an interface list: a name, or a network (CIDR).
struct IfSpec {
    std::string text;  // as the user wrote it
    bool is_cidr = false;
    uint32_t net = 0, mask = 0;  // host byte order, for a CIDR
};

// Every IPv4 address of an interface that is up, in the kernel's order, as the core lists them.
// False with *why when the core is older than host API 1.5 or cannot list them.
bool list_interfaces(const plexus_host_api_t *host, std::vector<Interface> *out, std::string *why);

// "lo (127.0.0.1/8), eth0 (10.0.0.5/24)": what a message offers as the valid choices.
std::string describe_interfaces(const std::vector<Interface> &ifs);
std::string dotted(uint32_t host_order_addr);

// Parses param's value (comma-separated; blanks around entries ignored). False with *why naming
// param, the entry and the interfaces in ifs when an entry is not a CIDR a.b.c.d/n (n 0-32) and
// not the name of one of ifs.
bool parse_if_list(const char *param, const std::string &value, const std::vector<Interface> &ifs,
                   std::vector<IfSpec> *out, std::string *why);

bool matches(const IfSpec &spec, const Interface &i);

// The interfaces left after include (when non-empty: those matching an entry) and exclude (those
// matching none). False with *why (naming the parameters and what exists) when none is left.
bool select_interfaces(const std::vector<Interface> &ifs, const std::vector<IfSpec> &include,
                       const std::vector<IfSpec> &exclude, std::vector<Interface> *out, std::string *why);

}  // namespace plexus::btl_tcp
