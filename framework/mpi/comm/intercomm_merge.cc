// MPI_Intercomm_merge: one intra-communicator of both groups. The group that passed high =
// false comes first; when both passed the same value, the group whose leader (rank 0) has the
// lower process name (job, rank) comes first, which every process of both groups computes
// alike. Each group follows its leader's high, so that a group's members never disagree.
#include "mpi/comm/agreement_channels.h"
#include "mpi/comm/comm_build.h"
#include "mpi/comm/comm_build_common.h"
#include "mpi/comm/internal_collectives.h"
#include "mpi/comm/internal_tags.h"

namespace plexus::mpi {

int intercomm_merge(Comm *inter, bool high, Comm **out) {
    constexpr const char *fn = "MPI_Intercomm_merge";
    build::reap();
    Comm *local = inter->local_comm;
    uint32_t highs[2] = {high, 0};  // this group's leader's, the remote leader's
    if (local->rank == 0) {
        if (int rc = internal::sendrecv(inter, 0, tags::kLeaderExchange, &highs[0], sizeof highs[0], &highs[1],
                                        sizeof highs[1]))
            return build::step_failed(fn, inter, "exchanging high between the leaders", rc);
    }
    if (int rc = internal::bcast(local, highs, sizeof highs, 0))
        return build::step_failed(fn, inter, "spreading the remote group's high", rc);
    const ProcTable &procs = g_mpi->procs();
    const bool local_first = highs[0] != highs[1]
                                 ? highs[0] == 0
                                 : procs.at(inter->local_procs[0]) < procs.at(inter->remote_procs[0]);
    BridgedChannel channel(inter);
    std::vector<uint32_t> ids;
    if (int rc = build::agree(fn, inter, channel, 1, &ids)) return rc;
    const ProcList &first = local_first ? inter->local_procs : inter->remote_procs;
    const ProcList &second = local_first ? inter->remote_procs : inter->local_procs;
    ProcList all = first;
    all.insert(all.end(), second.begin(), second.end());
    const int rank = local_first ? inter->rank : static_cast<int>(inter->remote_procs.size()) + inter->rank;
    build::publish(build::make_intra(ids[0], std::move(all), rank, inter), out);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi
