// Fragments: the buffers a message travels in on the FIFO path. Each process owns a pool of
// them in its own segment and alone takes them; the receiver gives one back by storing FREE into
// its header once the receive callback has returned.
//
// Why this is correct without locks: a fragment's state has exactly one writer at a time. The
// owner moves FREE -> BUSY (only the owner allocates) and fills it; publishing the descriptor in
// the receiver's FIFO (release) hands it over. The receiver, alone in holding the descriptor,
// moves BUSY -> FREE with release after its last read, and the owner's acquire load of FREE
// orders that read before any reuse. Allocation is a clock hand over the pool: receivers return
// fragments roughly in the order they got them, so the next one is almost always free, and an
// exhausted pool costs one pass before the sender is told to try again.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sm_sdk.h"

namespace plexus::btl_sm {

enum : uint32_t { kFragFree = 0, kFragBusy = 1 };
enum : uint8_t { kFragData = 0, kFragControl = 1 };  // FragHeader::kind

// 16 bytes, then the data: a small message is one cache line, header included.
struct FragHeader {
    uint32_t state;  // kFragFree / kFragBusy (shared)
    uint32_t len;    // bytes of data
    uint8_t tag;
    uint8_t kind;    // kFragData or kFragControl (not counted as pending)
    uint16_t reserved0;
    uint32_t stamp;  // which use of the fragment this is (written and read by the owner only)

    uint8_t *data() { return reinterpret_cast<uint8_t *>(this + 1); }
};
static_assert(sizeof(FragHeader) == 16);

// Stride of one fragment able to carry capacity bytes of data: a whole number of cache lines.
constexpr uint32_t frag_stride(uint32_t capacity) {
    return static_cast<uint32_t>(align_up(sizeof(FragHeader) + capacity, kCacheLine));
}

// The owner's view of one pool (all fragments of one size) inside its segment.
class FragPool {
public:
    FragPool() = default;
    // The pool occupies count * stride bytes at segment_base + offset, zeroed (= all FREE).
    FragPool(uint8_t *segment_base, uint32_t offset, uint32_t count, uint32_t stride);

    // A FREE fragment, now BUSY; nullptr when every fragment is still with a receiver.
    FragHeader *alloc();
    // Gives back a fragment that was never handed to anyone (the FIFO was full).
    void release_unsent(FragHeader *frag) { store_relaxed(frag->state, uint32_t{kFragFree}); }

    uint32_t offset_of(const FragHeader *frag) const {
        return offset_ + static_cast<uint32_t>(reinterpret_cast<const uint8_t *>(frag) - first_);
    }
    uint32_t data_capacity() const { return stride_ - static_cast<uint32_t>(sizeof(FragHeader)); }
    uint32_t count() const { return count_; }
    // Fragments of kind data that a receiver still holds (control ones are not waited for).
    size_t data_in_flight() const;

private:
    FragHeader *at(uint32_t i) const { return reinterpret_cast<FragHeader *>(first_ + size_t{i} * stride_); }

    uint8_t *first_ = nullptr;
    uint32_t offset_ = 0;
    uint32_t count_ = 0;
    uint32_t stride_ = 0;
    uint32_t hand_ = 0;  // where the next search starts
};

// The receiver's side: the fragment is back with its owner.
inline void frag_return(FragHeader *frag) { store_release(frag->state, uint32_t{kFragFree}); }

}  // namespace plexus::btl_sm
