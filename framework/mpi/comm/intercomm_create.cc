// MPI_Intercomm_create: the two leaders swap their groups over peer_comm with the user's tag,
// each leader spreads the remote group in its local_comm, and both groups agree on two context
// ids through the leaders (the inter-communicator's, and its hidden local_comm's, which only the
// local group uses, so both sides can share it).
//
// Groups are exchanged as proc ids: in one job every process numbers procs alike. Across jobs
// (dpm) the leaders will have to exchange process names and map them through the proc table.
#include "mpi/comm/agreement_channels.h"
#include "mpi/comm/comm_build.h"
#include "mpi/comm/comm_build_common.h"
#include "mpi/comm/internal_collectives.h"
#include "mpi/error_codes.h"
#include "mpi/error_report.h"

namespace plexus::mpi {

int intercomm_create(Comm *local_comm, int local_leader, Comm *peer_comm, int remote_leader, int tag, int leader_rc,
                     Comm **out) {
    constexpr const char *fn = "MPI_Intercomm_create";
    build::reap();
    // The leader's verdict on the arguments only it uses goes to its whole group first: a
    // refused call then fails in the whole local group instead of leaving it waiting. (The
    // remote group, if the leader cannot reach it, still waits: the program is erroneous.)
    const bool leader = local_comm->rank == local_leader;
    int32_t verdict = leader ? (leader_rc == MPI_SUCCESS ? MPI_SUCCESS : error_class_of(leader_rc)) : MPI_SUCCESS;
    if (int rc = internal::bcast(local_comm, &verdict, sizeof verdict, local_leader))
        return build::step_failed(fn, local_comm, "hearing from the local leader", rc);
    if (leader && leader_rc != MPI_SUCCESS) return leader_rc;
    if (verdict != MPI_SUCCESS)
        return report_errorf(local_comm, verdict, "%s: the local leader (rank %d of %s) refused its arguments "
                             "peer_comm, remote_leader or tag (%s); its own error says which", fn, local_leader,
                             comm_name(local_comm).c_str(), class_name(verdict) ? class_name(verdict) : "?");
    std::vector<uint32_t> remote;
    if (leader) {
        if (int rc = internal::exchange_vectors(peer_comm, remote_leader, tag, local_comm->local_procs, &remote))
            return build::step_failed(fn, peer_comm, "exchanging the groups between the leaders", rc);
    }
    if (int rc = internal::bcast_vector(local_comm, &remote, local_leader))
        return build::step_failed(fn, local_comm, "spreading the remote group from the local leader", rc);
    const ProcList shared = group_intersection(local_comm->local_procs, remote);
    if (!shared.empty())
        // Every process of both groups sees the same lists, so all of them stop here.
        return report_errorf(local_comm, MPI_ERR_COMM,
                             "%s: the local group (%zu processes) and the remote group (%zu processes) share %zu "
                             "process(es), e.g. MPI_COMM_WORLD rank %u: the groups of an inter-communicator "
                             "must be disjoint (check local_leader %d and remote_leader %d)",
                             fn, local_comm->local_procs.size(), remote.size(), shared.size(), shared[0],
                             local_leader, remote_leader);
    BridgedChannel channel(local_comm, local_leader, peer_comm, remote_leader, tag);
    std::vector<uint32_t> ids;
    if (int rc = build::agree(fn, local_comm, channel, 2, &ids)) return rc;
    build::publish(build::make_inter(ids[0], ids[1], local_comm->local_procs, std::move(remote), local_comm->rank,
                                     local_comm),
                   out);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi
