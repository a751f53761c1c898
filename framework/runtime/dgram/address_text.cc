// Formatting of the address layouts docs/datagrams.md tabulates.
#include "runtime/dgram/address_text.h"

#include <cstdio>

#include "runtime/dgram/transport.h"

namespace plexus::runtime::dgram {

std::string address_text(const uint8_t *a, size_t len) {
    char text[64];
    if (len == 8 && a[0] == kAddressUdp4 && a[1] == 1) {
        std::snprintf(text, sizeof text, "%u.%u.%u.%u:%u", a[4], a[5], a[6], a[7], (a[2] << 8) | a[3]);
        return text;
    }
    if (len == 24 && a[0] == kAddressIbUd && a[1] == 1) {
        const unsigned qpn = (unsigned(a[4]) << 24) | (a[5] << 16) | (a[6] << 8) | a[7];
        std::snprintf(text, sizeof text, "LID %u QPN 0x%x", (a[2] << 8) | a[3], qpn);
        return text;
    }
    std::string hex = "address ";
    for (size_t i = 0; i < len && i < 24; ++i) {
        std::snprintf(text, sizeof text, "%02x", a[i]);
        hex += text;
    }
    return hex;
}

}  // namespace plexus::runtime::dgram
