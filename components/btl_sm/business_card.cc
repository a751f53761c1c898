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

bool make_card(const std::string &node, const plexus_shm_desc_t &segment, int32_t pid, uint64_t probe_addr,
               uint64_t probe_value, Card *out) {
    Card c{};
    c.magic = kCardMagic;
    c.version = kCardVersion;
    c.pid = pid;
    c.probe_addr = probe_addr;
    c.probe_value = probe_value;
    c.segment = segment;
    if (!copy_string(node, c.node, sizeof c.node)) return false;
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
    if (!std::memchr(c.node, 0, sizeof c.node)) {
        *why = "card with an unterminated node name";
        return false;
    }
    *out = c;
    return true;
}

}  // namespace plexus::btl_sm
