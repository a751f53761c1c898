// What coll_basic's inter-communicator collectives (inter_*.cc) share: the view of one call (the
// local group, the remote group, the hidden intra-communicator of the local group and the
// collectives that serve it) and batches of point-to-point requests that are always completed
// before the buffers they use go away. Buffers and tags are the component's (basic_buffer.h,
// basic_tags.h): the local phases run on another communicator (the local one), so the messages
// between the groups never meet theirs.
#pragma once

#include <cstddef>
#include <memory>

#include <plexus/coll.h>

#include "basic_buffer.h"
#include "basic_tags.h"

namespace plexus::coll_basic::inter {

// The group leaders are rank 0 of each group: they carry the exchange between the groups and
// are the roots of the local phases.
constexpr int kLeader = 0;

// One call on an inter-communicator.
struct Call {
    const plexus_coll_services_t *svc;
    plexus_coll_comm_t *comm;             // the inter-communicator
    plexus_coll_comm_t *local;            // the intra-communicator of the local group
    const plexus_coll_functions_t *coll;  // the collectives of any communicator (for local)
    int rank;                             // in the local group
    int size;                             // of the local group
    int remote_size;

    bool leader() const { return rank == kLeader; }
};
Call call_of(plexus_coll_module_t *self, plexus_coll_comm_t *comm);

// buf plus a displacement in bytes (MPI_Alltoallw's).
inline void *at_bytes(void *buf, ptrdiff_t bytes) {
    return static_cast<char *>(buf) + bytes;
}
inline const void *at_bytes(const void *buf, ptrdiff_t bytes) {
    return static_cast<const char *>(buf) + bytes;
}

// n as an int count, or PLEXUS_COLL_ERR_UNSUPPORTED when the services' int counts cannot say it
// (a product or sum of MPI counts may exceed INT_MAX).
int to_count(long long n, int *out);

// The layout of type, and a temporary for n of its items in *buf when `want` (only some ranks
// need one); PLEXUS_COLL_SUCCESS, PLEXUS_COLL_ERR_NO_MEM or the datatype service's error.
int layout_and_temp(const plexus_coll_services_t *svc, plexus_coll_dtype_t *type, long n, bool want,
                    Layout *layout, TempBuffer *buf);

// Point-to-point requests posted together and completed together. The destructor completes any
// still outstanding (after an error on the way), so no message ever lands in freed memory.
class Requests {
public:
    Requests(const plexus_coll_services_t *svc, plexus_coll_comm_t *comm)
        : svc_(svc), comm_(comm) {}
    ~Requests() { wait_all(); }
    Requests(const Requests &) = delete;
    Requests &operator=(const Requests &) = delete;

    // Room for n outstanding requests; PLEXUS_COLL_ERR_NO_MEM when there is none.
    int reserve(int n);
    int isend(const void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag);
    int irecv(void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag);
    // Completes every posted request; the first error of the batch, or of the posting.
    int wait_all();

private:
    int post_result(int rc);

    const plexus_coll_services_t *svc_;
    plexus_coll_comm_t *comm_;
    std::unique_ptr<plexus_coll_request_t *[]> list_;
    int capacity_ = 0;
    int posted_ = 0;
    int error_ = PLEXUS_COLL_SUCCESS;
};

}  // namespace plexus::coll_basic::inter
