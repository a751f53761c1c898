// Rabenseifner's building blocks over the folded communicator (basic_schedule.h, Fold): the fold of
// the extra ranks, recursive halving (a reduce-scatter in log2 p' steps, each moving half of what
// the previous one did) and recursive doubling allgather (its mirror). Commutative operations only:
// halving combines blocks in an order that depends on the rank.
#include "basic_intra.h"

namespace plexus::coll_basic {

int fold_in(const Ctx &c, const Fold &f, const void *input, void *acc, void *tmp, int count,
            plexus_coll_dtype_t *t, plexus_coll_op_t *op, int *new_rank) {
    *new_rank = f.new_rank(c.rank);
    if (c.rank >= 2 * f.rem) return 0;
    if (*new_rank < 0) return c.send(input, count, t, c.rank + 1);
    if (input != acc) {
        BASIC_TRY(c.recv(acc, count, t, c.rank - 1));
        return c.reduce_local(op, input, acc, count, t);
    }
    BASIC_TRY(c.recv(tmp, count, t, c.rank - 1));
    return c.reduce_local(op, tmp, acc, count, t);
}

namespace {

// src is where my partial vector is: acc, or before the first step the untouched input, whose
// half I keep is then combined straight into acc (no copy of the input into acc first).
int halving_steps(const Ctx &c, const Fold &f, int nr, const Partition &p, const Layout &l, const char *src,
                  char *acc, char *tmp, plexus_coll_op_t *op) {
    int first = 0;  // the group of blocks I still reduce: [first, first + 2 * mask)
    for (int mask = f.pof2 >> 1; mask > 0; mask >>= 1) {
        const int peer = f.old_rank(nr ^ mask);
        const bool upper = (nr & mask) != 0;
        const int keep = upper ? first + mask : first, give = upper ? first : first + mask;
        const int keep_n = p.span_count(keep, keep + mask), give_n = p.span_count(give, give + mask);
        char *keep_acc = l.at(acc, p.disp[keep]);
        const bool in_acc = src == acc;
        char *into = in_acc ? l.at(tmp, p.disp[keep]) : keep_acc;
        BASIC_TRY(c.sendrecv(l.at(src, p.disp[give]), give_n, l.type, peer, into, keep_n, l.type, peer));
        BASIC_TRY(c.reduce_local(op, in_acc ? into : l.at(src, p.disp[keep]), keep_acc, keep_n, l.type));
        first = keep;
        src = acc;
    }
    return 0;
}

}  // namespace

int fold_and_halve(const Ctx &c, const Fold &f, const Partition &p, const Layout &l, int count, const char *input,
                   char *acc, char *tmp, plexus_coll_op_t *op, int *new_rank) {
    BASIC_TRY(fold_in(c, f, input, acc, tmp, count, l.type, op, new_rank));
    if (*new_rank < 0) return 0;
    const char *src = c.rank < 2 * f.rem ? acc : input;  // the fold combined into acc
    return halving_steps(c, f, *new_rank, p, l, src, acc, tmp, op);
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
