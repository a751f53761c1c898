// The send side: eager messages below the BTL's limit, a request-to-send above it, synchronous
// acknowledgements, and the fragments that follow a clear-to-send.
#include <algorithm>
#include <cstring>

#include "mpi/pml/pml_impl.h"
#include "mpi/pml/pml_typed.h"

namespace plexus::mpi {

namespace {

Request *from_cookie(uint64_t cookie) { return reinterpret_cast<Request *>(static_cast<uintptr_t>(cookie)); }
uint64_t cookie_of(Request *r) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(r)); }

wire::MatchHeader match_header(const Request *r) {
    return {r->comm->context_id, r->comm->rank, r->tag, r->pml.seq};
}

}  // namespace

// A send is complete once its last bytes have left this process: a BTL that queues (btl_tcp while
// it connects, or behind a full socket) says so by pending_to, and the send waits in the flushing
// list, completed by progress. So MPI_Send returns, and MPI_Wait completes an MPI_Isend, only
// when the message no longer needs this process to make another MPI call, as MPICH and Open MPI
// do over TCP, while the send call itself never waits for the peer.
void Pml::Impl::finish_send(Request *r) {
    if (r->pml.staging) drop_staging(r);
    r->status.error = MPI_SUCCESS;
    r->status.bytes = r->bytes;
    if (!flushed(r)) {
        r->pml.state = kSendFlushing;
        flushing.push_back(r);
        r->pml.queued = true;
        return;
    }
    retire_send(r);
}

// The send's bytes are out: it completes, unless a cancel is under way (then the receiver's
// answer completes it, pml_cancel.cc).
void Pml::Impl::retire_send(Request *r) {
    r->pml.state = kSendNew;
    if (!r->pml.cancel_asked) complete(r);
}

// Whether the BTL to r's peer holds nothing more for it (a BTL older than 1.4, or without
// pending_to, never does).
bool Pml::Impl::flushed(const Request *r) {
    const PeerState &p = peers[r->pml.proc];
    if (!p.bml) return true;  // the peer is gone (disconnected): nothing will leave any more
    plexus_btl_module_t *btl = p.bml->send.btl;
    return !PLEXUS_BTL_HAS_PENDING_TO(btl) || btl->pending_to(btl, p.bml->send.ep) == 0;
}

int Pml::Impl::start_send(Request *r) {
    r->complete = false;
    r->status = {};
    r->pml = {};
    const uint32_t proc = r->comm->remote_procs[static_cast<size_t>(r->peer)];
    BmlPeer *bp = bml_peer(proc);
    if (!bp) return MPI_ERR_OTHER;  // unreachable peers were reported when the job started
    PeerState &p = peers[proc];
    r->pml.proc = proc;
    r->pml.seq = p.send_seq++;
    // Behind earlier sends that are waiting for resources, so that they keep their order.
    if (p.blocked.empty() && try_send(r, p)) return MPI_SUCCESS;
    if (p.blocked.empty()) blocked_peers.push_back(proc);
    p.blocked.push_back(r);
    r->pml.queued = true;
    r->pml.state = kSendBlocked;
    return MPI_SUCCESS;
}

bool Pml::Impl::try_send(Request *r, PeerState &p) {
    const size_t limit = p.bml->send.btl->eager_limit;
    const size_t hdr = r->mode == SendMode::Synchronous ? sizeof(wire::SyncHeader) : sizeof(wire::MatchHeader);
    if (r->bytes + hdr <= limit) return send_eager(r, p);
    return send_rts(r, p);
}

bool Pml::Impl::send_eager(Request *r, PeerState &p) {
    plexus_btl_module_t *btl = p.bml->send.btl;
    if (r->mode == SendMode::Synchronous) {
        wire::SyncHeader h{match_header(r), cookie_of(r)};
        if (send_payload(btl, p.bml->send.ep, wire::kEagerSync, &h, sizeof h, r, 0, r->bytes) != PLEXUS_SUCCESS)
            return false;
        r->pml.state = kSendWaitAck;  // completes when the receiver matches
        return true;
    }
    wire::MatchHeader h = match_header(r);
    if (send_payload(btl, p.bml->send.ep, wire::kEager, &h, sizeof h, r, 0, r->bytes) != PLEXUS_SUCCESS) return false;
    finish_send(r);
    return true;
}

bool Pml::Impl::send_rts(Request *r, PeerState &p) {
    wire::RtsHeader h{};
    h.match = match_header(r);
    h.bytes = r->bytes;
    h.send_cookie = cookie_of(r);
    const BtlPath &rdma = p.bml->rdma;
    plexus_btl_module_t *btl = p.bml->send.btl;
    // A typed send goes by fragments packed one at a time (no get: its data has no one address),
    // unless its BTL cannot pack: then it is packed once, and the copy is offered like any buffer.
    if (r->typed && !r->pml.staging && !PLEXUS_BTL_HAS_SEND_PACK(btl) && !stage_payload(r, 0)) return false;
    if (rdma.btl && PLEXUS_BTL_RDMA_PAYS(rdma.btl, r->bytes) && !r->pml.rdma && payload_contiguous(r)) {
        auto reg = std::make_unique<RdmaRegistration>();
        reg->btl = rdma.btl;
        if (rdma.btl->register_mem(rdma.btl, const_cast<uint8_t *>(contiguous_payload(r)), r->bytes, &reg->handle) ==
            PLEXUS_SUCCESS)
            r->pml.rdma = reg.release();
    }
    if (auto *reg = static_cast<RdmaRegistration *>(r->pml.rdma)) {
        h.addr = reinterpret_cast<uintptr_t>(contiguous_payload(r));
        h.handle = reg->handle;
    }
    if (btl->send(btl, p.bml->send.ep, wire::kRts, &h, sizeof h, nullptr, 0) != PLEXUS_SUCCESS) return false;
    r->pml.state = kSendWaitRndv;
    return true;
}

void Pml::Impl::on_ack(uint64_t cookie) {
    Request *r = from_cookie(cookie);
    if (r->pml.state == kSendWaitAck) finish_send(r);
}

void Pml::Impl::on_fin(uint64_t cookie) {
    Request *r = from_cookie(cookie);
    if (r->pml.state != kSendWaitRndv) return;
    if (auto *reg = static_cast<RdmaRegistration *>(r->pml.rdma)) {
        reg->btl->deregister_mem(reg->btl, &reg->handle);
        delete reg;
        r->pml.rdma = nullptr;
    }
    finish_send(r);
}

void Pml::Impl::on_cts(const wire::CtsHeader &h) {
    Request *r = from_cookie(h.send_cookie);
    if (r->pml.state != kSendWaitRndv) return;
    if (auto *reg = static_cast<RdmaRegistration *>(r->pml.rdma)) {
        // The receiver chose fragments after all (no single copy to us from there).
        reg->btl->deregister_mem(reg->btl, &reg->handle);
        delete reg;
        r->pml.rdma = nullptr;
    }
    r->pml.peer_cookie = h.recv_cookie;
    r->pml.offset = 0;
    r->pml.target = std::min<uint64_t>(h.bytes, r->bytes);  // what the receiver takes
    r->pml.state = kSendStreaming;
    if (h.addr) r->pml.rdma = new PutTarget{h.handle, h.addr, this};
    if (!stream_fragments(r) || r->pml.state == kSendStreaming) {
        streaming.push_back(r);
        r->pml.queued = true;
    }
}

// Sends fragments until done or the BTL is full; true when at least one went out (or the rest
// went by put, pml_put_rest.cc).
bool Pml::Impl::stream_fragments(Request *r) {
    auto *put = static_cast<PutTarget *>(r->pml.rdma);
    if (put && put->switched) return put_rest(r);
    BmlPeer *bp = bml_peer(r->pml.proc);
    plexus_btl_module_t *btl = bp->send.btl;
    const size_t chunk = btl->max_send_size - sizeof(wire::FragHeader);
    const size_t total = r->pml.target;
    bool sent = false;
    while (r->pml.offset < total) {
        const size_t n = std::min(chunk, total - r->pml.offset);
        wire::FragHeader h{r->pml.peer_cookie, r->pml.offset};
        if (send_payload(btl, bp->send.ep, wire::kFrag, &h, sizeof h, r, r->pml.offset, n) != PLEXUS_SUCCESS) {
            if (!put || !receiver_stalled(r, *bp)) return sent;
            put->switched = true;
            return put_rest(r) || sent;
        }
        r->pml.offset += n;
        sent = true;
    }
    finish_streaming(r);
    return true;
}

void Pml::Impl::finish_streaming(Request *r) {
    if (r->pml.queued) {
        streaming.remove(r);
        r->pml.queued = false;
    }
    delete static_cast<PutTarget *>(r->pml.rdma);
    r->pml.rdma = nullptr;
    finish_send(r);
}

}  // namespace plexus::mpi
