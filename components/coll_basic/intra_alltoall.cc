// Alltoall. Small blocks: Bruck's algorithm, ceil(log2 p) rounds in which every process forwards
// the blocks whose distance has the round's bit set (each block travels its distance in binary),
// packed into one message per round; latency log2 p instead of p - 1. Large blocks: pairwise
// exchange, p - 1 steps of one sendrecv with rank + i / rank - i, every byte moved once.
// MPI_IN_PLACE: the blocks to send are read from a copy of recvbuf taken first. Otherwise the
// process's own block is copied while the first exchange is in flight (Bruck moves it with the
// rest): copied first, it delayed every peer's first block by the copy (2 ranks, 8 B-1 KB blocks:
// 0.18-0.26 us before, 0.17-0.23 after).
#include <vector>

#include "basic_choice.h"
#include "basic_functions.h"
#include "basic_intra.h"
#include "basic_params.h"
#include "basic_tags.h"

namespace plexus::coll_basic {
namespace {

struct Blocks {
    const char *buf;
    int count;
    plexus_coll_dtype_t *type;
    Layout l;
    const char *at(int i) const { return l.at(buf, static_cast<long>(i) * count); }
};

// Copies the process's own block into recvbuf.
int copy_own(const Ctx &c, const Blocks &s, char *recvbuf, int rc, const Layout &rl) {
    return c.svc->copy(s.at(c.rank), s.count, s.type, rl.at(recvbuf, static_cast<long>(c.rank) * rc), rc, rl.type);
}

// One exchange with the own block copied while it is in flight.
int exchange_copying_own(const Ctx &c, const Blocks &s, int dst, int src, char *recvbuf, int rc, const Layout &rl) {
    RequestBatch reqs(c);
    BASIC_TRY(c.irecv(rl.at(recvbuf, static_cast<long>(src) * rc), rc, rl.type, src, reqs.next()));
    BASIC_TRY(c.isend(s.at(dst), s.count, s.type, dst, reqs.next()));
    BASIC_TRY(copy_own(c, s, recvbuf, rc, rl));
    return reqs.wait();
}

// own_pending: the own block is still to be copied, during the first step.
int alltoall_pairwise(const Ctx &c, const Blocks &s, char *recvbuf, int rc, const Layout &rl, bool own_pending) {
    const int n = c.size, r = c.rank;
    for (int i = 1; i < n; ++i) {
        const int dst = (r + i) % n, src = (r - i + n) % n;
        if (i == 1 && own_pending) {
            BASIC_TRY(exchange_copying_own(c, s, dst, src, recvbuf, rc, rl));
            continue;
        }
        BASIC_TRY(c.sendrecv(s.at(dst), s.count, s.type, dst, rl.at(recvbuf, static_cast<long>(src) * rc), rc,
                             rl.type, src));
    }
    return 0;
}

// Every exchange posted at once (in batches of RequestBatch's window, by step number as in
// Alltoallv): no step waits for the one before, so a process that is not running holds up only
// the messages to and from itself. What wins where ranks outnumber cores.
int alltoall_linear(const Ctx &c, const Blocks &s, char *recvbuf, int rc, const Layout &rl, bool own_pending) {
    return post_pairwise(c, [&](int dst, int src, RequestBatch &reqs) {
        BASIC_TRY(c.irecv(rl.at(recvbuf, static_cast<long>(src) * rc), rc, rl.type, src, reqs.next()));
        BASIC_TRY(c.isend(s.at(dst), s.count, s.type, dst, reqs.next()));
        if (!own_pending) return 0;
        own_pending = false;
        return copy_own(c, s, recvbuf, rc, rl);
    });
}

int alltoall_bruck(const Ctx &c, const Blocks &s, char *recvbuf, int rc, const Layout &rl) {
    const int n = c.size, r = c.rank;
    const long block = rc;
    TempBuffer slots_buf, out_buf, in_buf;
    if (!slots_buf.allocate(rl, n * block) || !out_buf.allocate(rl, (n / 2 + 1) * block) ||
        !in_buf.allocate(rl, (n / 2 + 1) * block))
        return PLEXUS_COLL_ERR_NO_MEM;
    char *slots = slots_buf.data();
    // Slot i starts with my block for rank + i.
    for (int i = 0; i < n; ++i)
        BASIC_TRY(c.svc->copy(s.at(bruck_send_slot_peer(r, i, n)), s.count, s.type, rl.at(slots, i * block), rc,
                              rl.type));
    for (int bit = 0; (1 << bit) < n; ++bit) {
        const std::vector<int> moved = bruck_round_slots(n, bit);
        const int m = static_cast<int>(moved.size());
        for (int k = 0; k < m; ++k)
            BASIC_TRY(c.copy(rl.at(slots, moved[k] * block), rl.at(out_buf.data(), k * block), rc, rl.type));
        BASIC_TRY(c.sendrecv(out_buf.data(), m * rc, rl.type, (r + (1 << bit)) % n, in_buf.data(), m * rc, rl.type,
                             (r - (1 << bit) + n) % n));
        for (int k = 0; k < m; ++k)
            BASIC_TRY(c.copy(rl.at(in_buf.data(), k * block), rl.at(slots, moved[k] * block), rc, rl.type));
    }
    // Slot i now holds the block from rank - i.
    for (int i = 0; i < n; ++i)
        BASIC_TRY(c.copy(rl.at(slots, i * block), rl.at(recvbuf, bruck_recv_slot_source(r, i, n) * block), rc,
                         rl.type));
    return 0;
}

}  // namespace

int intra_alltoall(plexus_coll_module_t *self, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                   void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagAlltoall);
    Layout rl;
    BASIC_TRY(c.layout(recvtype, &rl));
    // By bytes, not count: another process may give the same empty blocks as 1 of a zero-size type.
    if (!carries_data(rl, recvcount)) return 0;
    char *out = static_cast<char *>(recvbuf);
    Snapshot snapshot;
    Blocks s{static_cast<const char *>(sendbuf), sendcount, sendtype, {}};
    if (sendbuf == PLEXUS_COLL_IN_PLACE) {
        snapshot.cover(0, rl, static_cast<long>(c.size) * recvcount);
        if (!snapshot.take(recvbuf, &s.buf)) return PLEXUS_COLL_ERR_NO_MEM;
        s.count = recvcount;
        s.type = recvtype;
    }
    if (s.type == recvtype)
        s.l = rl;
    else
        BASIC_TRY(c.layout(s.type, &s.l));
    const bool own_pending = sendbuf != PLEXUS_COLL_IN_PLACE;
    if (c.size == 1) return own_pending ? copy_own(c, s, out, recvcount, rl) : 0;
    int algorithm = c.params->alltoall_algorithm;
    if (algorithm == kAlltoallAuto) {
        algorithm = choose_alltoall(*c.params, c.size, static_cast<long>(rl.size) * recvcount);
    }
    // Bruck moves the own block with the others (slot 0).
    if (algorithm == kAlltoallBruck) return alltoall_bruck(c, s, out, recvcount, rl);
    if (algorithm == kAlltoallLinear) return alltoall_linear(c, s, out, recvcount, rl, own_pending);
    return alltoall_pairwise(c, s, out, recvcount, rl, own_pending);
}

}  // namespace plexus::coll_basic
