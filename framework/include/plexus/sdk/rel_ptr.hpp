// Relative pointers: how a place in shared memory is named to another process. Each process maps
// a node's segments at addresses of its own, so a shared queue never carries a raw address, only
// which segment (an index both sides agree on, e.g. a slot in the receiver's directory) and the
// byte offset inside it.
#pragma once

#include <cstdint>

namespace plexus::sdk {

struct RelPtr {
    uint32_t segment;
    uint32_t offset;  // bytes from the start of that segment

    friend constexpr bool operator==(RelPtr a, RelPtr b) { return a.segment == b.segment && a.offset == b.offset; }
    friend constexpr bool operator!=(RelPtr a, RelPtr b) { return !(a == b); }
};

// One 64-bit word, so that a FIFO slot publishes a relative pointer with a single store.
constexpr uint64_t encode(RelPtr p) { return (static_cast<uint64_t>(p.segment) << 32) | p.offset; }

constexpr RelPtr decode(uint64_t word) {
    return RelPtr{static_cast<uint32_t>(word >> 32), static_cast<uint32_t>(word)};
}

}  // namespace plexus::sdk
