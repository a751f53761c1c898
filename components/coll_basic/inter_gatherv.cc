// MPI_Gatherv on an inter-communicator, linear (as MPICH): every process of the group without the
// root sends its block straight to the root, which receives each one in place at its
// displacement. Only the root knows the counts, so a leader in between would first have to gather
// them and the root would receive into a staging buffer and copy out; the direct messages need
// neither. The rest of the root's group (MPI_PROC_NULL) takes no part.
#include "basic_functions.h"
#include "inter_support.h"

namespace plexus::coll_basic {

int inter_gatherv(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                  plexus_coll_dtype_t *sendtype, void *recvbuf, const int recvcounts[],
                  const int displs[], plexus_coll_dtype_t *recvtype, int root,
                  plexus_coll_comm_t *comm) {
    using namespace inter;
    if (root == PLEXUS_COLL_PROC_NULL) return PLEXUS_COLL_SUCCESS;
    const Call c = call_of(self, comm);
    const int tag = kTagGatherv;
    if (root != PLEXUS_COLL_ROOT) return c.svc->send(sendbuf, sendcount, sendtype, root, tag, comm);

    Layout layout;
    if (int rc = get_layout(c.svc, recvtype, &layout); rc != PLEXUS_COLL_SUCCESS) return rc;
    Requests reqs(c.svc, comm);
    if (int rc = reqs.reserve(c.remote_size); rc != PLEXUS_COLL_SUCCESS) return rc;
    for (int i = 0; i < c.remote_size; ++i) {
        if (reqs.irecv(layout.at(recvbuf, displs[i]), recvcounts[i], recvtype, i, tag) !=
            PLEXUS_COLL_SUCCESS)
            break;
    }
    return reqs.wait_all();
}

}  // namespace plexus::coll_basic
