// Alltoallv and Alltoallw: pairwise, step i sending to rank + i and receiving from rank - i, with
// up to RequestBatch::kWindow operations posted at once (so steps overlap without flooding the
// request pool on large communicators). Empty blocks send nothing: a block is empty when it
// carries no bytes (carries_data), which both sides agree on even when one says "0 MPI_INT" and
// the other "1 of a zero-size type" (their counts differ, their signatures do not).
// MPI_IN_PLACE: the blocks to send are read from a copy of the part of recvbuf they cover.
#include <vector>

#include "basic_functions.h"
#include "basic_intra.h"
#include "basic_tags.h"

namespace plexus::coll_basic {
namespace {

// Block j of either side: address, count, type (Alltoallv and Alltoallw look alike from here).
struct Side {
    const char *buf;
    const int *counts;
    const int *displs;
    bool byte_displs;                      // Alltoallw: displacements in bytes
    plexus_coll_dtype_t *type;             // Alltoallv: one type
    plexus_coll_dtype_t *const *types;     // Alltoallw: one per peer
    ptrdiff_t extent;                      // Alltoallv: of type
    size_t size;                           // Alltoallv: of type

    plexus_coll_dtype_t *type_of(int j) const { return types ? types[j] : type; }
    ptrdiff_t offset(int j) const { return byte_displs ? displs[j] : displs[j] * extent; }
    // Whether block j carries data (carries_data); Alltoallw looks up the size of its type.
    int has_data(const Ctx &c, int j, bool *out) const {
        *out = false;
        if (counts[j] <= 0) return 0;
        if (!types) {
            *out = size > 0;
            return 0;
        }
        Layout l;
        BASIC_TRY(c.layout(types[j], &l));
        *out = carries_data(l, counts[j]);
        return 0;
    }
};

int pairwise(const Ctx &c, const Side &s, const Side &r) {
    char *out = const_cast<char *>(r.buf);
    if (s.counts[c.rank] || r.counts[c.rank])
        BASIC_TRY(c.svc->copy(s.buf + s.offset(c.rank), s.counts[c.rank], s.type_of(c.rank), out + r.offset(c.rank),
                              r.counts[c.rank], r.type_of(c.rank)));
    return post_pairwise(c, [&](int dst, int src, RequestBatch &reqs) {
        bool recv_data, send_data;
        BASIC_TRY(r.has_data(c, src, &recv_data));
        BASIC_TRY(s.has_data(c, dst, &send_data));
        if (recv_data) BASIC_TRY(c.irecv(out + r.offset(src), r.counts[src], r.type_of(src), src, reqs.next()));
        return send_data ? c.isend(s.buf + s.offset(dst), s.counts[dst], s.type_of(dst), dst, reqs.next()) : 0;
    });
}

// In place: what recvbuf's blocks cover, copied aside (blocks without data cover nothing: a
// zero-size type's bounds say nothing about the buffer).
int snapshot_of(const Ctx &c, const Side &r, Snapshot *snap, const char **view) {
    for (int j = 0; j < c.size; ++j) {
        Layout l;
        BASIC_TRY(c.layout(r.type_of(j), &l));
        if (carries_data(l, r.counts[j])) snap->cover(r.offset(j), l, r.counts[j]);
    }
    return snap->take(r.buf, view) ? 0 : PLEXUS_COLL_ERR_NO_MEM;
}

int alltoall_general(const Ctx &c, const void *sendbuf, Side s, Side r) {
    Snapshot snap;
    if (sendbuf == PLEXUS_COLL_IN_PLACE) {
        s = r;
        BASIC_TRY(snapshot_of(c, r, &snap, &s.buf));
    }
    return pairwise(c, s, r);
}

}  // namespace

int intra_alltoallv(plexus_coll_module_t *self, const void *sendbuf, const int sendcounts[], const int sdispls[],
                    plexus_coll_dtype_t *sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                    plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagAlltoallv);
    Layout rl, sl;
    BASIC_TRY(c.layout(recvtype, &rl));
    const bool in_place = sendbuf == PLEXUS_COLL_IN_PLACE;
    if (!in_place) BASIC_TRY(c.layout(sendtype, &sl));
    const Side r{static_cast<const char *>(recvbuf), recvcounts, rdispls, false, recvtype, nullptr, rl.extent, rl.size};
    const Side s{static_cast<const char *>(sendbuf), sendcounts, sdispls, false, sendtype, nullptr, sl.extent, sl.size};
    return alltoall_general(c, sendbuf, s, r);
}

int intra_alltoallw(plexus_coll_module_t *self, const void *sendbuf, const int sendcounts[], const int sdispls[],
                    plexus_coll_dtype_t *const sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], plexus_coll_dtype_t *const recvtypes[], plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagAlltoallw);
    const Side r{static_cast<const char *>(recvbuf), recvcounts, rdispls, true, nullptr, recvtypes, 0, 0};
    const Side s{static_cast<const char *>(sendbuf), sendcounts, sdispls, true, nullptr, sendtypes, 0, 0};
    return alltoall_general(c, sendbuf, s, r);
}

}  // namespace plexus::coll_basic
