// Allgather and Allgatherv. Every algorithm first puts the process's own block at its place in
// recvbuf (unless MPI_IN_PLACE already has it there) and then moves blocks of recvtype only.
// - recursive doubling (power-of-two sizes): log2 p exchanges, each doubling the blocks held;
// - Bruck: ceil(log2 p) steps for any size, in a rotated copy undone at the end;
// - ring: p - 1 steps passing one block to the right, bandwidth-optimal for large blocks
//   (and the algorithm of Allgatherv, whose blocks differ in size);
// - linear: every block sent to every peer at once, for nodes with more ranks than cores (large
//   blocks, and Allgatherv there).
#include <vector>

#include "basic_choice.h"
#include "basic_functions.h"
#include "basic_intra.h"
#include "basic_params.h"
#include "basic_tags.h"

namespace plexus::coll_basic {
namespace {

int allgather_recursive_doubling(const Ctx &c, char *recvbuf, int rc, const Layout &l) {
    for (int mask = 1; mask < c.size; mask <<= 1) {
        const int partner = c.rank ^ mask;
        const long mine = aligned_group(c.rank, mask), theirs = aligned_group(partner, mask);
        BASIC_TRY(c.sendrecv(l.at(recvbuf, mine * rc), mask * rc, l.type, partner, l.at(recvbuf, theirs * rc),
                             mask * rc, l.type, partner));
    }
    return 0;
}

// Block j of the rotated copy is rank (rank + j)'s; in step k the first min(2^k, p - 2^k) blocks go
// to rank - 2^k while rank + 2^k's arrive behind them.
int allgather_bruck(const Ctx &c, char *recvbuf, int rc, const Layout &l) {
    const int n = c.size, r = c.rank;
    TempBuffer rotated;
    if (!rotated.allocate(l, static_cast<long>(n) * rc)) return PLEXUS_COLL_ERR_NO_MEM;
    char *t = rotated.data();
    BASIC_TRY(c.copy(l.at(recvbuf, static_cast<long>(r) * rc), t, rc, l.type));
    for (int have = 1; have < n; have <<= 1) {
        const int moved = have < n - have ? have : n - have;
        BASIC_TRY(c.sendrecv(t, moved * rc, l.type, (r - have + n) % n, l.at(t, static_cast<long>(have) * rc),
                             moved * rc, l.type, (r + have) % n));
    }
    BASIC_TRY(c.copy(l.at(t, rc), l.at(recvbuf, static_cast<long>(r + 1) * rc), (n - r - 1) * rc, l.type));
    return c.copy(l.at(t, static_cast<long>(n - r) * rc), recvbuf, r * rc, l.type);
}

// Ring over blocks given by counts/displs (items of l.type).
int allgather_ring(const Ctx &c, char *recvbuf, const int counts[], const int displs[], const Layout &l) {
    const int n = c.size, r = c.rank;
    const int right = (r + 1) % n, left = (r - 1 + n) % n;
    for (int i = 0; i < n - 1; ++i) {
        const int sb = (r - i + n) % n, rb = (r - i - 1 + n) % n;
        BASIC_TRY(c.sendrecv(l.at(recvbuf, displs[sb]), counts[sb], l.type, right, l.at(recvbuf, displs[rb]),
                             counts[rb], l.type, left));
    }
    return 0;
}

}  // namespace

// Every block sent to every peer at once (in batches by step, as Alltoallv): no step waits for
// another, which wins where ranks outnumber cores (a ring step waits for a neighbour to be
// scheduled, p - 1 times in a row). Empty blocks (carries_data) move nothing.
int allgather_linear(const Ctx &c, char *recvbuf, const int counts[], const int displs[], const Layout &l) {
    const int r = c.rank;
    return post_pairwise(c, [&](int dst, int src, RequestBatch &reqs) {
        if (carries_data(l, counts[src]))
            BASIC_TRY(c.irecv(l.at(recvbuf, displs[src]), counts[src], l.type, src, reqs.next()));
        return carries_data(l, counts[r]) ? c.isend(l.at(recvbuf, displs[r]), counts[r], l.type, dst, reqs.next()) : 0;
    });
}

int intra_allgather(plexus_coll_module_t *self, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                    void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagAllgather);
    Layout l;
    BASIC_TRY(c.layout(recvtype, &l));
    // By bytes, not count: another process may give the same empty blocks as 1 of a zero-size type.
    if (!carries_data(l, recvcount)) return 0;
    char *out = static_cast<char *>(recvbuf);
    if (sendbuf != PLEXUS_COLL_IN_PLACE)
        BASIC_TRY(c.svc->copy(sendbuf, sendcount, sendtype, l.at(out, static_cast<long>(c.rank) * recvcount),
                              recvcount, recvtype));
    if (c.size == 1) return 0;
    const bool pof2 = pof2_floor(c.size) == c.size;
    int algorithm = c.params->allgather_algorithm;
    if (algorithm == kAllgatherAuto) {
        algorithm = choose_allgather(*c.params, c.size, static_cast<long>(l.size) * recvcount * c.size);
    }
    if (algorithm == kAllgatherRecursiveDoubling && !pof2) algorithm = kAllgatherBruck;
    switch (algorithm) {
    case kAllgatherRecursiveDoubling: return allgather_recursive_doubling(c, out, recvcount, l);
    case kAllgatherBruck: return allgather_bruck(c, out, recvcount, l);
    default: break;
    }
    std::vector<int> counts(c.size, recvcount), displs(c.size);
    for (int i = 0; i < c.size; ++i) displs[i] = i * recvcount;
    if (algorithm == kAllgatherLinear) return allgather_linear(c, out, counts.data(), displs.data(), l);
    return allgather_ring(c, out, counts.data(), displs.data(), l);
}

int intra_allgatherv(plexus_coll_module_t *self, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                     void *recvbuf, const int recvcounts[], const int displs[], plexus_coll_dtype_t *recvtype,
                     plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagAllgatherv);
    Layout l;
    BASIC_TRY(c.layout(recvtype, &l));
    char *out = static_cast<char *>(recvbuf);
    if (sendbuf != PLEXUS_COLL_IN_PLACE)
        BASIC_TRY(c.svc->copy(sendbuf, sendcount, sendtype, l.at(out, displs[c.rank]), recvcounts[c.rank], recvtype));
    if (c.size == 1) return 0;
    if (c.params->oversubscribed) return allgather_linear(c, out, recvcounts, displs, l);
    return allgather_ring(c, out, recvcounts, displs, l);
}

}  // namespace plexus::coll_basic
