// btl_sm: following receivers that do not drain. A pipelined rendezvous needs its receiver on a
// CPU while the sender copies into fragments; on a machine whose CPUs other programs keep busy a
// descheduled receiver holds every fragment and the sender waits for a scheduler round. When
// sends have found no free fragment for btl_sm_single_copy_stall, rdma_threshold drops to the
// eager limit: the PML writes the rest of a transfer in progress by put and sends the next
// rendezvous messages for get, neither of which needs both processes running at once. It comes
// back once no stall has been seen for the hold (checked when a single-copy message is
// registered, so the fast path pays nothing): kStallHoldNs, doubled each time a stall follows
// within a hold of coming back (the machine is still busy), back to kStallHoldNs otherwise.
#include <algorithm>
#include <ctime>

#include "sm_module.h"

namespace plexus::btl_sm {
namespace {

int64_t now_ns() {
    timespec ts;
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

void SmModule::note_no_fragment() {
    if (!cma_ || params_.single_copy_stall < 0) return;
    const int64_t now = now_ns();
    if (!stall_since_ns_) stall_since_ns_ = now;
    if (now - stall_since_ns_ < params_.single_copy_stall * 1000) return;
    const uint64_t lowered = std::min<uint64_t>(rdma_threshold_, params_.eager_limit);
    if (single_copy_until_ns_) {  // already holding
        single_copy_until_ns_ = now + stall_hold_ns_;
        return;
    }
    const bool again = stall_hold_ended_ns_ && now - stall_hold_ended_ns_ < stall_hold_ns_;
    stall_hold_ns_ = again ? std::min(2 * stall_hold_ns_, kStallHoldMaxNs) : kStallHoldNs;
    single_copy_until_ns_ = now + stall_hold_ns_;
    handle_.api.rdma_threshold = lowered;
    handle_.api.rdma_limit = 0;  // a receiver that does not drain makes fragments slow at any size
    ++stall_switches_;
    host_->log(self_, PLEXUS_LOG_DETAIL,
               "no fragment drained for %lld us: rendezvous payloads from %llu bytes go by single copy for %lld ms",
               static_cast<long long>((now - stall_since_ns_) / 1000), static_cast<unsigned long long>(lowered),
               static_cast<long long>(stall_hold_ns_ / 1'000'000));
}

void SmModule::end_stall_hold() {
    const int64_t now = now_ns();
    if (now < single_copy_until_ns_) return;
    single_copy_until_ns_ = 0;
    stall_hold_ended_ns_ = now;
    handle_.api.rdma_threshold = rdma_threshold_;
    handle_.api.rdma_limit = rdma_limit_;
    host_->log(self_, PLEXUS_LOG_DETAIL, "no stall for %lld ms: single copy from %llu bytes again",
               static_cast<long long>(stall_hold_ns_ / 1'000'000), static_cast<unsigned long long>(rdma_threshold_));
}

}  // namespace plexus::btl_sm
