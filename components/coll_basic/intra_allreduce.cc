// Allreduce. Recursive doubling: log2 p' exchanges of the whole vector, each process reducing what
// it receives (latency-optimal, for small vectors and for non-commutative operations: every partial
// result covers consecutive ranks and the lower one is the left operand). Rabenseifner for large
// vectors with commutative operations: recursive halving reduce-scatter + recursive doubling
// allgather, about 2m bytes moved per process. Sizes that are not a power of two fold the first
// 2 * (p - p') ranks in pairs before and hand the result back after. Ring (commutative, large,
// on request): ring reduce-scatter + ring allgather, 2(p - 1) steps of m / p bytes, no folding.
#include <utility>

#include "basic_choice.h"
#include "basic_functions.h"
#include "basic_intra.h"
#include "basic_params.h"
#include "basic_tags.h"

namespace plexus::coll_basic {
namespace {

// The even ranks that sat out of the fold get the result from their odd neighbour.
int unfold(const Ctx &c, const Fold &f, int nr, void *result, int count, plexus_coll_dtype_t *t) {
    if (c.rank >= 2 * f.rem) return 0;
    return nr < 0 ? c.recv(result, count, t, c.rank + 1) : c.send(result, count, t, c.rank - 1);
}

// Without extra ranks to fold, the first exchange sends the input from where it is and receives
// into the result, which the combination then fills: no copy of the input first (unless the
// operation is not commutative and the partner's data must come first).
int allreduce_recursive_doubling(const Ctx &c, const Layout &l, bool commute, const void *input, void *result,
                                 int count, plexus_coll_op_t *op) {
    plexus_coll_dtype_t *t = l.type;
    const Fold f(c.size);
    TempBuffer tmp_buf;
    if (!tmp_buf.allocate(l, count)) return PLEXUS_COLL_ERR_NO_MEM;
    char *acc = static_cast<char *>(result), *tmp = tmp_buf.data();
    bool from_input = input != result;
    if (from_input && f.rem > 0) {  // the fold works in place
        BASIC_TRY(c.copy(input, result, count, t));
        from_input = false;
    }
    int nr;
    BASIC_TRY(fold_in(c, f, acc, acc, tmp, count, t, op, &nr));
    if (nr >= 0) {
        for (int mask = 1; mask < f.pof2; mask <<= 1) {
            const int partner_nr = nr ^ mask, peer = f.old_rank(partner_nr);
            if (from_input) {
                from_input = false;
                if (commute || partner_nr > nr) {  // acc = input op partner's
                    BASIC_TRY(c.sendrecv(input, count, t, peer, acc, count, t, peer));
                    BASIC_TRY(c.reduce_local(op, input, acc, count, t));
                    continue;
                }
                BASIC_TRY(c.copy(input, acc, count, t));
            }
            BASIC_TRY(c.sendrecv(acc, count, t, peer, tmp, count, t, peer));
            if (partner_nr < nr || commute) {  // the partner's ranks come first: its data on the left
                BASIC_TRY(c.reduce_local(op, tmp, acc, count, t));
            } else {
                BASIC_TRY(c.reduce_local(op, acc, tmp, count, t));
                std::swap(acc, tmp);
            }
        }
        if (acc != result) BASIC_TRY(c.copy(acc, result, count, t));
    }
    return unfold(c, f, nr, result, count, t);
}

int allreduce_rabenseifner(const Ctx &c, const Layout &l, const void *input, void *result, int count,
                           plexus_coll_op_t *op) {
    plexus_coll_dtype_t *t = l.type;
    const Fold f(c.size);
    TempBuffer tmp_buf;
    if (!tmp_buf.allocate(l, count)) return PLEXUS_COLL_ERR_NO_MEM;
    char *acc = static_cast<char *>(result);
    const Partition p = even_partition(count, f.pof2);
    int nr;
    BASIC_TRY(fold_and_halve(c, f, p, l, count, static_cast<const char *>(input), acc, tmp_buf.data(), op, &nr));
    if (nr >= 0) BASIC_TRY(doubling_allgather(c, f, nr, p, l, acc));
    return unfold(c, f, nr, result, count, t);
}

// Block b is reduced along the ring starting after rank b and ends reduced at rank b; then the
// reduced blocks travel around once more.
int allreduce_ring(const Ctx &c, const Layout &l, void *result, int count, plexus_coll_op_t *op) {
    plexus_coll_dtype_t *t = l.type;
    const int n = c.size, r = c.rank;
    const Partition p = even_partition(count, n);
    TempBuffer tmp_buf;
    if (!tmp_buf.allocate(l, p.count[0])) return PLEXUS_COLL_ERR_NO_MEM;
    char *acc = static_cast<char *>(result), *tmp = tmp_buf.data();
    const int right = (r + 1) % n, left = (r - 1 + n) % n;
    for (int i = 0; i < n - 1; ++i) {
        const int sb = (r - i - 1 + 2 * n) % n, rb = (r - i - 2 + 2 * n) % n;
        BASIC_TRY(c.sendrecv(l.at(acc, p.disp[sb]), p.count[sb], t, right, tmp, p.count[rb], t, left));
        BASIC_TRY(c.reduce_local(op, tmp, l.at(acc, p.disp[rb]), p.count[rb], t));
    }
    for (int i = 0; i < n - 1; ++i) {
        const int sb = (r - i + n) % n, rb = (r - i - 1 + n) % n;
        BASIC_TRY(c.sendrecv(l.at(acc, p.disp[sb]), p.count[sb], t, right, l.at(acc, p.disp[rb]), p.count[rb], t,
                             left));
    }
    return 0;
}

// Linear reduce to rank 0 and linear bcast from it: two hops, no relay (oversubscribed nodes).
int allreduce_reduce_bcast(const Ctx &c, void *result, int count, plexus_coll_dtype_t *t, plexus_coll_op_t *op) {
    BASIC_TRY(reduce_linear(c, result, result, count, t, op, 0));
    return bcast_linear(c, result, count, t, 0);
}

// The direct reduce-scatter, then every reduced block to everyone (intra_direct.cc): two steps, no
// relay, any operation.
int allreduce_direct(const Ctx &c, const Layout &l, const void *input, void *result, int count,
                     plexus_coll_op_t *op) {
    const Partition p = even_partition(count, c.size);
    char *buf = static_cast<char *>(result);
    BASIC_TRY(reduce_scatter_direct(c, input, p, l, l.at(buf, p.disp[c.rank]), op));
    return allgather_linear(c, buf, p.count.data(), p.disp.data(), l);
}

}  // namespace

int intra_allreduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                    plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagAllreduce);
    if (count == 0) return 0;
    const void *input = sendbuf == PLEXUS_COLL_IN_PLACE ? recvbuf : sendbuf;
    if (c.size == 1) return input == recvbuf ? 0 : c.copy(input, recvbuf, count, type);
    const bool commute = c.svc->op_commutative(op) != 0;
    Layout l;  // asked once: the algorithms take it from here
    BASIC_TRY(c.layout(type, &l));
    int algorithm = c.params->allreduce_algorithm;
    if (algorithm == kAllreduceAuto) algorithm = choose_allreduce(*c.params, c.size, static_cast<long>(l.size) * count);
    // Ring and Rabenseifner need a commutative operation and an item per block; what cannot have
    // the algorithm asked for gets recursive doubling.
    const bool ring = algorithm == kAllreduceRing && commute && count >= c.size;
    if (algorithm == kAllreduceDirect) return allreduce_direct(c, l, input, recvbuf, count, op);
    if (algorithm == kAllreduceRabenseifner && commute && count >= pof2_floor(c.size))
        return allreduce_rabenseifner(c, l, input, recvbuf, count, op);
    if (algorithm != kAllreduceReduceBcast && !ring)
        return allreduce_recursive_doubling(c, l, commute, input, recvbuf, count, op);
    // Those read the input where it is; these two work in recvbuf.
    if (input != recvbuf) BASIC_TRY(c.copy(input, recvbuf, count, type));
    return ring ? allreduce_ring(c, l, recvbuf, count, op) : allreduce_reduce_bcast(c, recvbuf, count, type, op);
}

}  // namespace plexus::coll_basic
