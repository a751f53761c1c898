#include "interfaces.h"

#include <arpa/inet.h>

#include <cstring>

#include <plexus/sdk/host.hpp>

namespace plexus::btl_tcp {
namespace {

std::string trim(const std::string &s) {
    const size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

int prefix_length(uint32_t mask) {
    int n = 0;
    while (n < 32 && (mask & (0x80000000u >> n))) ++n;
    return n;
}

// "a.b.c.d/n" with n 0-32 (inet_pton accepts only the four-part dotted form).
bool parse_cidr(const std::string &text, IfSpec *out) {
    const size_t slash = text.find('/');
    if (slash == std::string::npos) return false;
    const std::string addr = text.substr(0, slash), bits = text.substr(slash + 1);
    if (bits.empty() || bits.size() > 2 || bits.find_first_not_of("0123456789") != std::string::npos) return false;
    const int n = std::stoi(bits);
    in_addr a{};
    if (n > 32 || ::inet_pton(AF_INET, addr.c_str(), &a) != 1) return false;
    out->is_cidr = true;
    out->mask = n == 0 ? 0 : ~uint32_t{0} << (32 - n);
    out->net = ntohl(a.s_addr) & out->mask;
    return true;
}

}  // namespace

std::string dotted(uint32_t host_order_addr) {
    in_addr a{};
    a.s_addr = htonl(host_order_addr);
    char buf[INET_ADDRSTRLEN] = "";
    ::inet_ntop(AF_INET, &a, buf, sizeof buf);
    return buf;
}

bool list_interfaces(const plexus_host_api_t *host, std::vector<Interface> *out, std::string *why) {
    out->clear();
    if (!PLEXUS_HOST_HAS(host, ipv4_interfaces)) {
        *why = "needs host API 1.5 (ipv4_interfaces)";
        return false;
    }
    // Asked again with room for the count when there are more than the first guess.
    std::vector<plexus_ipv4_interface_t> raw(8);
    for (int attempt = 0; attempt < 3; ++attempt) {
        size_t count = 0;
        if (int rc = host->ipv4_interfaces(raw.data(), raw.size(), &count); rc != PLEXUS_SUCCESS) {
            *why = "the core cannot list the network interfaces (" + std::to_string(rc) + ")";
            return false;
        }
        if (count > raw.size()) {
            raw.resize(count);
            continue;
        }
        for (size_t i = 0; i < count; ++i) {
            Interface f;
            f.name.assign(raw[i].name, strnlen(raw[i].name, sizeof raw[i].name));
            f.addr = raw[i].addr;
            f.netmask = raw[i].netmask;
            f.loopback = (raw[i].flags & PLEXUS_IF_LOOPBACK) != 0;
            out->push_back(f);
        }
        return true;
    }
    *why = "the network interfaces kept changing while they were listed";
    return false;
}

std::string describe_interfaces(const std::vector<Interface> &ifs) {
    if (ifs.empty()) return "none is up";
    std::string s;
    for (const Interface &i : ifs)
        s += (s.empty() ? "" : ", ") + i.name + " (" + dotted(i.addr) + "/" + std::to_string(prefix_length(i.netmask)) + ")";
    return s;
}

bool parse_if_list(const char *param, const std::string &value, const std::vector<Interface> &ifs,
                   std::vector<IfSpec> *out, std::string *why) {
    out->clear();
    size_t pos = 0;
    while (pos <= value.size()) {
        size_t comma = value.find(',', pos);
        if (comma == std::string::npos) comma = value.size();
        IfSpec spec;
        spec.text = trim(value.substr(pos, comma - pos));
        pos = comma + 1;
        if (spec.text.empty()) continue;
        if (spec.text.find('/') != std::string::npos) {
            if (!parse_cidr(spec.text, &spec)) {
                *why = std::string(param) + ": '" + spec.text +
                       "' is not an IPv4 CIDR (a.b.c.d/n, n from 0 to 32); interfaces here: " +
                       describe_interfaces(ifs);
                return false;
            }
        } else {
            bool known = false;
            for (const Interface &i : ifs) known |= i.name == spec.text;
            if (!known) {
                *why = std::string(param) + ": no IPv4 interface '" + spec.text + "' is up; interfaces here: " +
                       describe_interfaces(ifs);
                return false;
            }
        }
        out->push_back(spec);
    }
    return true;
}

bool matches(const IfSpec &spec, const Interface &i) {
    if (spec.is_cidr) return (i.addr & spec.mask) == spec.net;
    return spec.text == i.name;
}

bool select_interfaces(const std::vector<Interface> &ifs, const std::vector<IfSpec> &include,
                       const std::vector<IfSpec> &exclude, std::vector<Interface> *out, std::string *why) {
    out->clear();
    auto any = [](const std::vector<IfSpec> &list, const Interface &i) {
        for (const IfSpec &s : list)
            if (matches(s, i)) return true;
        return false;
    };
    for (const Interface &i : ifs) {
        if (!include.empty() && !any(include, i)) continue;
        if (any(exclude, i)) continue;
        out->push_back(i);
    }
    if (!out->empty()) return true;
    *why = std::string(include.empty() ? "btl_tcp_if_exclude" : "btl_tcp_if_include") +
           " leaves no interface to use; interfaces here: " + describe_interfaces(ifs);
    return false;
}

}  // namespace plexus::btl_tcp
