// Port names to text and back.
#include "port_name.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>

namespace plexus::dpm_pmix {
namespace {
constexpr const char *kPrefix = "plexus-port:";
}

std::string format_port(const PortName &p) {
    char tail[64];
    std::snprintf(tail, sizeof tail, ":%u:%" PRIu64 ":%016" PRIx64, p.rank, p.serial, p.nonce);
    return kPrefix + p.nspace + tail;
}

std::optional<PortName> parse_port(const std::string &text, std::string *why) {
    const std::string prefix = kPrefix;
    if (text.compare(0, prefix.size(), prefix) != 0)
        return *why = "it does not start with '" + prefix + "'", std::nullopt;
    // From the right: the namespace may itself hold ':'.
    const size_t c3 = text.rfind(':');
    const size_t c2 = c3 == std::string::npos || c3 == 0 ? std::string::npos : text.rfind(':', c3 - 1);
    const size_t c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos : text.rfind(':', c2 - 1);
    if (c1 == std::string::npos || c1 < prefix.size())
        return *why = "it lacks the namespace, rank, serial or key field", std::nullopt;
    PortName p;
    p.nspace = text.substr(prefix.size(), c1 - prefix.size());
    auto number = [&](size_t from, size_t to, int base, uint64_t *out) {
        const std::string field = text.substr(from + 1, to - from - 1);
        if (field.empty()) return false;
        char *end = nullptr;
        *out = std::strtoull(field.c_str(), &end, base);
        return *end == '\0' && field[0] != '-';
    };
    uint64_t rank = 0;
    if (p.nspace.empty() || !number(c1, c2, 10, &rank) || rank > UINT32_MAX || !number(c2, c3, 10, &p.serial) ||
        !number(c3, text.size(), 16, &p.nonce) || text.size() - c3 - 1 != 16)
        return *why = "a field is malformed", std::nullopt;
    p.rank = static_cast<uint32_t>(rank);
    return p;
}

}  // namespace plexus::dpm_pmix
