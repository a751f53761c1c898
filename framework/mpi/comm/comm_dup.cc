// MPI_Comm_dup: the same groups under new context ids, attributes copied by their callbacks.
#include "mpi/attributes/attribute_hooks.h"
#include "mpi/coll/coll_state.h"
#include "mpi/comm/agreement_channels.h"
#include "mpi/comm/comm_build.h"
#include "mpi/comm/comm_build_common.h"
#include "mpi/error_report.h"

namespace plexus::mpi {

int comm_dup(Comm *comm, Comm **out) {
    constexpr const char *fn = "MPI_Comm_dup";
    build::reap();
    std::vector<uint32_t> ids;
    Comm *dup;
    if (comm->inter) {
        BridgedChannel channel(comm);
        if (int rc = build::agree(fn, comm, channel, 2, &ids)) return rc;
        dup = build::make_inter(ids[0], ids[1], comm->local_procs, comm->remote_procs, comm->rank, comm);
    } else {
        IntraChannel channel(comm);
        if (int rc = build::agree(fn, comm, channel, 1, &ids)) return rc;
        dup = build::make_intra(ids[0], comm->local_procs, comm->rank, comm);
    }
    if (int rc = attributes_copy(comm, dup)) {
        // The callbacks' own code: the new communicator never reaches the program.
        comm_registry().discard(&g_mpi->pml(), dup);
        return report_code(comm, rc, std::string(fn) + ": a copy callback of an attribute cached on " + comm_name(comm) +
                                         " returned error " + std::to_string(rc) + "; the duplicate was not made");
    }
    coll::copy_hints(comm, dup);
    dup->topo = comm->topo;  // topologies are immutable: the duplicate shares its parent's
    build::publish(dup, out);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi
