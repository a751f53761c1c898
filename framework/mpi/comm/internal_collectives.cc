// Binomial trees and dissemination rounds over the PML with the library's tags. Requests live on
// the stack: every function waits for its operations before it returns.
#include "mpi/comm/internal_collectives.h"

#include <algorithm>
#include <cstring>

#include "mpi/comm/internal_tags.h"
#include "mpi/mpi_state.h"
#include "mpi/request_pool.h"

namespace plexus::mpi::internal {

namespace {

void prepare(Request *r, RequestKind kind, Comm *comm, int peer, int tag, const void *buf, size_t bytes) {
    reset_request(r);
    r->kind = kind;
    r->buf = const_cast<void *>(buf);
    r->bytes = bytes;
    r->peer = peer;
    r->tag = tag;
    r->comm = comm;
}

// The outcome of a finished request: a short receive means the peers disagree on the protocol.
int outcome(const Request &r, size_t expected) {
    if (r.status.error != MPI_SUCCESS) return r.status.error;
    if (r.kind == RequestKind::Recv && r.status.bytes != expected) return MPI_ERR_INTERN;
    return MPI_SUCCESS;
}

int rel(int rank, int root, int size) { return (rank - root + size) % size; }
int abs_rank(int vrank, int root, int size) { return (vrank + root) % size; }

void combine(uint64_t *acc, const uint64_t *in, size_t n, ReduceOp op) {
    for (size_t i = 0; i < n; ++i) acc[i] = op == ReduceOp::Max ? std::max(acc[i], in[i]) : (acc[i] & in[i]);
}

}  // namespace

int send(Comm *comm, int peer, int tag, const void *buf, size_t bytes) {
    MpiState &s = *g_mpi;
    Request r;
    prepare(&r, RequestKind::Send, comm, peer, tag, buf, bytes);
    if (int rc = s.pml().start_send(&r)) return rc;
    s.pml().wait_until([&r] { return r.complete; });
    return outcome(r, bytes);
}

int recv(Comm *comm, int peer, int tag, void *buf, size_t bytes) {
    MpiState &s = *g_mpi;
    Request r;
    prepare(&r, RequestKind::Recv, comm, peer, tag, buf, bytes);
    if (int rc = s.pml().start_recv(&r)) return rc;
    s.pml().wait_until([&r] { return r.complete; });
    return outcome(r, bytes);
}

int sendrecv(Comm *comm, int peer, int tag, const void *out, size_t out_bytes, void *in, size_t in_bytes) {
    return shift(comm, peer, peer, tag, out, out_bytes, in, in_bytes);
}

int shift(Comm *comm, int dest, int source, int tag, const void *out, size_t out_bytes, void *in, size_t in_bytes) {
    MpiState &s = *g_mpi;
    Request rr, sr;
    prepare(&rr, RequestKind::Recv, comm, source, tag, in, in_bytes);
    prepare(&sr, RequestKind::Send, comm, dest, tag, out, out_bytes);
    if (int rc = s.pml().start_recv(&rr)) return rc;
    if (int rc = s.pml().start_send(&sr)) {
        s.pml().cancel(&rr);
        s.pml().wait_until([&rr] { return rr.complete; });
        return rc;
    }
    s.pml().wait_until([&] { return rr.complete && sr.complete; });
    if (int rc = outcome(sr, out_bytes)) return rc;
    return outcome(rr, in_bytes);
}

int bcast(Comm *comm, void *buf, size_t bytes, int root) {
    const int p = comm->size(), vr = rel(comm->rank, root, p);
    int mask = 1;
    for (; mask < p; mask <<= 1) {
        if (vr & mask) {
            if (int rc = recv(comm, abs_rank(vr - mask, root, p), tags::kBcast, buf, bytes)) return rc;
            break;
        }
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vr + mask < p)
            if (int rc = send(comm, abs_rank(vr + mask, root, p), tags::kBcast, buf, bytes)) return rc;
    }
    return MPI_SUCCESS;
}

int bcast_vector(Comm *comm, std::vector<uint32_t> *v, int root) {
    uint64_t n = v->size();
    if (int rc = bcast(comm, &n, sizeof n, root)) return rc;
    v->resize(n);
    return bcast(comm, v->data(), n * sizeof(uint32_t), root);
}

int allgather(Comm *comm, const void *mine, size_t bytes, void *all) {
    // Binomial gather to rank 0 (the subtree of rank r is [r, r + its lowest set bit)), then bcast.
    const int p = comm->size(), me = comm->rank;
    auto *out = static_cast<uint8_t *>(all);
    std::memcpy(out + static_cast<size_t>(me) * bytes, mine, bytes);
    for (int mask = 1; mask < p; mask <<= 1) {
        if (me & mask) {
            const int end = std::min(me + mask, p);
            if (int rc = send(comm, me - mask, tags::kGather, out + static_cast<size_t>(me) * bytes,
                              static_cast<size_t>(end - me) * bytes))
                return rc;
            break;
        }
        const int child = me + mask;
        if (child < p) {
            const int end = std::min(child + mask, p);
            if (int rc = recv(comm, child, tags::kGather, out + static_cast<size_t>(child) * bytes,
                              static_cast<size_t>(end - child) * bytes))
                return rc;
        }
    }
    return bcast(comm, all, static_cast<size_t>(p) * bytes, 0);
}

int allreduce(Comm *comm, uint64_t *values, size_t n, ReduceOp op) {
    // Max and bitwise and are idempotent, so the dissemination pattern works: after round k a
    // rank holds the combination of the 2^(k+1) ranks before it (some twice, which does not
    // matter). ceil(log2 p) rounds, each one send and one receive per rank.
    const int p = comm->size(), me = comm->rank;
    const size_t bytes = n * sizeof(uint64_t);
    std::vector<uint64_t> in(n);
    for (int dist = 1; dist < p; dist <<= 1) {
        if (int rc = shift(comm, (me + dist) % p, (me - dist + p) % p, tags::kReduce, values, bytes, in.data(), bytes))
            return rc;
        combine(values, in.data(), n, op);
    }
    return MPI_SUCCESS;
}

int exchange_vectors(Comm *bridge, int peer, int tag, const std::vector<uint32_t> &out, std::vector<uint32_t> *in) {
    uint64_t mine = out.size(), theirs = 0;
    if (int rc = sendrecv(bridge, peer, tag, &mine, sizeof mine, &theirs, sizeof theirs)) return rc;
    in->resize(theirs);
    return sendrecv(bridge, peer, tag, out.data(), mine * sizeof(uint32_t), in->data(), theirs * sizeof(uint32_t));
}

}  // namespace plexus::mpi::internal
