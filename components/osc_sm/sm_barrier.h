// The fence's barrier: a counter and a generation in rank 0's control block. The last process to
// arrive resets the counter and advances the generation; the others wait for the new generation.
// The atomics are sequentially consistent: every store a process made to any window before it
// arrived is visible to every process after it left (the fence's memory fence).
#pragma once

#include <atomic>
#include <cstdint>

#include "sm_wait.h"

namespace plexus::osc_sm {

class Barrier {
public:
    Barrier(std::atomic<uint64_t> &arrived, std::atomic<uint64_t> &generation, uint32_t members)
        : arrived_(arrived), generation_(generation), members_(members) {}

    // Arrives and waits for the others.
    int arrive_and_wait(WaitFn wait, int timeout_ms = -1);

private:
    std::atomic<uint64_t> &arrived_;
    std::atomic<uint64_t> &generation_;
    uint32_t members_;
};

}  // namespace plexus::osc_sm
