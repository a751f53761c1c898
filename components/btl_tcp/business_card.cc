#include "business_card.h"

#include <unistd.h>

#include <cstring>
#include <fstream>

namespace plexus::btl_tcp {
namespace {

bool copy_string(const std::string &s, char *dst, size_t cap) {
    if (s.size() >= cap) return false;
    std::memcpy(dst, s.c_str(), s.size() + 1);
    return true;
}

}  // namespace

std::string host_name() {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) return "unknown-host";
    return host;
}

std::string node_identity() {
    std::ifstream f("/proc/sys/kernel/random/boot_id");
    std::string boot;
    if (!(f >> boot)) boot = "no-boot-id";
    return host_name() + "/" + boot;
}

bool make_card(const std::vector<Interface> &ifs, uint16_t port, int32_t pid, const std::string &host,
               const std::string &node, Card *out, size_t *dropped) {
    Card c;
    std::memset(&c, 0, sizeof c);
    c.magic = kCardMagic;
    c.version = kCardVersion;
    c.port = port;
    c.pid = pid;
    if (!copy_string(host.substr(0, sizeof c.host - 1), c.host, sizeof c.host)) return false;
    if (!copy_string(node, c.node, sizeof c.node)) return false;
    *dropped = 0;
    for (const Interface &i : ifs) {
        if (c.count == kMaxCardAddresses) {
            ++*dropped;
            continue;
        }
        CardAddress &a = c.addrs[c.count++];
        a.addr = i.addr;
        a.netmask = i.netmask;
        a.loopback = i.loopback ? 1 : 0;
    }
    *out = c;
    return true;
}

bool parse_card(const void *data, size_t len, Card *out, std::string *why) {
    if (!data || len != sizeof(Card)) {
        *why = "card of " + std::to_string(len) + " bytes, expected " + std::to_string(sizeof(Card));
        return false;
    }
    Card c;
    std::memcpy(&c, data, sizeof c);
    if (c.magic != kCardMagic || c.version != kCardVersion) {
        *why = "card with magic/version " + std::to_string(c.magic) + "/" + std::to_string(c.version) +
               ", expected " + std::to_string(kCardMagic) + "/" + std::to_string(kCardVersion);
        return false;
    }
    if (!std::memchr(c.host, 0, sizeof c.host) || !std::memchr(c.node, 0, sizeof c.node)) {
        *why = "card with an unterminated host or node name";
        return false;
    }
    if (c.count > kMaxCardAddresses || c.port == 0) {
        *why = "card with " + std::to_string(c.count) + " addresses and port " + std::to_string(c.port);
        return false;
    }
    *out = c;
    return true;
}

}  // namespace plexus::btl_tcp
