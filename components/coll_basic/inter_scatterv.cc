// MPI_Scatterv on an inter-communicator, linear (as MPICH): the root sends every process of the
// other group its block straight from its displacement. Only the root knows the counts, so a
// leader in between would need them sent first and the root would pack the blocks into one
// buffer; the direct messages need neither. The rest of the root's group (MPI_PROC_NULL) takes no
// part.
#include "basic_functions.h"
#include "inter_support.h"

namespace plexus::coll_basic {

int inter_scatterv(plexus_coll_module_t *self, const void *sendbuf, const int sendcounts[],
                   const int displs[], plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                   plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm) {
    using namespace inter;
    if (root == PLEXUS_COLL_PROC_NULL) return PLEXUS_COLL_SUCCESS;
    const Call c = call_of(self, comm);
    const int tag = kTagScatterv;
    if (root != PLEXUS_COLL_ROOT) return c.svc->recv(recvbuf, recvcount, recvtype, root, tag, comm);

    Layout layout;
    if (int rc = get_layout(c.svc, sendtype, &layout); rc != PLEXUS_COLL_SUCCESS) return rc;
    Requests reqs(c.svc, comm);
    if (int rc = reqs.reserve(c.remote_size); rc != PLEXUS_COLL_SUCCESS) return rc;
    for (int i = 0; i < c.remote_size; ++i) {
        if (reqs.isend(layout.at(sendbuf, displs[i]), sendcounts[i], sendtype, i, tag) !=
            PLEXUS_COLL_SUCCESS)
            break;
    }
    return reqs.wait_all();
}

}  // namespace plexus::coll_basic
