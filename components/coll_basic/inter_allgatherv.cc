// MPI_Allgatherv on an inter-communicator (the MPICH design): every process sends its block
// straight to the other group's leader, which knows the counts (its recvcounts) and receives the
// blocks in rank order; then each leader broadcasts them within its group (local collective).
// A leader in the sending group would first have to gather its group's counts, which only the
// receiving side knows.
//
// The broadcast carries the blocks back to back. When this process's displacements say exactly
// that (the common case), they travel straight into recvbuf; otherwise into a staging buffer
// that is copied out block by block. Each process decides for itself: displacements are local.
// When the blocks hold no bytes at all the broadcast is skipped, which every process of the group
// agrees on by bytes (their counts may differ: 0 of a type, or some of a zero-size type).
#include "basic_functions.h"
#include "inter_support.h"

namespace plexus::coll_basic {
namespace {

// Whether the blocks of displs follow one another without gaps, and their total count.
bool packed_layout(const int recvcounts[], const int displs[], int n, long long *total) {
    bool packed = true;
    *total = 0;
    for (int i = 0; i < n; ++i) {
        if (displs[i] != *total) packed = false;
        *total += recvcounts[i];
    }
    return packed;
}

}  // namespace

int inter_allgatherv(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                     plexus_coll_dtype_t *sendtype, void *recvbuf, const int recvcounts[],
                     const int displs[], plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm) {
    using namespace inter;
    const Call c = call_of(self, comm);
    const int tag = kTagAllgatherv;
    long long total_items = 0;
    const bool packed = packed_layout(recvcounts, displs, c.remote_size, &total_items);
    int total = 0;
    if (int rc = to_count(total_items, &total); rc != PLEXUS_COLL_SUCCESS) return rc;
    Layout layout;
    TempBuffer staging;
    if (int rc = layout_and_temp(c.svc, recvtype, total, !packed, &layout, &staging);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    void *blocks = packed ? recvbuf : staging.data();

    {  // the exchange: everyone to the remote leader
        Requests reqs(c.svc, comm);
        if (int rc = reqs.reserve(c.leader() ? c.remote_size + 1 : 1); rc != PLEXUS_COLL_SUCCESS)
            return rc;
        if (c.leader()) {
            long offset = 0;
            for (int i = 0; i < c.remote_size; ++i) {
                reqs.irecv(layout.at(blocks, offset), recvcounts[i], recvtype, i, tag);
                offset += recvcounts[i];
            }
        }
        reqs.isend(sendbuf, sendcount, sendtype, kLeader, tag);
        if (int rc = reqs.wait_all(); rc != PLEXUS_COLL_SUCCESS) return rc;
    }

    if (!carries_data(layout, total)) return PLEXUS_COLL_SUCCESS;
    if (int rc = c.coll->bcast(nullptr, blocks, total, recvtype, kLeader, c.local);
        rc != PLEXUS_COLL_SUCCESS)
        return rc;
    if (packed) return PLEXUS_COLL_SUCCESS;
    long offset = 0;
    for (int i = 0; i < c.remote_size; ++i) {
        int rc = c.svc->copy(layout.at(blocks, offset), recvcounts[i], recvtype,
                             layout.at(recvbuf, displs[i]), recvcounts[i], recvtype);
        if (rc != PLEXUS_COLL_SUCCESS) return rc;
        offset += recvcounts[i];
    }
    return PLEXUS_COLL_SUCCESS;
}

}  // namespace plexus::coll_basic
