// Scan and Exscan by recursive doubling: in round k a process exchanges the reduction of its
// aligned group of 2^k ranks with the partner group; a lower group's data is folded into the
// result and into the running group reduction, always as the left operand (operand order is kept
// for non-commutative operations). ceil(log2 p) rounds.
#include <utility>

#include "basic_functions.h"
#include "basic_intra.h"
#include "basic_tags.h"

namespace plexus::coll_basic {
namespace {

// exclusive: Exscan (rank 0's result stays undefined, i.e. untouched).
int scan(const Ctx &c, const void *sendbuf, void *recvbuf, int count, plexus_coll_dtype_t *t, plexus_coll_op_t *op,
         bool exclusive) {
    if (count == 0) return 0;
    const void *input = sendbuf == PLEXUS_COLL_IN_PLACE ? recvbuf : sendbuf;
    if (!exclusive && input != recvbuf) BASIC_TRY(c.copy(input, recvbuf, count, t));
    if (c.size == 1) return 0;
    Layout l;
    BASIC_TRY(c.layout(t, &l));
    const bool commute = c.svc->op_commutative(op) != 0;
    TempBuffer group_buf, tmp_buf;
    if (!group_buf.allocate(l, count) || !tmp_buf.allocate(l, count)) return PLEXUS_COLL_ERR_NO_MEM;
    char *group = group_buf.data(), *tmp = tmp_buf.data();  // group: my aligned group's reduction
    BASIC_TRY(c.copy(input, group, count, t));
    bool have_result = !exclusive;
    for (int mask = 1; mask < c.size; mask <<= 1) {
        const int partner = c.rank ^ mask;
        if (partner >= c.size) continue;
        BASIC_TRY(c.sendrecv(group, count, t, partner, tmp, count, t, partner));
        if (partner < c.rank) {  // the partner's ranks precede mine
            if (have_result) {
                BASIC_TRY(c.reduce_local(op, tmp, recvbuf, count, t));
            } else {
                BASIC_TRY(c.copy(tmp, recvbuf, count, t));
                have_result = true;
            }
            BASIC_TRY(c.reduce_local(op, tmp, group, count, t));
        } else if (commute) {
            BASIC_TRY(c.reduce_local(op, tmp, group, count, t));
        } else {
            BASIC_TRY(c.reduce_local(op, group, tmp, count, t));
            std::swap(group, tmp);
        }
    }
    return 0;
}

}  // namespace

int intra_scan(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count, plexus_coll_dtype_t *type,
               plexus_coll_op_t *op, plexus_coll_comm_t *comm) {
    return scan(make_ctx(self, comm, kTagScan), sendbuf, recvbuf, count, type, op, false);
}

int intra_exscan(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                 plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm) {
    return scan(make_ctx(self, comm, kTagExscan), sendbuf, recvbuf, count, type, op, true);
}

}  // namespace plexus::coll_basic
