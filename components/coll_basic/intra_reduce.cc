// Reduce. Binomial tree (ceil(log2 p) steps) for small vectors and for non-commutative operations,
// which it reduces in rank order: the tree is rooted at rank 0, every subtree covers consecutive
// ranks and partial results are combined left operand first; rank 0 then sends the result to the
// root. Large vectors with a commutative operation: Rabenseifner's reduce-scatter (recursive
// halving) + binomial gather of the reduced blocks to the root, moving about 2m bytes per process
// instead of m log2 p.
#include <algorithm>

#include "basic_choice.h"
#include "basic_functions.h"
#include "basic_intra.h"
#include "basic_params.h"
#include "basic_tags.h"

namespace plexus::coll_basic {

namespace {

// How many children rel has in a binomial tree of n (the masks below its lowest set bit).
int binomial_children(int rel, int n) {
    int k = 0;
    for (int mask = 1; mask < n && !(rel & mask); mask <<= 1)
        if ((rel | mask) < n) ++k;
    return k;
}

}  // namespace

// Each child's partial result is received into a free buffer and combined there as "mine op
// received" (my ranks come first: the left operand), which becomes my partial result: the input
// itself is never copied. Two buffers alternate, chosen so that the last combination lands in the
// result buffer where the tree ends at the root.
int reduce_binomial(const Ctx &c, const void *input, void *result, int count, plexus_coll_dtype_t *t,
                    plexus_coll_op_t *op, int root) {
    const int n = c.size;
    const bool commute = c.svc->op_commutative(op) != 0;
    const int tree_root = commute ? root : 0;
    const int rel = c.relative(tree_root);
    const int children = binomial_children(rel, n);
    Layout l;
    BASIC_TRY(c.layout(t, &l));
    if (c.params->reduce_segment > 0 && l.size > 0) {
        const long segment = std::max<long>(1, c.params->reduce_segment / static_cast<long>(l.size));
        if (count >= 2 * segment) return reduce_binomial_segmented(c, input, result, count, t, op, root, static_cast<int>(segment));
    }
    TempBuffer last_buf, other_buf;
    char *last = nullptr, *other = nullptr;  // the buffer of the last child and of the one before
    if (children > 0) {
        if (c.rank == root && rel == 0 && result != input) {
            last = static_cast<char *>(result);
        } else {
            if (!last_buf.allocate(l, count)) return PLEXUS_COLL_ERR_NO_MEM;
            last = last_buf.data();
        }
        if (children > 1) {
            if (!other_buf.allocate(l, count)) return PLEXUS_COLL_ERR_NO_MEM;
            other = other_buf.data();
        }
    }
    const void *partial = input;
    int received = 0;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (rel & mask) {
            BASIC_TRY(c.send(partial, count, t, c.absolute(rel - mask, tree_root)));
            return c.rank == root ? c.recv(result, count, t, tree_root) : 0;  // tree rooted at 0
        }
        if ((rel | mask) >= n) continue;
        char *into = (children - ++received) % 2 == 0 ? last : other;
        BASIC_TRY(c.recv(into, count, t, c.absolute(rel | mask, tree_root)));
        BASIC_TRY(c.reduce_local(op, partial, into, count, t));
        partial = into;
    }
    // Only the tree's root gets here, holding the result.
    if (c.rank == root) return partial == result ? 0 : c.copy(partial, result, count, t);
    return c.send(partial, count, t, root);
}

namespace {

// Up to this many bytes of vectors in all, the root receives them all at once (no sender waits
// for another); beyond, in turn. 8 ranks, 1 MB: 854 us in turn against 1045 all at once.
constexpr long kLinearAllAtOnceBytes = 1024 * 1024;

// The root receives the vectors one by one, last rank first, each combined before the next comes:
// two vectors' worth of memory instead of p (what large vectors need to stay in cache).
int reduce_linear_in_turn(const Ctx &c, const Layout &l, const void *input, void *result, int count,
                          plexus_coll_op_t *op, int root) {
    const int n = c.size;
    plexus_coll_dtype_t *t = l.type;
    TempBuffer in_buf, acc_buf;
    if (!in_buf.allocate(l, count)) return PLEXUS_COLL_ERR_NO_MEM;
    // The last rank's vector starts the accumulator; an in-place root's input must outlive it.
    char *acc = static_cast<char *>(result);
    if (input == result && root != n - 1) {
        if (!acc_buf.allocate(l, count)) return PLEXUS_COLL_ERR_NO_MEM;
        acc = acc_buf.data();
    }
    if (root == n - 1) {
        if (input != result) BASIC_TRY(c.copy(input, acc, count, t));
    } else {
        BASIC_TRY(c.recv(acc, count, t, n - 1));
    }
    for (int i = n - 2; i >= 0; --i) {
        const void *x = input;
        if (i != root) {
            BASIC_TRY(c.recv(in_buf.data(), count, t, i));
            x = in_buf.data();
        }
        BASIC_TRY(c.reduce_local(op, x, acc, count, t));
    }
    return acc == result ? 0 : c.copy(acc, result, count, t);
}

}  // namespace

