#include "sm_barrier.h"

namespace plexus::osc_sm {

int Barrier::arrive_and_wait(WaitFn wait, int timeout_ms) {
    // The generation is read before arriving: after the last arrival it can only move on.
    const uint64_t gen = generation_.load();
    if (arrived_.fetch_add(1) + 1 == members_) {
        arrived_.store(0);
        generation_.store(gen + 1);
        return PLEXUS_SUCCESS;
    }
    return wait_until(wait, [&] { return generation_.load() != gen; }, timeout_ms);
}

}  // namespace plexus::osc_sm
