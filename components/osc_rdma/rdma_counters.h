// Per-target operation counts, the currency of the paper's synchronisation: an origin counts
// the operations (records) it sent each target in an epoch; the target learns how many to
// expect (fence: the sum over origins by the count exchange; PSCW and unlock: each origin's own
// count in its complete/unlock message) and waits until it has applied that many.
#pragma once

#include <cstdint>
#include <vector>

#include "rdma_wire.h"

namespace plexus::osc_rdma {

// What this process sent, per target, since the last take.
class SentCounts {
public:
    explicit SentCounts(int size) : sent_(size_t(size), 0) {}
    void add(int target, uint32_t n) { sent_[size_t(target)] += n; }
    uint32_t of(int target) const { return sent_[size_t(target)]; }
    // The counts, zeroed for the next epoch (one target, or all as a vector).
    uint32_t take(int target);
    std::vector<uint32_t> take_all();

private:
    std::vector<uint32_t> sent_;
};

// Sums what the count exchange of a fence delivers: counts[i] is what origin i sent here
// (the column of this process in the matrix a reduce-scatter sums).
uint64_t incoming_total(const std::vector<uint32_t> &counts);

// What this process received as a target: per fence parity, and per origin for PSCW.
class ReceivedCounts {
public:
    explicit ReceivedCounts(int size) : pscw_(size_t(size), 0), announced_(size_t(size), -1) {}

    void arrived(EpochTag epoch, int origin, uint32_t n = 1);
    // Fence: expect `n` more in the epoch of this parity; done when they arrived (they are then
    // consumed, so the parity is clean when it comes round again).
    void expect_fence(int parity, uint64_t n) { fence_expected_[parity] += n; }
    bool fence_done(int parity) const { return fence_[parity] >= fence_expected_[parity]; }
    void end_fence(int parity);

    // PSCW: origin's complete message says it sent n.
    void announce(int origin, uint32_t n) { announced_[size_t(origin)] = int64_t(n); }
    bool pscw_done(int origin) const;
    void end_pscw(int origin);

private:
    uint64_t fence_[2] = {0, 0};
    uint64_t fence_expected_[2] = {0, 0};
    std::vector<uint64_t> pscw_;
    std::vector<int64_t> announced_;  // -1: no complete message yet
};

}  // namespace plexus::osc_rdma
