// Relative pointers: how a fragment is named in another process's FIFO. Each process maps the
// node's segments at addresses of its own, so a FIFO never carries a raw address, only which
// segment (the sender's slot in the receiver's directory) and the byte offset inside it.
#pragma once

#include <cstdint>

namespace plexus::btl_sm {

struct RelPtr {
    uint32_t segment;  // the sender's directory slot in the receiving segment
    uint32_t offset;   // bytes from the start of that sender's segment

    friend constexpr bool operator==(RelPtr, RelPtr) = default;
};

// One 64-bit word, so that a FIFO slot publishes a descriptor with a single store.
constexpr uint64_t encode(RelPtr p) { return (static_cast<uint64_t>(p.segment) << 32) | p.offset; }

constexpr RelPtr decode(uint64_t word) {
    return RelPtr{static_cast<uint32_t>(word >> 32), static_cast<uint32_t>(word)};
}

}  // namespace plexus::btl_sm
