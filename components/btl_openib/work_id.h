// The id every work request carries, so that its completion finds what it was: a receive buffer
// of a peer, a send buffer, or a put/get in flight.
#pragma once

#include <cstdint>

namespace plexus::btl_openib {

enum WrKind : uint64_t { kWrRecv = 1, kWrSend = 2, kWrRdma = 3 };

constexpr uint64_t wr_id(uint64_t kind, uint32_t ep, uint32_t slot) {
    return kind << 56 | uint64_t(ep) << 24 | (slot & 0xffffff);
}
constexpr uint64_t wr_kind(uint64_t id) { return id >> 56; }
constexpr uint32_t wr_ep(uint64_t id) { return static_cast<uint32_t>((id >> 24) & 0xffffffff); }
constexpr uint32_t wr_slot(uint64_t id) { return static_cast<uint32_t>(id & 0xffffff); }

}  // namespace plexus::btl_openib
