// The release half of a request's hold on its derived datatype (pt2pt_start.h hold_datatype
// takes it): when the request goes back to the pool, the type may go with it.
#include "mpi/datatype.h"
#include "mpi/request_pool.h"

namespace plexus::mpi {

void RequestPool::release_datatype(Request *r) {
    datatype_release(r->datatype);
    r->mpi_flags &= ~kRequestHoldsType;
}

}  // namespace plexus::mpi
