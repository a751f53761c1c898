#include "rdma_counters.h"

namespace plexus::osc_rdma {

uint32_t SentCounts::take(int target) {
    const uint32_t n = sent_[size_t(target)];
    sent_[size_t(target)] = 0;
    return n;
}

std::vector<uint32_t> SentCounts::take_all() {
    std::vector<uint32_t> out(sent_.size(), 0);
    out.swap(sent_);
    return out;
}

uint64_t incoming_total(const std::vector<uint32_t> &counts) {
    uint64_t total = 0;
    for (uint32_t c : counts) total += c;
    return total;
}

void ReceivedCounts::arrived(EpochTag epoch, int origin, uint32_t n) {
    switch (epoch) {
    case EpochTag::kFenceEven: fence_[0] += n; break;
    case EpochTag::kFenceOdd: fence_[1] += n; break;
    case EpochTag::kPscw: pscw_[size_t(origin)] += n; break;
    case EpochTag::kLock: break;  // the lock queue counts these per holder
    }
}

void ReceivedCounts::end_fence(int parity) {
    fence_[parity] -= fence_expected_[parity];
    fence_expected_[parity] = 0;
}

bool ReceivedCounts::pscw_done(int origin) const {
    const int64_t a = announced_[size_t(origin)];
    return a >= 0 && pscw_[size_t(origin)] >= uint64_t(a);
}

void ReceivedCounts::end_pscw(int origin) {
    pscw_[size_t(origin)] -= uint64_t(announced_[size_t(origin)]);
    announced_[size_t(origin)] = -1;
}

}  // namespace plexus::osc_rdma
