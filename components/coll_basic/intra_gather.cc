// Gather and Gatherv. Gather with small blocks: binomial tree (ceil(log2 p) steps at the root
// instead of p - 1 messages): every process forwards its subtree's blocks, which are consecutive in
// ranks relative to the root. Large blocks and Gatherv: linear, the root receiving from every
// process with a bounded number of receives posted at once.
#include <vector>

#include "basic_functions.h"
#include "basic_intra.h"
#include "basic_params.h"
#include "basic_tags.h"

namespace plexus::coll_basic {
namespace {

// Relative rank r's children's subtrees, received into consecutive blocks of `blocks` (block 0 is r's).
int receive_children(const Ctx &c, int rel, int root, char *blocks, int block_items, const Layout &l) {
    const int top = rel == 0 ? pof2_floor(c.size) : lowest_bit(rel) >> 1;
    for (int m = 1; m <= top; m <<= 1) {
        const int child = rel + m;
        if (child >= c.size) break;
        const int sub = binomial_subtree_size(child, c.size);
        BASIC_TRY(c.recv(l.at(blocks, static_cast<long>(m) * block_items), sub * block_items, l.type,
                         c.absolute(child, root)));
    }
    return 0;
}

int gather_binomial(const Ctx &c, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                    void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, int root) {
    const int n = c.size, rel = c.relative(root);
    if (c.rank != root) {
        const int sub = binomial_subtree_size(rel, n);
        const int parent = c.absolute(binomial_parent(rel), root);
        if (sub == 1) return c.send(sendbuf, sendcount, sendtype, parent);
        Layout l;
        BASIC_TRY(c.layout(sendtype, &l));
        TempBuffer blocks;
        if (!blocks.allocate(l, static_cast<long>(sub) * sendcount)) return PLEXUS_COLL_ERR_NO_MEM;
        BASIC_TRY(c.copy(sendbuf, blocks.data(), sendcount, sendtype));
        BASIC_TRY(receive_children(c, rel, root, blocks.data(), sendcount, l));
        return c.send(blocks.data(), sub * sendcount, sendtype, parent);
    }
    Layout l;
    BASIC_TRY(c.layout(recvtype, &l));
    char *own = l.at(recvbuf, static_cast<long>(root) * recvcount);
    if (sendbuf != PLEXUS_COLL_IN_PLACE) BASIC_TRY(c.svc->copy(sendbuf, sendcount, sendtype, own, recvcount, recvtype));
    if (root == 0) return receive_children(c, 0, root, static_cast<char *>(recvbuf), recvcount, l);
    // Relative order wraps around the end of recvbuf: gather into rotated order, then unrotate.
    TempBuffer rotated;
    if (!rotated.allocate(l, static_cast<long>(n) * recvcount)) return PLEXUS_COLL_ERR_NO_MEM;
    BASIC_TRY(c.copy(own, rotated.data(), recvcount, recvtype));
    BASIC_TRY(receive_children(c, 0, root, rotated.data(), recvcount, l));
    BASIC_TRY(c.copy(l.at(rotated.data(), recvcount), l.at(own, recvcount), (n - root - 1) * recvcount, recvtype));
    return c.copy(l.at(rotated.data(), static_cast<long>(n - root) * recvcount), recvbuf, root * recvcount,
                  recvtype);
}

}  // namespace

// Root receives counts[i] items at displs[i] (in items of recvtype) from every other process.
int gather_linear(const Ctx &c, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                  void *recvbuf, const int counts[], const int displs[], plexus_coll_dtype_t *recvtype, int root) {
    if (c.rank != root) return c.send(sendbuf, sendcount, sendtype, root);
    Layout l;
    BASIC_TRY(c.layout(recvtype, &l));
    if (sendbuf != PLEXUS_COLL_IN_PLACE)
        BASIC_TRY(c.svc->copy(sendbuf, sendcount, sendtype, l.at(recvbuf, displs[root]), counts[root], recvtype));
    RequestBatch reqs(c);
    for (int i = 1; i < c.size; ++i) {
        const int src = (root + i) % c.size;
        if (!carries_data(l, counts[src])) continue;
        if (reqs.full()) BASIC_TRY(reqs.wait());
        BASIC_TRY(c.irecv(l.at(recvbuf, displs[src]), counts[src], recvtype, src, reqs.next()));
    }
    return reqs.wait();
}

int intra_gather(plexus_coll_module_t *self, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                 void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagGather);
    // Every process sees the same block size in bytes (the type signatures match).
    Layout l;
    const bool at_root = c.rank == root;
    BASIC_TRY(c.layout(at_root ? recvtype : sendtype, &l));
    const long block_bytes = static_cast<long>(l.size) * (at_root ? recvcount : sendcount);
    if (block_bytes == 0) return 0;
    if (block_bytes < c.params->gather_large)
        return gather_binomial(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    std::vector<int> counts, displs;
    if (at_root) {
        counts.assign(c.size, recvcount);
        displs.resize(c.size);
        for (int i = 0; i < c.size; ++i) displs[i] = i * recvcount;
    }
    return gather_linear(c, sendbuf, sendcount, sendtype, recvbuf, counts.data(), displs.data(), recvtype, root);
}

int intra_gatherv(plexus_coll_module_t *self, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                  void *recvbuf, const int recvcounts[], const int displs[], plexus_coll_dtype_t *recvtype,
                  int root, plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagGatherv);
    if (c.rank != root) {
        // The root expects nothing from me when my block is empty in bytes, whatever my count.
        Layout sl;
        BASIC_TRY(c.layout(sendtype, &sl));
        if (!carries_data(sl, sendcount)) return 0;
    }
    return gather_linear(c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root);
}

}  // namespace plexus::coll_basic
