// Reduce_scatter and Reduce_scatter_block. Commutative operations: recursive halving over the
// folded communicator, the blocks being the processes' result blocks (a folded new rank owns the
// blocks of both ranks it stands for), so every process sends and receives about m bytes in
// log2 p' steps. Non-commutative operations: the order-keeping binomial reduce to rank 0, then a
// linear scatterv of the blocks.
#include <cstdint>
#include <vector>

#include "basic_functions.h"
#include "basic_intra.h"
#include "basic_tags.h"

namespace plexus::coll_basic {
namespace {

int reduce_scatter_halving(const Ctx &c, const void *input, void *recvbuf, const int counts[], int total,
                           plexus_coll_dtype_t *t, plexus_coll_op_t *op) {
    Layout l;
    BASIC_TRY(c.layout(t, &l));
    const Fold f(c.size);
    TempBuffer acc_buf, tmp_buf;
    if (!acc_buf.allocate(l, total) || !tmp_buf.allocate(l, total)) return PLEXUS_COLL_ERR_NO_MEM;
    char *acc = acc_buf.data();
    const Partition p = folded_partition(f, counts);
    int nr;
    BASIC_TRY(fold_and_halve(c, f, p, l, total, static_cast<const char *>(input), acc, tmp_buf.data(), op, &nr));
    if (nr < 0) return counts[c.rank] ? c.recv(recvbuf, counts[c.rank], t, c.rank + 1) : 0;
    const char *mine = l.at(acc, p.disp[nr]);
    if (nr < f.rem) {  // my block follows my even neighbour's
        const int lower = counts[c.rank - 1];
        if (lower) BASIC_TRY(c.send(mine, lower, t, c.rank - 1));
        mine = l.at(mine, lower);
    }
    return c.copy(mine, recvbuf, counts[c.rank], t);
}

int reduce_then_scatter(const Ctx &c, const void *input, void *recvbuf, const int counts[], int total,
                        plexus_coll_dtype_t *t, plexus_coll_op_t *op) {
    Layout l;
    BASIC_TRY(c.layout(t, &l));
    TempBuffer result;
    std::vector<int> displs(c.size);
    if (c.rank == 0) {
        if (!result.allocate(l, total)) return PLEXUS_COLL_ERR_NO_MEM;
        for (int i = 1; i < c.size; ++i) displs[i] = displs[i - 1] + counts[i - 1];
    }
    BASIC_TRY(reduce_binomial(c, input, result.data(), total, t, op, 0));
    return scatterv_linear(c, result.data(), counts, displs.data(), t, recvbuf, counts[c.rank], t, 0);
}

int reduce_scatter(const Ctx &c, const void *sendbuf, void *recvbuf, const int counts[], plexus_coll_dtype_t *t,
                   plexus_coll_op_t *op) {
    long total = 0;
    for (int i = 0; i < c.size; ++i) total += counts[i];
    if (total == 0) return 0;
    const void *input = sendbuf == PLEXUS_COLL_IN_PLACE ? recvbuf : sendbuf;
    if (c.size == 1) return input == recvbuf ? 0 : c.copy(input, recvbuf, counts[0], t);
    if (total > INT32_MAX) return PLEXUS_COLL_ERR_UNSUPPORTED;  // the services count in int
    if (c.svc->op_commutative(op))
        return reduce_scatter_halving(c, input, recvbuf, counts, static_cast<int>(total), t, op);
    return reduce_then_scatter(c, input, recvbuf, counts, static_cast<int>(total), t, op);
}

}  // namespace

int intra_reduce_scatter(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, const int recvcounts[],
                         plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm) {
    return reduce_scatter(make_ctx(self, comm, kTagReduceScatter), sendbuf, recvbuf, recvcounts, type, op);
}

int intra_reduce_scatter_block(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int recvcount,
                               plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagReduceScatterBlock);
    const std::vector<int> counts(c.size, recvcount);
    return reduce_scatter(c, sendbuf, recvbuf, counts.data(), type, op);
}

}  // namespace plexus::coll_basic
