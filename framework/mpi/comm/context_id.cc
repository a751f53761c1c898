// The local context-id bitmap.
#include "mpi/comm/context_id.h"

#include <algorithm>
#include <bit>

namespace plexus::mpi {

ContextIdAllocator::ContextIdAllocator() { reset(); }

void ContextIdAllocator::reset() {
    used_.assign(1, 0);
    live_ = 0;
    first_word_with_free_ = 0;
    reserve(kWorld);
    reserve(kSelf);
}

bool ContextIdAllocator::in_use(uint32_t id) const {
    const size_t w = id / 64;
    return w < used_.size() && (used_[w] >> (id % 64) & 1u);
}

uint32_t ContextIdAllocator::lowest_free(uint32_t from) const {
    size_t w = from / 64;
    if (w < first_word_with_free_) {
        w = first_word_with_free_;
        from = static_cast<uint32_t>(w * 64);
    }
    if (w >= used_.size()) return from;
    // The first word may have ids below `from` free: mask them as used.
    uint64_t taken = used_[w] | ((uint64_t{1} << (from % 64)) - 1);
    while (taken == ~uint64_t{0}) {
        if (++w == used_.size()) return static_cast<uint32_t>(w * 64);
        taken = used_[w];
    }
    return static_cast<uint32_t>(w * 64 + std::countr_one(taken));
}

void ContextIdAllocator::free_window(uint32_t base, size_t words, uint64_t *out) const {
    for (size_t i = 0; i < words; ++i) {
        uint64_t bits = 0;
        for (unsigned b = 0; b < 64; ++b)
            if (!in_use(static_cast<uint32_t>(base + 64 * i + b))) bits |= uint64_t{1} << b;
        out[i] = bits;
    }
}

uint32_t ContextIdAllocator::take_lowest() {
    const uint32_t id = lowest_free(0);
    reserve(id);
    return id;
}

bool ContextIdAllocator::reserve(uint32_t id) {
    const size_t w = id / 64;
    if (w >= used_.size()) used_.resize(std::max(w + 1, used_.size() * 2), 0);
    const uint64_t bit = uint64_t{1} << (id % 64);
    if (used_[w] & bit) return false;
    used_[w] |= bit;
    ++live_;
    while (first_word_with_free_ < used_.size() && used_[first_word_with_free_] == ~uint64_t{0}) ++first_word_with_free_;
    return true;
}

bool ContextIdAllocator::release(uint32_t id) {
    const size_t w = id / 64;
    const uint64_t bit = uint64_t{1} << (id % 64);
    if (w >= used_.size() || !(used_[w] & bit)) return false;
    used_[w] &= ~bit;
    --live_;
    if (w < first_word_with_free_) first_word_with_free_ = w;
    return true;
}

}  // namespace plexus::mpi
