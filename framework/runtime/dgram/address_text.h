// A datagram address as people read it ("127.0.0.1:40123", "LID 7 QPN 0x1a2b"), for messages
// that name a peer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace plexus::runtime::dgram {

std::string address_text(const uint8_t *addr, size_t len);

}  // namespace plexus::runtime::dgram
