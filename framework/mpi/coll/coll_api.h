// What the MPI collective calls (api/coll_*.cc) share: the checks, the dispatch, the local
// copies of the size-1 shortcuts, and the last step that hands a failure to the error handler.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpi/coll/coll_checks.h"
#include "mpi/datatype/typed_copy.h"
#include "mpi/coll/coll_dispatch.h"
#include "mpi/coll/coll_handles.h"
#include "mpi/mpi_state.h"
#include "mpi/op/op_check.h"

namespace plexus::mpi::coll {

// The result of a dispatched call: success, or the failure reported on comm's error handler.
inline int finish(Comm *comm, int rc) {
    if (rc == MPI_SUCCESS) [[likely]]
        return rc;
    return report_failure(comm, rc);
}

// Item displs of type into buf (integer arithmetic: buf may be MPI_BOTTOM).
inline void *at(const void *buf, int displ, const Datatype *type) {
    return reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(buf) +
                                    static_cast<uintptr_t>(static_cast<ptrdiff_t>(displ) * type->extent));
}
// Byte displacement (MPI_Alltoallw).
inline void *at_bytes(const void *buf, int displ) {
    return reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(buf) + static_cast<uintptr_t>(static_cast<ptrdiff_t>(displ)));
}

// The size-1 shortcut of the calls that move data to oneself: a typed local copy.
inline int self_copy(const char *fn, const Comm *comm, const void *src, int scount, const Datatype *stype, void *dst,
                     int rcount, const Datatype *rtype) {
    return local_copy_result(fn, comm, typed_copy(src, scount, *stype, dst, rcount, *rtype));
}

inline bool single(const Comm *comm) { return !comm->inter && comm->size() == 1; }

}  // namespace plexus::mpi::coll
