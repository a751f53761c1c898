#include "business_card.h"

#include <unistd.h>

#include <cstring>
#include <fstream>

namespace plexus::btl_sm {
namespace {

bool copy_string(const std::string &s, char *dst, size_t cap) {
    if (s.size() >= cap) return false;
    std::memcpy(dst, s.c_str(), s.size() + 1);
    return true;
}

}  // namespace

std::string node_identity(std::string *why) {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) {
        *why = "gethostname failed";
        return "";
    }
    std::ifstream f("/proc/sys/kernel/random/boot_id");
    std::string boot;
    if (!(f >> boot)) {
        *why = "cannot read /proc/sys/kernel/random/boot_id";
        return "";
    }
    return std::string(host) + "/" + boot;
}

bool make_card(const std::string &node, const std::string &segment, uint64_t size, int32_t pid, int32_t fd,
               uint64_t probe_addr, uint64_t probe_value, Card *out) {
    Card c{};
    c.magic = kCardMagic;
    c.version = kCardVersion;
    c.pid = pid;
    c.segment_fd = fd;
    c.segment_size = size;
    c.probe_addr = probe_addr;
    c.probe_value = probe_value;
    if (!copy_string(node, c.node, sizeof c.node) || !copy_string(segment, c.segment, sizeof c.segment))
        return false;
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
    if (!std::memchr(c.node, 0, sizeof c.node) || !std::memchr(c.segment, 0, sizeof c.segment)) {
        *why = "card with an unterminated string";
        return false;
    }
    *out = c;
    return true;
}

}  // namespace plexus::btl_sm
