// Allreduce over one communicator, or over two groups through their leaders.
#include "mpi/comm/agreement_channels.h"

#include <algorithm>
#include <vector>

#include "mpi/comm/internal_collectives.h"
#include "mpi/comm/internal_tags.h"

namespace plexus::mpi {

int IntraChannel::allreduce(uint64_t *values, size_t n, ReduceOp op) { return internal::allreduce(comm_, values, n, op); }

BridgedChannel::BridgedChannel(Comm *inter)
    : local_(inter->local_comm), leader_(0), bridge_(inter), remote_leader_(0), tag_(tags::kLeaderExchange) {}

int BridgedChannel::allreduce(uint64_t *values, size_t n, ReduceOp op) {
    if (int rc = internal::allreduce(local_, values, n, op)) return rc;
    // The values, then (on a carrying channel's first call) the leaders' words.
    const size_t extra = carrying_ ? 2 : 0;
    std::vector<uint64_t> buf(values, values + n);
    buf.resize(n + extra);
    if (local_->rank == leader_) {
        if (extra) buf[n] = carry_[0];
        std::vector<uint64_t> remote(n + extra);
        if (int rc = internal::sendrecv(bridge_, remote_leader_, tag_, buf.data(), (n + extra) * sizeof(uint64_t),
                                        remote.data(), (n + extra) * sizeof(uint64_t)))
            return rc;
        for (size_t i = 0; i < n; ++i)
            buf[i] = op == ReduceOp::Max ? std::max(buf[i], remote[i]) : (buf[i] & remote[i]);
        if (extra) buf[n + 1] = remote[n];
    }
    if (int rc = internal::bcast(local_, buf.data(), (n + extra) * sizeof(uint64_t), leader_)) return rc;
    std::copy(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n), values);
    if (extra) {
        carry_[0] = buf[n];
        carry_[1] = buf[n + 1];
        carrying_ = false;
    }
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi
