#include "runtime/shm/segment_name.h"

#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <plexus/shm.h>

namespace plexus::runtime {

bool valid_segment_label(const std::string &label) {
    if (label.empty() || label.size() > PLEXUS_SHM_LABEL_MAX) return false;
    for (char c : label)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

bool make_segment_name(const std::string &prefix, const std::string &label, std::string *name, uint64_t *tag,
                       std::string *why) {
    if (!valid_segment_label(label)) {
        *why = "segment label '" + label + "' is not 1-16 of [a-z0-9_]";
        return false;
    }
    uint64_t bits = 0;
    auto *bytes = reinterpret_cast<unsigned char *>(&bits);
    size_t got = 0;
    while (got < sizeof bits) {
        const ssize_t n = ::getrandom(bytes + got, sizeof bits - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            *why = std::string("getrandom failed: ") + std::strerror(errno);
            return false;
        }
        got += static_cast<size_t>(n);
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(bits));
    *name = "/" + prefix + label + "-" + hex;
    if (name->size() >= PLEXUS_SHM_NAME_MAX) {
        *why = "segment name " + *name + " is too long (prefix '" + prefix + "')";
        return false;
    }
    *tag = bits;
    return true;
}

}  // namespace plexus::runtime
