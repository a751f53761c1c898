// Bcast. Small messages: binomial tree (ceil(log2 p) steps, each process receives once). Large
// messages: van de Geijn's scatter + allgather: the root scatters p blocks down a binomial tree,
// then a ring allgather completes them; every process moves about 2m bytes instead of the tree's
// m log2 p at the root. Pipeline: up to three chains of small segments, for processes sharing
// few CPUs.
#include <algorithm>
#include <cstdint>

#include "basic_choice.h"
#include "basic_functions.h"
#include "basic_intra.h"
#include "basic_params.h"
#include "basic_tags.h"

namespace plexus::coll_basic {

// The root sends to every process itself: depth 1, so no process waits for a relay to be
// scheduled (what costs most where ranks outnumber cores), at the price of p - 1 sends at the root.
int bcast_linear(const Ctx &c, void *buf, int count, plexus_coll_dtype_t *t, int root) {
    if (c.rank != root) return c.recv(buf, count, t, root);
    RequestBatch reqs(c);
    for (int i = 1; i < c.size; ++i) {
        if (reqs.full()) BASIC_TRY(reqs.wait());
        BASIC_TRY(c.isend(buf, count, t, (root + i) % c.size, reqs.next()));
    }
    return reqs.wait();
}

namespace {

int bcast_binomial(const Ctx &c, void *buf, int count, plexus_coll_dtype_t *t, int root) {
    const int rel = c.relative(root);
    int mask = 1;
    for (; mask < c.size; mask <<= 1) {
        if (rel & mask) {
            BASIC_TRY(c.recv(buf, count, t, c.absolute(rel - mask, root)));
            break;
        }
    }
    // Children: rel + m for the powers of two m below the bit we received on (all, for the root),
    // the largest subtree first.
    RequestBatch reqs(c);
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < c.size) BASIC_TRY(c.isend(buf, count, t, c.absolute(rel + mask, root), reqs.next()));
    return reqs.wait();
}

int scatter_allgather_bytes(const Ctx &c, char *data, int bytes, int root) {
    plexus_coll_dtype_t *byte = c.svc->byte_type;
    const int n = c.size, rel = c.relative(root);
    const Partition p = even_partition(bytes, n);  // block i belongs to relative rank i
    // Scatter: receive my subtree's blocks from my parent, hand each child its subtree's.
    if (rel != 0) {
        const int sub = binomial_subtree_size(rel, n);
        BASIC_TRY(c.recv(data + p.disp[rel], p.span_count(rel, rel + sub), byte,
                         c.absolute(binomial_parent(rel), root)));
    }
    {
        RequestBatch reqs(c);
        const int top = rel == 0 ? pof2_floor(n) : lowest_bit(rel) >> 1;
        for (int m = top; m > 0; m >>= 1) {
            const int child = rel + m;
            if (child >= n) continue;
            const int sub = binomial_subtree_size(child, n);
            BASIC_TRY(c.isend(data + p.disp[child], p.span_count(child, child + sub), byte, c.absolute(child, root),
                              reqs.next()));
        }
        BASIC_TRY(reqs.wait());
    }
    // Ring allgather of the blocks, in relative ranks: in step i pass block rel - i to the right.
    const int right = c.absolute((rel + 1) % n, root), left = c.absolute((rel - 1 + n) % n, root);
    for (int i = 0; i < n - 1; ++i) {
        const int sb = (rel - i + n) % n, rb = (rel - i - 1 + n) % n;
        BASIC_TRY(c.sendrecv(data + p.disp[sb], p.count[sb], byte, right, data + p.disp[rb], p.count[rb], byte, left));
    }
    return 0;
}

// Chains in relative rank order (basic_schedule.h), the message cut into segments of the packed
// bytes: the root passes segment s to the head of every chain, each process passes it on to the
// next of its chain while s + 1 arrives, so that every link copies at once. Receives are posted
// kAhead segments ahead, so that segments land in place instead of in the unexpected queue.
// kFanout chains: where ranks outnumber CPUs, a long chain waits for many processes to be
// scheduled in turn, while the root's sends of small segments return at once (measured in
// README.md, fourth round).
int chain_bytes(const Ctx &c, char *data, int bytes, int root, int segment) {
    constexpr int kAhead = 4, kFanout = 3;
    plexus_coll_dtype_t *byte = c.svc->byte_type;
    const int n = c.size, rel = c.relative(root);
    const int parent_rel = chain_parent(rel, n, kFanout);
    const int parent = parent_rel < 0 ? -1 : c.absolute(parent_rel, root);
    int children[kFanout];
    int nchild = 0;
    if (rel == 0) {
        for (int r = 1; r < n; r += chain_length(n, kFanout)) children[nchild++] = c.absolute(r, root);
    } else if (const int child = chain_child(rel, n, kFanout); child >= 0) {
        children[nchild++] = c.absolute(child, root);
    }
    const int nseg = (bytes + segment - 1) / segment;
    auto len = [&](int s) { return s + 1 < nseg ? segment : bytes - s * segment; };
    auto at = [&](int s) { return data + static_cast<long>(s) * segment; };
    plexus_coll_request_t *recvs[kAhead] = {};
    auto post = [&](int s) {
        return s < nseg && parent >= 0 ? c.irecv(at(s), len(s), byte, parent, &recvs[s % kAhead]) : 0;
    };
    for (int s = 0; s < kAhead; ++s) BASIC_TRY(post(s));
    RequestBatch sends(c);
    for (int s = 0; s < nseg; ++s) {
        if (parent >= 0) {
            BASIC_TRY(c.svc->wait(&recvs[s % kAhead]));
            BASIC_TRY(post(s + kAhead));
        }
        for (int k = 0; k < nchild; ++k) {
            if (sends.full()) BASIC_TRY(sends.wait());
            BASIC_TRY(c.isend(at(s), len(s), byte, children[k], sends.next()));
        }
    }
    return sends.wait();
}

// In bytes of the type signature: processes may describe the message with different datatypes
// (only the signatures must match), so the blocks are cut in the packed bytes; a non-contiguous
// layout is packed into a temporary first (at the root) and unpacked from it at the end.
int bcast_in_bytes(const Ctx &c, void *buf, int count, plexus_coll_dtype_t *t, int root, int chain_segment) {
    Layout l;
    BASIC_TRY(c.layout(t, &l));
    const long total = static_cast<long>(l.size) * count;
    if (total > INT32_MAX) return bcast_binomial(c, buf, count, t, root);  // byte counts are int
    const int bytes = static_cast<int>(total);
    TempBuffer packed;
    char *data = static_cast<char *>(buf) + l.true_lb;
    if (!l.contiguous) {
        if (!packed.allocate_bytes(static_cast<size_t>(bytes))) return PLEXUS_COLL_ERR_NO_MEM;
        data = packed.data();
        if (c.rank == root) BASIC_TRY(c.svc->copy(buf, count, t, data, bytes, c.svc->byte_type));
    }
    BASIC_TRY(chain_segment > 0 ? chain_bytes(c, data, bytes, root, chain_segment)
                                : scatter_allgather_bytes(c, data, bytes, root));
    if (!l.contiguous && c.rank != root) return c.svc->copy(data, bytes, c.svc->byte_type, buf, count, t);
    return 0;
}

}  // namespace

int intra_bcast(plexus_coll_module_t *self, void *buf, int count, plexus_coll_dtype_t *type, int root,
                plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagBcast);
    if (c.size == 1 || count == 0) return 0;
    int algorithm = c.params->bcast_algorithm;
    if (algorithm == kBcastAuto) {
        Layout l;
        BASIC_TRY(c.layout(type, &l));
        algorithm = choose_bcast(*c.params, c.size, static_cast<long>(l.size) * count);
    }
    if (algorithm == kBcastScatterAllgather) return bcast_in_bytes(c, buf, count, type, root, 0);
    if (algorithm == kBcastPipeline) {
        const long segment = std::clamp<long>(c.params->bcast_segment, 1, INT32_MAX);
        return bcast_in_bytes(c, buf, count, type, root, static_cast<int>(segment));
    }
    if (algorithm == kBcastLinear) return bcast_linear(c, buf, count, type, root);
    return bcast_binomial(c, buf, count, type, root);
}

}  // namespace plexus::coll_basic
