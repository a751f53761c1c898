// MPI_Intercomm_merge: one intra-communicator of both groups. The group that passed high =
// false comes first; when both passed the same value, the group whose leader (rank 0) has the
// lower process name (job, rank) comes first, which every process of both groups computes
// alike. Each group follows its leader's high, so that a group's members never disagree.
#include "mpi/comm/agreement_channels.h"
#include "mpi/comm/comm_build.h"
#include "mpi/comm/comm_build_common.h"

namespace plexus::mpi {

int intercomm_merge(Comm *inter, bool high, Comm **out) {
    constexpr const char *fn = "MPI_Intercomm_merge";
    build::reap();
    // The leaders' highs ride on the context-id agreement's first exchange (one leader swap and
    // one local broadcast fewer than trading them first).
    BridgedChannel channel(inter);
    channel.carry(high ? 1 : 0);
    std::vector<uint32_t> ids;
    if (int rc = build::agree(fn, inter, channel, 1, &ids)) return rc;
    const uint64_t local_high = channel.leaders_word(), remote_high = channel.remote_leaders_word();
    const ProcTable &procs = g_mpi->procs();
    const bool local_first = local_high != remote_high
                                 ? local_high == 0
                                 : procs.at(inter->local_procs[0]) < procs.at(inter->remote_procs[0]);
    const ProcList &first = local_first ? inter->local_procs : inter->remote_procs;
    const ProcList &second = local_first ? inter->remote_procs : inter->local_procs;
    ProcList all = first;
    all.insert(all.end(), second.begin(), second.end());
    const int rank = local_first ? inter->rank : static_cast<int>(inter->remote_procs.size()) + inter->rank;
    build::publish(build::make_intra(ids[0], std::move(all), rank, inter), out);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi
