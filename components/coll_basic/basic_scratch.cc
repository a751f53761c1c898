// The per-thread cache of scratch blocks (basic_scratch.h).
#include "basic_scratch.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>

namespace plexus::coll_basic {
namespace {

constexpr size_t kDefaultKeep = 64ul << 20;
constexpr size_t kPage = 4096;
// A call of the deepest algorithm holds three temporaries, an inter-communicator call a few more
// through its local phase: eight blocks cover every call without a search worth speaking of.
constexpr int kSlots = 8;

std::atomic<size_t> g_keep{kDefaultKeep};

class Cache {
public:
    ~Cache() { trim(); }

    ScratchBlock take(size_t bytes) {
        int best = -1;
        for (int i = 0; i < n_; ++i)
            if (slots_[i].capacity >= bytes && (best < 0 || slots_[i].capacity < slots_[best].capacity)) best = i;
        if (best < 0) return {};
        const ScratchBlock b = slots_[best];
        remove(best);
        return b;
    }

    void give(ScratchBlock b, size_t keep) {
        if (b.capacity > keep) return std::free(b.data);
        // Room: the smallest blocks go first, they are the cheapest to make again.
        while (n_ > 0 && (n_ == kSlots || bytes_ + b.capacity > keep)) {
            const int smallest = static_cast<int>(
                std::min_element(slots_.begin(), slots_.begin() + n_,
                                 [](const ScratchBlock &x, const ScratchBlock &y) { return x.capacity < y.capacity; }) -
                slots_.begin());
            if (slots_[smallest].capacity >= b.capacity) return std::free(b.data);  // keep the larger ones
            std::free(slots_[smallest].data);
            remove(smallest);
        }
        slots_[n_++] = b;
        bytes_ += b.capacity;
    }

    void trim() {
        for (int i = 0; i < n_; ++i) std::free(slots_[i].data);
        n_ = 0;
        bytes_ = 0;
    }

    size_t bytes() const { return bytes_; }
    int blocks() const { return n_; }

private:
    void remove(int i) {
        bytes_ -= slots_[i].capacity;
        slots_[i] = slots_[--n_];
    }

    std::array<ScratchBlock, kSlots> slots_{};
    int n_ = 0;
    size_t bytes_ = 0;
};

Cache &cache() {
    thread_local Cache c;
    return c;
}

}  // namespace

void set_scratch_keep(size_t bytes) { g_keep.store(bytes, std::memory_order_relaxed); }
size_t scratch_keep() { return g_keep.load(std::memory_order_relaxed); }

ScratchBlock scratch_acquire(size_t bytes) {
    if (bytes == 0) return {};
    if (ScratchBlock b = cache().take(bytes); b.data) return b;
    const size_t capacity = (bytes + kPage - 1) / kPage * kPage;
    ScratchBlock b{static_cast<char *>(std::malloc(capacity)), capacity};
    if (!b.data) b.capacity = 0;
    return b;
}

void scratch_release(ScratchBlock block) {
    if (!block.data) return;
    cache().give(block, scratch_keep());
}

void scratch_trim() { cache().trim(); }
size_t scratch_cached_bytes() { return cache().bytes(); }
int scratch_cached_blocks() { return cache().blocks(); }

}  // namespace plexus::coll_basic
