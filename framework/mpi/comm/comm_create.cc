// MPI_Comm_create, intra- and inter-communicator forms. Intra: the members of group form the
// new communicator in group's order; the others get MPI_COMM_NULL. Inter (MPI-2.2): each side
// passes a subgroup of its local group; the leaders swap them; the result is the
// inter-communicator of the two subgroups (MPI_COMM_NULL outside them, and everywhere when one
// side's subgroup is empty). Every process of comm takes part in the context-id agreement.
#include "mpi/comm/agreement_channels.h"
#include "mpi/comm/comm_build.h"
#include "mpi/comm/comm_build_common.h"
#include "mpi/comm/internal_collectives.h"
#include "mpi/comm/internal_tags.h"

namespace plexus::mpi {

namespace {

constexpr const char *kFn = "MPI_Comm_create";

int create_intra(Comm *comm, Group *group, Comm **out) {
    IntraChannel channel(comm);
    std::vector<uint32_t> ids;
    if (int rc = build::agree(kFn, comm, channel, 1, &ids)) return rc;
    if (group->rank == MPI_UNDEFINED) {
        build::give_back(ids);
        *out = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    build::publish(build::make_intra(ids[0], group->procs, group->rank, comm), out);
    return MPI_SUCCESS;
}

int create_inter(Comm *comm, Group *group, Comm **out) {
    Comm *local = comm->local_comm;
    std::vector<uint32_t> remote;
    if (local->rank == 0) {
        if (int rc = internal::exchange_vectors(comm, 0, tags::kLeaderExchange, group->procs, &remote))
            return build::step_failed(kFn, comm, "exchanging the groups between the leaders", rc);
    }
    if (int rc = internal::bcast_vector(local, &remote, 0))
        return build::step_failed(kFn, comm, "spreading the remote group", rc);
    BridgedChannel channel(comm);
    std::vector<uint32_t> ids;
    if (int rc = build::agree(kFn, comm, channel, 2, &ids)) return rc;
    if (group->rank == MPI_UNDEFINED || remote.empty()) {
        build::give_back(ids);
        *out = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    build::publish(build::make_inter(ids[0], ids[1], group->procs, std::move(remote), group->rank, comm), out);
    return MPI_SUCCESS;
}

}  // namespace

int comm_create(Comm *comm, Group *group, Comm **out) {
    build::reap();
    return comm->inter ? create_inter(comm, group, out) : create_intra(comm, group, out);
}

}  // namespace plexus::mpi
