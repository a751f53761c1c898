// Interface lookup through getifaddrs(3) and SIOCGIFMTU.
#include "runtime/dgram/interface_lookup.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <memory>

namespace plexus::runtime::dgram {
namespace {

struct IfaddrsDeleter {
    void operator()(ifaddrs *p) const { freeifaddrs(p); }
};

size_t interface_mtu(const char *name) {
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    ifreq req{};
    std::snprintf(req.ifr_name, sizeof req.ifr_name, "%s", name);
    const int rc = ::ioctl(fd, SIOCGIFMTU, &req);
    ::close(fd);
    return rc == 0 && req.ifr_mtu > 0 ? static_cast<size_t>(req.ifr_mtu) : 0;
}

std::string dotted(const in_addr &a) {
    char buf[INET_ADDRSTRLEN] = "";
    ::inet_ntop(AF_INET, &a, buf, sizeof buf);
    return buf;
}

}  // namespace

Status list_ipv4_interfaces(std::vector<Ipv4Interface> *out) {
    out->clear();
    ifaddrs *raw = nullptr;
    if (::getifaddrs(&raw) != 0)
        return Status::error(PLEXUS_ERR_NOT_AVAILABLE, "getifaddrs failed: cannot list interfaces");
    std::unique_ptr<ifaddrs, IfaddrsDeleter> list(raw);
    for (ifaddrs *i = raw; i; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP)) continue;
        Ipv4Interface f;
        f.name = i->ifa_name;
        f.address = reinterpret_cast<const sockaddr_in *>(i->ifa_addr)->sin_addr;
        if (i->ifa_netmask) f.netmask = reinterpret_cast<const sockaddr_in *>(i->ifa_netmask)->sin_addr;
        f.index = ::if_nametoindex(i->ifa_name);
        f.mtu = interface_mtu(i->ifa_name);
        f.multicast = (i->ifa_flags & IFF_MULTICAST) != 0;
        f.loopback = (i->ifa_flags & IFF_LOOPBACK) != 0;
        out->push_back(std::move(f));
    }
    return Status::ok();
}

Status find_ipv4_interface(const std::string &wanted, Ipv4Interface *out) {
    std::vector<Ipv4Interface> all;
    if (Status s = list_ipv4_interfaces(&all); !s) return s;
    std::string valid;
    for (const Ipv4Interface &i : all) {
        const std::string addr = dotted(i.address);
        if (wanted == i.name || wanted == addr) {
            *out = i;
            return Status::ok();
        }
        valid += (valid.empty() ? "" : ", ") + i.name + " (" + addr + ")";
    }
    return Status::error(PLEXUS_ERR_NOT_AVAILABLE,
                         "no IPv4 interface '" + wanted + "' is up (runtime_dgram_if); valid: " +
                             (valid.empty() ? "none" : valid));
}

}  // namespace plexus::runtime::dgram
