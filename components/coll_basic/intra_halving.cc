// Rabenseifner's building blocks over the folded communicator (basic_schedule.h, Fold): the fold of
// the extra ranks, recursive halving (a reduce-scatter in log2 p' steps, each moving half of what
// the previous one did) and recursive doubling allgather (its mirror). Commutative operations only:
// halving combines blocks in an order that depends on the rank.
#include "basic_intra.h"

namespace plexus::coll_basic {

int fold_in(const Ctx &c, const Fold &f, void *acc, void *tmp, int count, plexus_coll_dtype_t *t,
            plexus_coll_op_t *op, int *new_rank) {
    *new_rank = f.new_rank(c.rank);
    if (c.rank >= 2 * f.rem) return 0;
    if (*new_rank < 0) return c.send(acc, count, t, c.rank + 1);
    BASIC_TRY(c.recv(tmp, count, t, c.rank - 1));
    return c.reduce_local(op, tmp, acc, count, t);
}

int halving_reduce_scatter(const Ctx &c, const Fold &f, int nr, const Partition &p, const Layout &l, char *acc,
                           char *tmp, plexus_coll_op_t *op) {
    int first = 0;  // the group of blocks I still reduce: [first, first + 2 * mask)
    for (int mask = f.pof2 >> 1; mask > 0; mask >>= 1) {
        const int peer = f.old_rank(nr ^ mask);
        const bool upper = (nr & mask) != 0;
        const int keep = upper ? first + mask : first, give = upper ? first : first + mask;
        const int keep_n = p.span_count(keep, keep + mask), give_n = p.span_count(give, give + mask);
        char *keep_acc = l.at(acc, p.disp[keep]);
        char *keep_tmp = l.at(tmp, p.disp[keep]);
        BASIC_TRY(c.sendrecv(l.at(acc, p.disp[give]), give_n, l.type, peer, keep_tmp, keep_n, l.type, peer));
        BASIC_TRY(c.reduce_local(op, keep_tmp, keep_acc, keep_n, l.type));
        first = keep;
    }
    return 0;
}

int doubling_allgather(const Ctx &c, const Fold &f, int nr, const Partition &p, const Layout &l, char *acc) {
    for (int mask = 1; mask < f.pof2; mask <<= 1) {
        const int partner = nr ^ mask;
        const int mine = aligned_group(nr, mask), theirs = aligned_group(partner, mask);
        BASIC_TRY(c.sendrecv(l.at(acc, p.disp[mine]), p.span_count(mine, mine + mask), l.type, f.old_rank(partner),
                             l.at(acc, p.disp[theirs]), p.span_count(theirs, theirs + mask), l.type,
                             f.old_rank(partner)));
    }
    return 0;
}

}  // namespace plexus::coll_basic
