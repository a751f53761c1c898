// MPI_Barrier.
#include "mpi/api/profiling.h"
#include "mpi/coll/coll_api.h"

using namespace plexus::mpi;

PLEXUS_MPI_ALIAS(Barrier)
extern "C" int PMPI_Barrier(MPI_Comm comm) {
    constexpr const char *fn = "MPI_Barrier";
    running(fn);
    if (int rc = coll::check_comm(fn, comm)) [[unlikely]]
        return rc;
    if (coll::single(comm)) return MPI_SUCCESS;
    return coll::finish(comm, coll::dispatch::barrier(nullptr, coll::handle(comm)));
}
