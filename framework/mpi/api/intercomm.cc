// Inter-communicators: Intercomm_create (from two intra-communicators and a bridge) and
// Intercomm_merge. The collective work is in comm/.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/comm/comm_build.h"
#include "mpi/comm/comm_checks.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

// The arguments only the local leader uses: peer_comm, remote_leader, tag.
int check_leader_args(const char *fn, MPI_Comm local_comm, MPI_Comm peer_comm, int remote_leader, int tag) {
    // Reported on local_comm, as every error of the call (peer_comm is only the leader's bridge).
    if (!peer_comm)
        return report_errorf(local_comm, MPI_ERR_COMM, "%s: invalid peer_comm: MPI_COMM_NULL at the local leader", fn);
    if (!comm_valid(peer_comm))
        return report_errorf(local_comm, MPI_ERR_COMM, "%s: invalid peer_comm %p: not a communicator (freed, or never "
                             "made by MPI)", fn, static_cast<const void *>(peer_comm));
    if (remote_leader < 0 || remote_leader >= peer_comm->remote_size())
        return report_errorf(local_comm, MPI_ERR_RANK, "%s: invalid remote_leader %d: peer_comm %s has %d rank(s) "
                             "(valid 0..%d)", fn, remote_leader, comm_name(peer_comm).c_str(),
                             peer_comm->remote_size(), peer_comm->remote_size() - 1);
    const uint32_t proc = peer_comm->remote_procs[static_cast<size_t>(remote_leader)];
    if (rank_of(local_comm->local_procs, proc) != MPI_UNDEFINED)
        return report_errorf(local_comm, MPI_ERR_RANK, "%s: invalid remote_leader %d: that process of peer_comm %s is "
                             "a member of local_comm %s; the remote leader must belong to the other group", fn,
                             remote_leader, comm_name(peer_comm).c_str(), comm_name(local_comm).c_str());
    if (tag < 0)
        return report_errorf(local_comm, MPI_ERR_TAG, "%s: invalid tag %d: tags are 0..MPI_TAG_UB", fn, tag);
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Intercomm_create)
int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                          MPI_Comm *newintercomm) {
    constexpr const char *fn = "MPI_Intercomm_create";
    running(fn);
    if (int rc = check_intra(fn, local_comm, "local_comm")) return rc;
    if (int rc = check_local_rank(fn, local_comm, local_leader, "local_leader")) return rc;
    if (int rc = check_pointer(fn, local_comm, newintercomm, "newintercomm")) return rc;
    const int leader_rc = local_comm->rank == local_leader
                              ? check_leader_args(fn, local_comm, peer_comm, remote_leader, tag)
                              : MPI_SUCCESS;
    return intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag, leader_rc, newintercomm);
}

PLEXUS_MPI_ALIAS(Intercomm_merge)
int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm) {
    constexpr const char *fn = "MPI_Intercomm_merge";
    running(fn);
    if (int rc = check_inter(fn, intercomm, "intercomm")) return rc;
    if (int rc = check_pointer(fn, intercomm, newintracomm, "newintracomm")) return rc;
    return intercomm_merge(intercomm, high != 0, newintracomm);
}

}  // extern "C"
