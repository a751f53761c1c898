#include "frag_pool.h"

namespace plexus::btl_sm {

FragPool::FragPool(uint8_t *segment_base, uint32_t offset, uint32_t count, uint32_t stride)
    : first_(segment_base + offset), offset_(offset), count_(count), stride_(stride) {}

FragHeader *FragPool::alloc() {
    for (uint32_t n = 0; n < count_; ++n) {
        uint32_t i = hand_ + n;
        if (i >= count_) i -= count_;
        FragHeader *f = at(i);
        if (load_acquire(f->state) == kFragFree) {
            // Only the owner leaves FREE, so a plain store suffices; the FIFO push that hands
            // the fragment over is the release that publishes it.
            store_relaxed(f->state, uint32_t{kFragBusy});
            hand_ = i + 1 == count_ ? 0 : i + 1;
            return f;
        }
    }
    return nullptr;
}

size_t FragPool::data_in_flight() const {
    size_t n = 0;
    for (uint32_t i = 0; i < count_; ++i) {
        FragHeader *f = at(i);
        n += load_acquire(f->state) == kFragBusy && f->kind == kFragData;
    }
    return n;
}

}  // namespace plexus::btl_sm
