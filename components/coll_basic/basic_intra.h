// What the intra-communicator algorithms share: the call context (services, communicator, rank,
// size, parameters), error propagation, and the building blocks several collectives use (the
// folded recursive halving / doubling of Rabenseifner, the order-keeping binomial reduce, the
// linear scatterv, the snapshot of an in-place buffer).
#pragma once

#include <plexus/coll.h>

#include "basic_buffer.h"
#include "basic_context.h"
#include "basic_schedule.h"

// Returns the error class of a failed step to the caller.
#define BASIC_TRY(expr)                                            \
    do {                                                           \
        if (const int basic_rc_ = (expr); basic_rc_ != 0) return basic_rc_; \
    } while (0)

namespace plexus::coll_basic {

// One collective call on an intra-communicator.
struct Ctx {
    const plexus_coll_services_t *svc;
    plexus_coll_comm_t *comm;
    const Params *params;
    int rank;
    int size;
    int tag;

    int send(const void *buf, int n, plexus_coll_dtype_t *t, int peer) const {
        return svc->send(buf, n, t, peer, tag, comm);
    }
    int recv(void *buf, int n, plexus_coll_dtype_t *t, int peer) const {
        return svc->recv(buf, n, t, peer, tag, comm);
    }
    int isend(const void *buf, int n, plexus_coll_dtype_t *t, int peer, plexus_coll_request_t **r) const {
        return svc->isend(buf, n, t, peer, tag, comm, r);
    }
    int irecv(void *buf, int n, plexus_coll_dtype_t *t, int peer, plexus_coll_request_t **r) const {
        return svc->irecv(buf, n, t, peer, tag, comm, r);
    }
    int sendrecv(const void *sbuf, int sn, plexus_coll_dtype_t *st, int dst, void *rbuf, int rn,
                 plexus_coll_dtype_t *rt, int src) const {
        return svc->sendrecv(sbuf, sn, st, dst, rbuf, rn, rt, src, tag, comm);
    }
    // A local send/receive of n items of one type.
    int copy(const void *src, void *dst, int n, plexus_coll_dtype_t *t) const {
        return n == 0 ? 0 : svc->copy(src, n, t, dst, n, t);
    }
    int layout(plexus_coll_dtype_t *t, Layout *out) const { return get_layout(svc, t, out); }
    // inout = in op inout, element by element.
    int reduce_local(plexus_coll_op_t *op, const void *in, void *inout, int n, plexus_coll_dtype_t *t) const {
        return n == 0 ? 0 : svc->op_apply(op, in, inout, n, t);
    }
    int relative(int root) const { return (rank - root + size) % size; }
    int absolute(int rel, int root) const { return (rel + root) % size; }
};

Ctx make_ctx(plexus_coll_module_t *self, plexus_coll_comm_t *comm, int tag);

// A requests array completed in batches: coll_basic never has more than kWindow point-to-point
// operations of one call in flight, so that large communicators do not exhaust the request pool.
class RequestBatch {
public:
    static constexpr int kWindow = 32;
    explicit RequestBatch(const Ctx &c) : c_(c) {}
    ~RequestBatch() { (void)wait(); }
    RequestBatch(const RequestBatch &) = delete;
    RequestBatch &operator=(const RequestBatch &) = delete;
    bool full() const { return n_ + 2 > kWindow; }
    // The slot is cleared here, not in the constructor: a start that fails leaves it null, which
    // wait() skips, and clearing all 32 slots up front is a 256-byte `rep stos` on every call.
    plexus_coll_request_t **next() {
        reqs_[n_] = nullptr;
        return &reqs_[n_++];
    }
    int wait() {
        const int n = n_;
        n_ = 0;
        return n ? c_.svc->waitall(n, reqs_) : 0;
    }

private:
    const Ctx &c_;
    plexus_coll_request_t *reqs_[kWindow];
    int n_ = 0;
};

// Every exchange of the pairwise schedule posted without waiting for the one before: step i
// (1 .. p - 1) sends to rank + i and receives from rank - i. Batches of RequestBatch's window go
// by step number, the same at every process, so a batch waits only for what the peers post in
// their batch of the same number. post(dst, src, reqs) posts one step's operations (at most two).
template <class Post>
int post_pairwise(const Ctx &c, Post &&post) {
    constexpr int kStepsPerBatch = RequestBatch::kWindow / 2;
    RequestBatch reqs(c);
    for (int i = 1; i < c.size; ++i) {
        if (i > 1 && (i - 1) % kStepsPerBatch == 0) BASIC_TRY(reqs.wait());
        BASIC_TRY(post((c.rank + i) % c.size, (c.rank - i + c.size) % c.size, reqs));
    }
    return reqs.wait();
}

// ---- folded recursive halving / doubling (intra_halving.cc); commutative operations ----

// The ranks below 2 * rem fold in pairs: the even one sends its input (count items) to the odd
// one, which reduces it with its own into acc. In place (input == acc) the even rank's data is on
// the left, which keeps the order of non-commutative operations; otherwise the received vector
// lands in acc and the input is combined into it (input first: commutative operations only).
// Returns the new rank in *new_rank (-1 for the even ranks, which sit out until unfold).
int fold_in(const Ctx &c, const Fold &f, const void *input, void *acc, void *tmp, int count,
            plexus_coll_dtype_t *t, plexus_coll_op_t *op, int *new_rank);
// The fold (as fold_in) and the recursive halving over the blocks of p (one per new rank), reading
// this process's vector where it is: afterwards new rank nr (*new_rank; -1 for the ranks that sat
// out) holds the reduction of block nr in acc, at its place in the whole vector. acc is input
// (in place) or a buffer of count items, written only where the result needs it: the input is
// never copied into it whole. tmp holds p's whole span.
int fold_and_halve(const Ctx &c, const Fold &f, const Partition &p, const Layout &l, int count, const char *input,
                   char *acc, char *tmp, plexus_coll_op_t *op, int *new_rank);
// Recursive doubling allgather of the blocks of p in acc: from each new rank holding its own
// block to all of them holding every block.
int doubling_allgather(const Ctx &c, const Fold &f, int nr, const Partition &p, const Layout &l, char *acc);

// ---- the direct reduce-scatter (intra_direct.cc); any operation, rank order kept ----

// Every process receives its block of p (one block per rank) of every other process's input at
// once and combines them in rank order into out (p.count[rank] items; out may be its own block of
// input). Allreduce completes it with allgather_linear, Reduce with gather_linear, over p's blocks.
int reduce_scatter_direct(const Ctx &c, const void *input, const Partition &p, const Layout &l, char *out,
                          plexus_coll_op_t *op);

// ---- shared by several collectives ----

// Binomial-tree reduce of input into result at root (intra_reduce.cc). Non-commutative operations
// reduce in rank order (tree rooted at rank 0, the result sent on to root). result is only
// written at root.
int reduce_binomial(const Ctx &c, const void *input, void *result, int count, plexus_coll_dtype_t *t,
                    plexus_coll_op_t *op, int root);
// The same reduction in segments of `segment` items (intra_reduce_pipeline.cc): children's
// segments are combined and sent up while the next ones arrive. reduce_binomial uses it for
// vectors of at least two segments of coll_basic_reduce_segment_bytes.
int reduce_binomial_segmented(const Ctx &c, const void *input, void *result, int count, plexus_coll_dtype_t *t,
                              plexus_coll_op_t *op, int root, int segment);
// Linear reduce (intra_reduce.cc): every process sends to root, which combines in rank order.
int reduce_linear(const Ctx &c, const void *input, void *result, int count, plexus_coll_dtype_t *t,
                  plexus_coll_op_t *op, int root);
// Linear allgather(v) (intra_allgather.cc): every process sends its block (counts[rank] items of
// l.type at displs[rank] of recvbuf) to every other one at once, and receives theirs in place.
int allgather_linear(const Ctx &c, char *recvbuf, const int counts[], const int displs[], const Layout &l);
// Linear gather(v) (intra_gather.cc): root receives counts[i] items at displs[i] (in items of
// recvtype) from every other process; sendbuf PLEXUS_COLL_IN_PLACE at root leaves its block
// where it is. A process with nothing to send (no bytes, carries_data) must not call it: the
// root posts no receive for an empty block.
int gather_linear(const Ctx &c, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                  void *recvbuf, const int counts[], const int displs[], plexus_coll_dtype_t *recvtype, int root);
// Linear bcast (intra_bcast.cc): root sends to every process.
int bcast_linear(const Ctx &c, void *buf, int count, plexus_coll_dtype_t *t, int root);
// Linear scatterv from root (intra_scatter.cc); recvbuf PLEXUS_COLL_IN_PLACE at root leaves its
// block where it is.
int scatterv_linear(const Ctx &c, const void *sendbuf, const int sendcounts[], const int displs[],
                    plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype,
                    int root);

// The bytes [lo, hi) of buf a set of blocks covers, copied aside, so that an in-place call can
// read what it overwrites: *view is the copy's address for buf.
class Snapshot {
public:
    // blocks: address offset (bytes from buf) and layout/count of each; only count > 0 counts.
    void cover(ptrdiff_t offset, const Layout &l, long count) {
        if (count <= 0) return;
        const ptrdiff_t lo = offset + l.true_lb, hi = lo + static_cast<ptrdiff_t>(l.span(count));
        if (empty_ || lo < lo_) lo_ = lo;
        if (empty_ || hi > hi_) hi_ = hi;
        empty_ = false;
    }
    // false when out of memory.
    bool take(const void *buf, const char **view);

private:
    TempBuffer copy_;
    ptrdiff_t lo_ = 0, hi_ = 0;
    bool empty_ = true;
};

}  // namespace plexus::coll_basic
