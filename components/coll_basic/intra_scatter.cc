// Scatter and Scatterv. Scatter with small blocks: binomial tree, the mirror of the binomial
// gather (the root sends each child its whole subtree's blocks, consecutive in relative ranks).
// Large blocks and Scatterv: linear, the root sending to every process with a bounded number of
// sends posted at once.
#include <vector>

#include "basic_functions.h"
#include "basic_intra.h"
#include "basic_params.h"
#include "basic_tags.h"

namespace plexus::coll_basic {
namespace {

// Sends relative rank rel's children their subtrees' blocks out of `blocks` (block 0 is rel's own).
int send_children(const Ctx &c, int rel, int root, const char *blocks, int block_items, const Layout &l) {
    RequestBatch reqs(c);
    const int top = rel == 0 ? pof2_floor(c.size) : lowest_bit(rel) >> 1;
    for (int m = top; m > 0; m >>= 1) {  // the largest subtree first: it has the longest way to go
        const int child = rel + m;
        if (child >= c.size) continue;
        const int sub = binomial_subtree_size(child, c.size);
        BASIC_TRY(c.isend(l.at(blocks, static_cast<long>(m) * block_items), sub * block_items, l.type,
                          c.absolute(child, root), reqs.next()));
    }
    return reqs.wait();
}

int scatter_binomial(const Ctx &c, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                     void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, int root) {
    const int n = c.size, rel = c.relative(root);
    if (c.rank != root) {
        const int sub = binomial_subtree_size(rel, n);
        const int parent = c.absolute(binomial_parent(rel), root);
        if (sub == 1) return c.recv(recvbuf, recvcount, recvtype, parent);
        Layout l;
        BASIC_TRY(c.layout(recvtype, &l));
        TempBuffer blocks;
        if (!blocks.allocate(l, static_cast<long>(sub) * recvcount)) return PLEXUS_COLL_ERR_NO_MEM;
        BASIC_TRY(c.recv(blocks.data(), sub * recvcount, recvtype, parent));
        BASIC_TRY(c.copy(blocks.data(), recvbuf, recvcount, recvtype));
        return send_children(c, rel, root, blocks.data(), recvcount, l);
    }
    Layout l;
    BASIC_TRY(c.layout(sendtype, &l));
    const char *own = l.at(sendbuf, static_cast<long>(root) * sendcount);
    if (recvbuf != PLEXUS_COLL_IN_PLACE) BASIC_TRY(c.svc->copy(own, sendcount, sendtype, recvbuf, recvcount, recvtype));
    if (root == 0) return send_children(c, 0, root, static_cast<const char *>(sendbuf), sendcount, l);
    // Relative order wraps around the end of sendbuf: send out of a rotated copy.
    TempBuffer rotated;
    if (!rotated.allocate(l, static_cast<long>(n) * sendcount)) return PLEXUS_COLL_ERR_NO_MEM;
    BASIC_TRY(c.copy(own, rotated.data(), (n - root) * sendcount, sendtype));
    BASIC_TRY(c.copy(sendbuf, l.at(rotated.data(), static_cast<long>(n - root) * sendcount), root * sendcount,
                     sendtype));
    return send_children(c, 0, root, rotated.data(), sendcount, l);
}

}  // namespace

int scatterv_linear(const Ctx &c, const void *sendbuf, const int sendcounts[], const int displs[],
                    plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype,
                    int root) {
    Layout l;
    if (c.rank != root) {
        // The root sends nothing for a block that is empty in bytes, whatever either count says.
        BASIC_TRY(c.layout(recvtype, &l));
        return carries_data(l, recvcount) ? c.recv(recvbuf, recvcount, recvtype, root) : 0;
    }
    BASIC_TRY(c.layout(sendtype, &l));
    if (recvbuf != PLEXUS_COLL_IN_PLACE)
        BASIC_TRY(c.svc->copy(l.at(sendbuf, displs[root]), sendcounts[root], sendtype, recvbuf, recvcount, recvtype));
    RequestBatch reqs(c);
    for (int i = 1; i < c.size; ++i) {
        const int dst = (root + i) % c.size;
        if (!carries_data(l, sendcounts[dst])) continue;
        if (reqs.full()) BASIC_TRY(reqs.wait());
        BASIC_TRY(c.isend(l.at(sendbuf, displs[dst]), sendcounts[dst], sendtype, dst, reqs.next()));
    }
    return reqs.wait();
}

int intra_scatter(plexus_coll_module_t *self, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                  void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagScatter);
    const bool at_root = c.rank == root;
    Layout l;
    BASIC_TRY(c.layout(at_root ? sendtype : recvtype, &l));
    const long block_bytes = static_cast<long>(l.size) * (at_root ? sendcount : recvcount);
    if (block_bytes == 0) return 0;
    if (block_bytes < c.params->scatter_large)
        return scatter_binomial(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    std::vector<int> counts, displs;
    if (at_root) {
        counts.assign(c.size, sendcount);
        displs.resize(c.size);
        for (int i = 0; i < c.size; ++i) displs[i] = i * sendcount;
    }
    return scatterv_linear(c, sendbuf, counts.data(), displs.data(), sendtype, recvbuf, recvcount, recvtype, root);
}

int intra_scatterv(plexus_coll_module_t *self, const void *sendbuf, const int sendcounts[], const int displs[],
                   plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype,
                   int root, plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagScatterv);
    return scatterv_linear(c, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root);
}

}  // namespace plexus::coll_basic
