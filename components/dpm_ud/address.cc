// Reach as text and back.
#include "address.h"

#include <arpa/inet.h>
#include <sys/random.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace plexus::dpm_ud {
namespace {

constexpr const char *kPortPrefix = "plexus-ud:";
constexpr size_t kMaxAddress = 64;  // PLEXUS_DGRAM_ADDR_MAX

std::vector<std::string> split(const std::string &s, char c) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        const size_t at = s.find(c, start);
        out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) return out;
        start = at + 1;
    }
}

bool parse_reach(const std::string &addr, const std::string &key, Reach *r, std::string *why) {
    std::vector<uint8_t> k;
    if (!unhex(addr, &r->address) || r->address.empty() || r->address.size() > kMaxAddress)
        return *why = "its address field is not 1-64 bytes of hex", false;
    if (!unhex(key, &k) || k.size() != kKeyBytes) return *why = "its key field is not 32 bytes of hex", false;
    std::memcpy(r->key.data(), k.data(), kKeyBytes);
    return true;
}

}  // namespace

std::string hex(const uint8_t *p, size_t n) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    s.reserve(2 * n);
    for (size_t i = 0; i < n; ++i) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

bool unhex(const std::string &text, std::vector<uint8_t> *out) {
    if (text.size() % 2) return false;
    auto nibble = [](char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    out->clear();
    for (size_t i = 0; i < text.size(); i += 2) {
        const int hi = nibble(text[i]), lo = nibble(text[i + 1]);
        if (hi < 0 || lo < 0) return false;
        out->push_back(static_cast<uint8_t>(hi << 4 | lo));
    }
    return true;
}

std::string format_port(const Reach &r) {
    return kPortPrefix + hex(r.address.data(), r.address.size()) + ":" + hex(r.key.data(), r.key.size());
}

std::optional<Reach> parse_port(const std::string &text, std::string *why) {
    const std::string prefix = kPortPrefix;
    if (text.compare(0, prefix.size(), prefix) != 0)
        return *why = "it does not start with '" + prefix +
                      "' (a port of another dpm component? both sides must select dpm_ud)",
               std::nullopt;
    const std::vector<std::string> f = split(text.substr(prefix.size()), ':');
    if (f.size() != 2) return *why = "it has " + std::to_string(f.size()) + " fields after the prefix, not 2", std::nullopt;
    Reach r;
    if (!parse_reach(f[0], f[1], &r, why)) return std::nullopt;
    return r;
}

std::string format_parent(const Reach &r, uint64_t session) {
    char s[17];
    std::snprintf(s, sizeof s, "%016" PRIx64, session);
    return hex(r.address.data(), r.address.size()) + ":" + hex(r.key.data(), r.key.size()) + ":" + s;
}

std::optional<Reach> parse_parent(const std::string &text, uint64_t *session, std::string *why) {
    const std::vector<std::string> f = split(text, ':');
    if (f.size() != 3) return *why = "it has " + std::to_string(f.size()) + " fields, not 3", std::nullopt;
    Reach r;
    if (!parse_reach(f[0], f[1], &r, why)) return std::nullopt;
    std::vector<uint8_t> s;
    if (!unhex(f[2], &s) || s.size() != 8) return *why = "its session field is not 8 bytes of hex", std::nullopt;
    *session = 0;
    for (uint8_t b : s) *session = *session << 8 | b;
    return r;
}

bool udp_parts(const std::vector<uint8_t> &a, uint32_t *ipv4_network_order, uint16_t *port) {
    if (a.size() != 8 || a[0] != 1 || a[1] != 1) return false;
    *port = static_cast<uint16_t>(a[2] << 8 | a[3]);
    std::memcpy(ipv4_network_order, &a[4], 4);
    return true;
}

std::string address_text(const std::vector<uint8_t> &a) {
    uint32_t ip = 0;
    uint16_t port = 0;
    if (udp_parts(a, &ip, &port)) {
        char buf[INET_ADDRSTRLEN] = {};
        inet_ntop(AF_INET, &ip, buf, sizeof buf);
        return std::string(buf) + ":" + std::to_string(port);
    }
    if (a.size() >= 8 && a[0] == 2) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "LID %u QPN 0x%x", unsigned(a[2] << 8 | a[3]),
                      unsigned(a[4]) << 24 | unsigned(a[5]) << 16 | unsigned(a[6]) << 8 | unsigned(a[7]));
        return buf;
    }
    return "address " + hex(a.data(), a.size());
}

bool random_bytes(void *p, size_t n) {
    auto *b = static_cast<uint8_t *>(p);
    while (n > 0) {
        const ssize_t got = getrandom(b, n, 0);
        if (got <= 0) return false;
        b += got;
        n -= static_cast<size_t>(got);
    }
    return true;
}

}  // namespace plexus::dpm_ud
