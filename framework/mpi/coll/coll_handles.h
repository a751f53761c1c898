// The opaque pointers of plexus/coll.h are the MPI layer's own objects: a plexus_coll_comm_t *
// is a Comm *, a plexus_coll_dtype_t * a Datatype *, and so on. These casts are the only place
// that says so.
#pragma once

#include <plexus/coll.h>

#include "mpi/communicator.h"
#include "mpi/datatype.h"
#include "mpi/op/op.h"
#include "mpi/request.h"

namespace plexus::mpi::coll {

inline plexus_coll_comm_t *handle(Comm *c) { return reinterpret_cast<plexus_coll_comm_t *>(c); }
inline plexus_coll_dtype_t *handle(Datatype *t) { return reinterpret_cast<plexus_coll_dtype_t *>(t); }
inline plexus_coll_op_t *handle(Op *op) { return reinterpret_cast<plexus_coll_op_t *>(op); }
inline plexus_coll_request_t *handle(Request *r) { return reinterpret_cast<plexus_coll_request_t *>(r); }
inline plexus_coll_dtype_t *const *handles(const MPI_Datatype *types) {
    return reinterpret_cast<plexus_coll_dtype_t *const *>(types);
}

inline Comm *object(plexus_coll_comm_t *c) { return reinterpret_cast<Comm *>(c); }
inline Datatype *object(plexus_coll_dtype_t *t) { return reinterpret_cast<Datatype *>(t); }
inline Op *object(plexus_coll_op_t *op) { return reinterpret_cast<Op *>(op); }
inline Request *object(plexus_coll_request_t *r) { return reinterpret_cast<Request *>(r); }

}  // namespace plexus::mpi::coll
