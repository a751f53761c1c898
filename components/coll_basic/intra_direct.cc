// The direct reduce-scatter. Every process owns one block of the vector (a Partition with one block
// per rank), receives that block from all the others at once and reduces it itself; then the
// reduced blocks go to everyone (Allreduce, allgather_linear) or to the root (Reduce,
// gather_linear).
// Two steps and no relays: no process waits for another to have combined something first, which
// is what costs most where ranks outnumber cores. It moves as many bytes as Rabenseifner's
// halving, but all the combining runs in parallel on every process, where the linear reduce
// leaves it all to the root. Blocks are combined in rank order, so non-commutative operations
// are served too.
#include "basic_intra.h"

namespace plexus::coll_basic {
namespace {

// acc = x_i op acc for i from hi down to lo, so that non-commutative operations keep rank order.
template <class X>
int combine_from_right(const Ctx &c, plexus_coll_op_t *op, X x, int lo, int hi, char *acc, int n,
                       plexus_coll_dtype_t *t) {
    for (int i = hi; i >= lo; --i) BASIC_TRY(c.reduce_local(op, x(i), acc, n, t));
    return 0;
}

}  // namespace

int reduce_scatter_direct(const Ctx &c, const void *input, const Partition &p, const Layout &l, char *out,
                          plexus_coll_op_t *op) {
    const int n = c.size, r = c.rank, mine = p.count[r];
    TempBuffer slots_buf;  // slot i: rank i's copy of my block (slot r unused)
    if (!slots_buf.allocate(l, static_cast<long>(mine) * n)) return PLEXUS_COLL_ERR_NO_MEM;
    auto slot = [&](int i) { return l.at(slots_buf.data(), static_cast<long>(i) * mine); };
    BASIC_TRY(post_pairwise(c, [&](int dst, int src, RequestBatch &reqs) {
        if (mine) BASIC_TRY(c.irecv(slot(src), mine, l.type, src, reqs.next()));
        return p.count[dst] ? c.isend(l.at(input, p.disp[dst]), p.count[dst], l.type, dst, reqs.next()) : 0;
    }));
    if (mine == 0) return 0;
    const char *own = l.at(input, p.disp[r]);
    auto x = [&](int i) -> const void * { return i == r ? own : slot(i); };
    if (c.svc->op_commutative(op)) {
        if (out != own) BASIC_TRY(c.copy(own, out, mine, l.type));
        BASIC_TRY(combine_from_right(c, op, slot, r + 1, n - 1, out, mine, l.type));
        return combine_from_right(c, op, slot, 0, r - 1, out, mine, l.type);
    }
    // Rank order: start from the last rank's block, which is mine only on the last rank.
    char *acc = r == n - 1 ? out : slot(n - 1);
    if (acc == out && out != own) BASIC_TRY(c.copy(own, out, mine, l.type));
    BASIC_TRY(combine_from_right(c, op, x, 0, n - 2, acc, mine, l.type));
    return acc == out ? 0 : c.copy(acc, out, mine, l.type);
}

}  // namespace plexus::coll_basic
