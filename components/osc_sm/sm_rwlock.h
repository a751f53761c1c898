// The passive-target lock of one window, a reader-writer lock in its owner's control block that
// origins take and release themselves: MPI_Win_lock needs nothing from the target, so a target
// computing outside MPI does not hold anybody up. Writers announce themselves and readers
// arriving after that wait, so that a stream of shared locks cannot starve an exclusive one.
//
// The word: bit 63 the writer, bits 32-62 writers waiting, bits 0-31 readers.
#pragma once

#include <atomic>
#include <cstdint>

#include "sm_wait.h"

namespace plexus::osc_sm {

class RwLock {
public:
    explicit RwLock(std::atomic<uint64_t> &word) : w_(word) {}

    int lock_shared(WaitFn wait, int timeout_ms = -1);
    int lock_exclusive(WaitFn wait, int timeout_ms = -1);
    void unlock_shared();
    void unlock_exclusive();

    bool try_lock_shared();
    // Only after announce_writer(): the announcement becomes the lock.
    bool try_lock_announced();
    void announce_writer();
    void withdraw_writer();

    static constexpr uint64_t kWriter = uint64_t{1} << 63;
    static constexpr uint64_t kWaitingOne = uint64_t{1} << 32;
    static constexpr uint64_t kWaitingMask = (kWriter - 1) & ~uint64_t{0xffffffff};
    static constexpr uint64_t kReaderMask = 0xffffffffu;

private:
    std::atomic<uint64_t> &w_;
};

}  // namespace plexus::osc_sm
