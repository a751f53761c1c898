// The receive side: match messages put back in sequence per sender, matched against posted
// receives in posting order, or kept as unexpected until a receive (or probe) wants them.
#include <algorithm>
#include <cstring>

#include "mpi/pml/pml_impl.h"
#include "mpi/pml/pml_typed.h"

namespace plexus::mpi {

namespace {

wire::MatchHeader match_of(const void *data) {
    wire::MatchHeader h;
    std::memcpy(&h, data, sizeof h);
    return h;
}

size_t header_size(uint8_t kind) {
    switch (kind) {
    case wire::kEagerSync: return sizeof(wire::SyncHeader);
    case wire::kRts: return sizeof(wire::RtsHeader);
    default: return sizeof(wire::MatchHeader);
    }
}

}  // namespace

ContextQueues &Pml::Impl::context(uint32_t id) {
    if (id >= contexts.size()) contexts.resize(std::max<size_t>(id + 1, contexts.size() * 2));
    if (!contexts[id]) contexts[id] = std::make_unique<ContextQueues>();
    return *contexts[id];
}

Unexpected *Pml::Impl::new_unexpected() {
    if (unexpected_pool.empty()) return new Unexpected();
    Unexpected *u = unexpected_pool.back();
    unexpected_pool.pop_back();
    return u;
}

void Pml::Impl::recycle(Unexpected *u) {
    // Keep small buffers for reuse; give big ones back, so one large burst does not pin memory.
    if (u->data.capacity() > (64u << 10)) std::vector<uint8_t>().swap(u->data);
    u->data.clear();
    unexpected_pool.push_back(u);
}

int Pml::Impl::start_recv(Request *r) {
    r->complete = false;
    r->status = {};
    r->pml = {};
    ContextQueues &q = *static_cast<ContextQueues *>(r->comm->pml);
    if (Unexpected *u = q.take_or_post(r)) {
        consume(r, u);
        return MPI_SUCCESS;
    }
    r->pml.queued = true;
    r->pml.state = kRecvPosted;
    return MPI_SUCCESS;
}

void Pml::Impl::on_match_message(uint8_t tag, uint32_t proc, const void *data, size_t len) {
    if (len < header_size(tag) || proc >= procs.size()) return;  // not from a Plexus PML
    if (proc >= peers.size()) peers.resize(procs.size());
    PeerState &p = peers[proc];
    const uint32_t seq = match_of(data).seq;
    if (seq != p.recv_seq) {
        // A fast channel overtook the default path: hold it until its turn.
        const auto *bytes = static_cast<const uint8_t *>(data);
        p.stash.emplace(seq, Stashed{tag, std::vector<uint8_t>(bytes, bytes + len)});
        return;
    }
    ++p.recv_seq;
    deliver(tag, proc, data, len);
    while (!p.stash.empty()) {
        auto it = p.stash.find(p.recv_seq);
        if (it == p.stash.end()) break;
        Stashed s = std::move(it->second);
        p.stash.erase(it);
        ++p.recv_seq;
        deliver(s.tag, proc, s.bytes.data(), s.bytes.size());
    }
}

void Pml::Impl::deliver(uint8_t tag, uint32_t proc, const void *data, size_t len) {
    const wire::MatchHeader h = match_of(data);
    if (h.source < 0) return;  // not from a Plexus PML
    // A message its sender cancelled before it got here, or the place of one cancelled before
    // it left: it has had its turn in the sequence, and nothing matches it.
    if (tag == wire::kSkip || drop_if_cancelled(peers[proc], h.seq)) return;
    ContextQueues &q = context(h.context);
    if (Request *r = q.match(h.source, h.tag)) {
        r->pml.queued = false;
        if (tag == wire::kRts) {
            wire::RtsHeader rts;
            std::memcpy(&rts, data, sizeof rts);
            start_rndv_recv(r, proc, rts);
            return;
        }
        uint64_t cookie = 0;
        if (tag == wire::kEagerSync) {
            wire::SyncHeader s;
            std::memcpy(&s, data, sizeof s);
            cookie = s.send_cookie;
        }
        const size_t hs = header_size(tag);
        complete_eager(r, tag, proc, h, cookie, static_cast<const uint8_t *>(data) + hs, len - hs);
        return;
    }
    Unexpected *u = new_unexpected();
    u->kind = tag;
    u->proc = proc;
    u->seq = h.seq;
    u->source = h.source;
    u->tag = h.tag;
    if (tag == wire::kRts) {
        wire::RtsHeader rts;
        std::memcpy(&rts, data, sizeof rts);
        u->bytes = rts.bytes;
        u->send_cookie = rts.send_cookie;
        u->addr = rts.addr;
        u->handle = rts.handle;
    } else {
        if (tag == wire::kEagerSync) {
            wire::SyncHeader s;
            std::memcpy(&s, data, sizeof s);
            u->send_cookie = s.send_cookie;
        }
        const size_t hs = header_size(tag);
        const auto *payload = static_cast<const uint8_t *>(data) + hs;
        u->data.assign(payload, payload + (len - hs));
        u->bytes = len - hs;
    }
    q.keep(u);
}

void Pml::Impl::consume(Request *r, Unexpected *u) {
    if (u->kind == wire::kRts) {
        wire::RtsHeader rts{};
        rts.match = {0, u->source, u->tag, 0};
        rts.bytes = u->bytes;
        rts.send_cookie = u->send_cookie;
        rts.addr = u->addr;
        rts.handle = u->handle;
        start_rndv_recv(r, u->proc, rts);
    } else {
        wire::MatchHeader h{0, u->source, u->tag, 0};
        complete_eager(r, u->kind, u->proc, h, u->send_cookie, u->data.data(), u->data.size());
    }
    recycle(u);
}

void Pml::Impl::complete_eager(Request *r, uint8_t kind, uint32_t proc, const wire::MatchHeader &h, uint64_t cookie,
                               const void *payload, size_t len) {
    const size_t n = std::min(len, r->bytes);
    receive_bytes(r, 0, payload, n);
    r->status.source = h.source;
    r->status.tag = h.tag;
    r->status.bytes = len;  // what was sent; the MPI layer reports at most the buffer
    r->status.error = n < len ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    if (kind == wire::kEagerSync) {
        wire::CookieHeader ack{cookie};
        send_control(proc, wire::kAck, &ack, sizeof ack);
    }
    complete(r);
}

}  // namespace plexus::mpi
