#include "sm_control.h"

#include <cstring>
#include <new>

namespace plexus::osc_sm {

ControlBlock *init_control(void *mem, uint32_t n, uint32_t owner) {
    std::memset(mem, 0, control_bytes(n));
    auto *c = static_cast<ControlBlock *>(mem);
    c->ranks = n;
    c->owner = owner;
    c->lock = plexus::sdk::TicketRwWords{};
    new (&c->acc) std::atomic<uint32_t>(0);
    new (&c->completes) std::atomic<uint64_t>(0);
    new (&c->arrived) std::atomic<uint64_t>(0);
    new (&c->generation) std::atomic<uint64_t>(0);
    for (uint32_t i = 0; i < (n ? n : 1); ++i) new (&post_counter(c, i)) std::atomic<uint64_t>(0);
    // The magic last: a block that shows it is whole (peers map it only after the exchange).
    std::atomic_thread_fence(std::memory_order_release);
    c->magic = kControlMagic;
    return c;
}

bool control_valid(const ControlBlock *c, uint32_t n) { return c && c->magic == kControlMagic && c->ranks == n; }

}  // namespace plexus::osc_sm
