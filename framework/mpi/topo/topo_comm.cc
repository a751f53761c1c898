// One context-id agreement over the old communicator, then the members' communicator.
#include "mpi/topo/topo_comm.h"

#include <algorithm>

#include "mpi/comm/agreement_channels.h"
#include "mpi/comm/comm_build_common.h"

namespace plexus::mpi::topo {

int make_topo_comm(const char *function, Comm *comm, const std::vector<int> &members, TopologyRef topology,
                   Comm **out) {
    build::reap();
    IntraChannel channel(comm);
    std::vector<uint32_t> ids;
    if (int rc = build::agree(function, comm, channel, 1, &ids)) return rc;
    const auto mine = std::find(members.begin(), members.end(), comm->rank);
    if (mine == members.end()) {
        build::give_back(ids);
        *out = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    const int rank = static_cast<int>(mine - members.begin());
    Comm *c = build::make_intra(ids[0], build::procs_at(comm->local_procs, members), rank, comm);
    c->topo = std::move(topology);
    build::publish(c, out);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi::topo