// Every process sends its vector to the root, which combines them in rank order (from the right:
// acc = x_i op acc, so non-commutative operations keep their order). No process waits for a
// relay, which is what costs most where ranks outnumber cores; the root does all p - 1 steps,
// so it only pays for short vectors.
int reduce_linear(const Ctx &c, const void *input, void *result, int count, plexus_coll_dtype_t *t,
                  plexus_coll_op_t *op, int root) {
    if (c.rank != root) return c.send(input, count, t, root);
    Layout l;
    BASIC_TRY(c.layout(t, &l));
    const int n = c.size;
    if (static_cast<long>(l.size) * count * n > kLinearAllAtOnceBytes)
        return reduce_linear_in_turn(c, l, input, result, count, op, root);
    TempBuffer all_buf;  // rank i's vector at slot i (the root's own stays where it is)
    if (!all_buf.allocate(l, static_cast<long>(n) * count)) return PLEXUS_COLL_ERR_NO_MEM;
    char *all = all_buf.data();
    auto slot = [&](int i) { return l.at(all, static_cast<long>(i) * count); };
    {
        RequestBatch reqs(c);
        for (int i = 1; i < n; ++i) {
            if (reqs.full()) BASIC_TRY(reqs.wait());
            const int src = (root + i) % n;
            BASIC_TRY(c.irecv(slot(src), count, t, src, reqs.next()));
        }
        BASIC_TRY(reqs.wait());
    }
    auto vector_of = [&](int i) -> const void * { return i == root ? input : slot(i); };
    char *acc = slot(n - 1);
    if (root == n - 1) {  // the root's input is the last operand: start from a copy of it
        acc = slot(root);
        BASIC_TRY(c.copy(input, acc, count, t));
    }
    for (int i = n - 2; i >= 0; --i) BASIC_TRY(c.reduce_local(op, vector_of(i), acc, count, t));
    return c.copy(acc, result, count, t);
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
    const Partition p = even_partition(count, f.pof2);
    int nr;
    BASIC_TRY(fold_and_halve(c, f, p, l, count, static_cast<const char *>(input), acc, tmp, op, &nr));
    const int gatherer = f.new_rank(root) >= 0 ? root : root + 1;
    if (nr >= 0) {
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

// The direct reduce-scatter, then the reduced blocks to the root (intra_direct.cc). The root
// combines its block straight into the result; an in-place root's other blocks, which it sends in
// the first step, are only overwritten in the second.
int reduce_direct(const Ctx &c, const void *input, void *result, int count, plexus_coll_dtype_t *t,
                  plexus_coll_op_t *op, int root) {
    Layout l;
    BASIC_TRY(c.layout(t, &l));
    const Partition p = even_partition(count, c.size);
    TempBuffer mine_buf;
    char *mine;
    if (c.rank == root) {
        mine = l.at(result, p.disp[c.rank]);
    } else {
        if (!mine_buf.allocate(l, p.count[c.rank])) return PLEXUS_COLL_ERR_NO_MEM;
        mine = mine_buf.data();
    }
    BASIC_TRY(reduce_scatter_direct(c, input, p, l, mine, op));
    if (c.rank != root && p.count[c.rank] == 0) return 0;  // fewer items than processes: nothing to send
    const void *send = c.rank == root ? PLEXUS_COLL_IN_PLACE : mine;  // the root's is at its place
    return gather_linear(c, send, p.count[c.rank], t, result, p.count.data(), p.disp.data(), t, root);
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
        algorithm = choose_reduce(*c.params, c.size, static_cast<long>(l.size) * count);
    }
    if (algorithm == kReduceLinear) return reduce_linear(c, input, recvbuf, count, type, op, root);
    if (algorithm == kReduceDirect) return reduce_direct(c, input, recvbuf, count, type, op, root);
    // Halving needs a commutative operation and at least one item per block.
    if (algorithm == kReduceScatterGather && commute && count >= pof2_floor(c.size))
        return reduce_scatter_gather(c, input, recvbuf, count, type, op, root);
    return reduce_binomial(c, input, recvbuf, count, type, op, root);
}

}  // namespace plexus::coll_basic
