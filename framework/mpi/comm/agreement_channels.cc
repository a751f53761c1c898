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
    if (local_->rank == leader_) {
        std::vector<uint64_t> remote(n);
        if (int rc = internal::sendrecv(bridge_, remote_leader_, tag_, values, n * sizeof(uint64_t), remote.data(),
                                        n * sizeof(uint64_t)))
            return rc;
        for (size_t i = 0; i < n; ++i)
            values[i] = op == ReduceOp::Max ? std::max(values[i], remote[i]) : (values[i] & remote[i]);
    }
    return internal::bcast(local_, values, n * sizeof(uint64_t), leader_);
}

}  // namespace plexus::mpi
