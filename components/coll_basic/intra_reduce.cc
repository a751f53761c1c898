// Reduce. Binomial tree (ceil(log2 p) steps) for small vectors and for non-commutative operations,
// which it reduces in rank order: the tree is rooted at rank 0, every subtree covers consecutive
// ranks and partial results are combined left operand first; rank 0 then sends the result to the
// root. Large vectors with a commutative operation: Rabenseifner's reduce-scatter (recursive
// halving) + binomial gather of the reduced blocks to the root, moving about 2m bytes per process
// instead of m log2 p.
#include <utility>

#include "basic_functions.h"
#include "basic_intra.h"
#include "basic_params.h"
#include "basic_tags.h"

namespace plexus::coll_basic {

int reduce_binomial(const Ctx &c, const void *input, void *result, int count, plexus_coll_dtype_t *t,
                    plexus_coll_op_t *op, int root) {
    const int n = c.size;
    const bool commute = c.svc->op_commutative(op) != 0;
    const int tree_root = commute ? root : 0;
    const int rel = c.relative(tree_root);
    const bool has_children = (rel & 1) == 0 && rel + 1 < n;
    Layout l;
    BASIC_TRY(c.layout(t, &l));
    TempBuffer acc_buf, tmp_buf;
    const void *partial = input;  // what I send up: my input until I have reduced something into it
    char *acc = nullptr, *tmp = nullptr;
    if (has_children) {
        // The root's result buffer can hold the running result when the tree ends there.
        if (c.rank == root && tree_root == root) {
            acc = static_cast<char *>(result);
        } else {
            if (!acc_buf.allocate(l, count)) return PLEXUS_COLL_ERR_NO_MEM;
            acc = acc_buf.data();
        }
        if (acc != input) BASIC_TRY(c.copy(input, acc, count, t));
        if (!tmp_buf.allocate(l, count)) return PLEXUS_COLL_ERR_NO_MEM;
        tmp = tmp_buf.data();
        partial = acc;
    }
    for (int mask = 1; mask < n; mask <<= 1) {
        if (rel & mask) {
            BASIC_TRY(c.send(partial, count, t, c.absolute(rel - mask, tree_root)));
            break;
        }
        if ((rel | mask) >= n) continue;
        BASIC_TRY(c.recv(tmp, count, t, c.absolute(rel | mask, tree_root)));
        // The child's ranks follow mine: my partial is the left operand.
        if (commute) {
            BASIC_TRY(c.reduce_local(op, tmp, acc, count, t));
        } else {
            BASIC_TRY(c.reduce_local(op, acc, tmp, count, t));
            std::swap(acc, tmp);
            partial = acc;
        }
    }
    if (rel == 0) {  // the tree's root holds the result
        if (c.rank == root) return acc == result ? 0 : c.copy(acc, result, count, t);
        return c.send(acc, count, t, root);
    }
    if (c.rank == root) return c.recv(result, count, t, tree_root);
    return 0;
}

namespace {

// Fold, recursive halving on count / p' blocks, then the blocks gathered to the root along a
// binomial tree (mirror of the halving); when the root sat out of the fold, its odd neighbour
// gathers and forwards the result.
int reduce_scatter_gather(const Ctx &c, const void *input, void *result, int count, plexus_coll_dtype_t *t,
                          plexus_coll_op_t *op, int root) {
    Layout l;
    BASIC_TRY(c.layout(t, &l));
    const Fold f(c.size);
    TempBuffer acc_buf, tmp_buf;
    if (!acc_buf.allocate(l, count) || !tmp_buf.allocate(l, count)) return PLEXUS_COLL_ERR_NO_MEM;
    char *acc = acc_buf.data(), *tmp = tmp_buf.data();
    BASIC_TRY(c.copy(input, acc, count, t));
    int nr;
    BASIC_TRY(fold_in(c, f, acc, tmp, count, t, op, &nr));
    const int gatherer = f.new_rank(root) >= 0 ? root : root + 1;
    if (nr >= 0) {
        const Partition p = even_partition(count, f.pof2);
        BASIC_TRY(halving_reduce_scatter(c, f, nr, p, l, acc, tmp, op));
        const int new_root = f.new_rank(gatherer);
        for (int mask = 1; mask < f.pof2; mask <<= 1) {
            const int diff = nr ^ new_root;
            if (diff & (mask - 1)) break;  // sent my group in an earlier step
            const int partner = nr ^ mask;
            if (diff & mask) {
                const int mine = aligned_group(nr, mask);
                BASIC_TRY(c.send(l.at(acc, p.disp[mine]), p.span_count(mine, mine + mask), t, f.old_rank(partner)));
                break;
            }
            const int theirs = aligned_group(partner, mask);
            BASIC_TRY(c.recv(l.at(acc, p.disp[theirs]), p.span_count(theirs, theirs + mask), t, f.old_rank(partner)));
        }
    }
    if (c.rank == gatherer) return c.rank == root ? c.copy(acc, result, count, t) : c.send(acc, count, t, root);
    if (c.rank == root) return c.recv(result, count, t, gatherer);
    return 0;
}

}  // namespace

int intra_reduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                 plexus_coll_dtype_t *type, plexus_coll_op_t *op, int root, plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagReduce);
    if (count == 0) return 0;
    const void *input = sendbuf == PLEXUS_COLL_IN_PLACE ? recvbuf : sendbuf;
    if (c.size == 1) return input == recvbuf ? 0 : c.copy(input, recvbuf, count, type);
    const bool commute = c.svc->op_commutative(op) != 0;
    int algorithm = c.params->reduce_algorithm;
    if (algorithm == kReduceAuto) {
        Layout l;
        BASIC_TRY(c.layout(type, &l));
        const long bytes = static_cast<long>(l.size) * count;
        algorithm = bytes >= c.params->reduce_large ? kReduceScatterGather : kReduceBinomial;
    }
    // Halving needs a commutative operation and at least one item per block.
    if (algorithm == kReduceScatterGather && commute && count >= pof2_floor(c.size))
        return reduce_scatter_gather(c, input, recvbuf, count, type, op, root);
    return reduce_binomial(c, input, recvbuf, count, type, op, root);
}

}  // namespace plexus::coll_basic
