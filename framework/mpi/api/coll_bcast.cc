// MPI_Bcast. On an inter-communicator the root passes MPI_ROOT, the rest of its group
// MPI_PROC_NULL, the other group the root's rank. There every process of both groups hands the
// call down, MPI_PROC_NULL (without its insignificant arguments) and empty messages included, so
// that a component with one segment over both groups (coll_shm_inter) counts every call alike in
// all of them; the others return at once for those.
#include "mpi/api/profiling.h"
#include "mpi/coll/coll_api.h"

using namespace plexus::mpi;

PLEXUS_MPI_ALIAS(Bcast)
extern "C" int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
    constexpr const char *fn = "MPI_Bcast";
    running(fn);
    coll::Role role;
    if (int rc = coll::check_rooted(fn, comm, root, role)) [[unlikely]]
        return rc;
    if (role == coll::Role::Idle)
        return coll::finish(comm, coll::dispatch::bcast(nullptr, nullptr, 0, nullptr, MPI_PROC_NULL, coll::handle(comm)));
    if (int rc = coll::check_data(fn, comm, buffer, count, datatype, "buffer", "count", "datatype",
                                  "MPI_Bcast does not take it")) [[unlikely]]
        return rc;
    // The type signatures match everywhere, so a message without bytes here is empty everywhere;
    // but not by count: another process may give it as 0 of MPI_INT where this one gives 1 of a
    // zero-size type (deciding by count hung the one and left a stray message from the other).
    if (!comm->inter && (count == 0 || datatype->size == 0 || coll::single(comm))) return MPI_SUCCESS;
    return coll::finish(comm, coll::dispatch::bcast(nullptr, buffer, count, coll::handle(datatype), root, coll::handle(comm)));
}
