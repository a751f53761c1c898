// The PML's life cycle, communicators, probes, cancellation, control messages and progress.
#include "mpi/pml/pml.h"

#include <algorithm>
#include <cstring>

#include "mca/mca_core.h"
#include "base/output.h"
#include "mca/selection.h"
#include "mpi/pml/pml_impl.h"

namespace plexus::mpi {

namespace {

// BTL callbacks: copy the header out (the bytes may be unaligned) and hand on.
template <class H>
H header_of(const plexus_btl_recv_desc_t *m) {
    H h;
    std::memcpy(&h, m->data, sizeof h);
    return h;
}

void on_match(void *ctx, const plexus_btl_recv_desc_t *m) {
    static_cast<Pml::Impl *>(ctx)->on_match_message(m->tag, m->src, m->data, m->len);
}
void on_cts(void *ctx, const plexus_btl_recv_desc_t *m) {
    if (m->len >= sizeof(wire::CtsHeader)) static_cast<Pml::Impl *>(ctx)->on_cts(header_of<wire::CtsHeader>(m));
}
void on_frag(void *ctx, const plexus_btl_recv_desc_t *m) {
    if (m->len < sizeof(wire::FragHeader)) return;
    const auto *bytes = static_cast<const uint8_t *>(m->data);
    static_cast<Pml::Impl *>(ctx)->on_frag(header_of<wire::FragHeader>(m), bytes + sizeof(wire::FragHeader),
                                           m->len - sizeof(wire::FragHeader));
}
void on_fin(void *ctx, const plexus_btl_recv_desc_t *m) {
    if (m->len >= sizeof(wire::CookieHeader)) static_cast<Pml::Impl *>(ctx)->on_fin(header_of<wire::CookieHeader>(m).cookie);
}
void on_put_done(void *ctx, const plexus_btl_recv_desc_t *m) {
    if (m->len >= sizeof(wire::PutDoneHeader))
        static_cast<Pml::Impl *>(ctx)->on_put_done(header_of<wire::PutDoneHeader>(m));
}
void on_ack(void *ctx, const plexus_btl_recv_desc_t *m) {
    if (m->len >= sizeof(wire::CookieHeader)) static_cast<Pml::Impl *>(ctx)->on_ack(header_of<wire::CookieHeader>(m).cookie);
}
void on_cancel(void *ctx, const plexus_btl_recv_desc_t *m) {
    if (m->len >= sizeof(wire::CancelHeader))
        static_cast<Pml::Impl *>(ctx)->on_cancel(m->src, header_of<wire::CancelHeader>(m));
}
void on_cancel_answer(void *ctx, const plexus_btl_recv_desc_t *m) {
    if (m->len >= sizeof(wire::CancelAnswerHeader))
        static_cast<Pml::Impl *>(ctx)->on_cancel_answer(header_of<wire::CancelAnswerHeader>(m));
}

int progress_cb(void *ctx) { return static_cast<Pml::Impl *>(ctx)->progress(); }

std::vector<plexus_btl_module_t *> selected_btls(mca::McaCore &core, std::string *why) {
    mca::Selection sel = core.select("btl", nullptr);
    std::vector<plexus_btl_module_t *> modules;
    for (size_t i : sel.selected) modules.push_back(static_cast<plexus_btl_module_t *>(sel.at(i).module));
    for (const auto &d : sel.decisions) {
        if (!d.selected && d.component)
            *why += "\n  " + d.component->name + ": " + (d.reason.empty() ? "not selected" : d.reason);
    }
    for (const auto &e : sel.errors) *why += "\n  " + e;
    return modules;
}

}  // namespace

Pml::Impl::Impl(ProcTable &p, std::unique_ptr<Bml> b) : procs(p), bml(std::move(b)), peers(p.size()) {}

Pml::Pml() = default;

Pml::~Pml() {
    if (!impl_) return;
    engine_->remove(progress_cb, impl_.get());
    for (uint8_t tag : {wire::kEager, wire::kEagerSync, wire::kRts, wire::kCts, wire::kFrag, wire::kFin, wire::kAck,
                        wire::kPutDone, wire::kCancel, wire::kCancelAnswer, wire::kSkip})
        impl_->bml->register_recv(tag, nullptr, nullptr);
    for (auto *u : impl_->unexpected_pool) delete u;
    for (auto &ctx : impl_->contexts) {
        if (!ctx) continue;
        while (Unexpected *u = ctx->pop_unexpected()) delete u;
    }
}

runtime::Status Pml::create(mca::McaCore &core, ProcTable &procs, std::unique_ptr<Pml> *out) {
    std::string why;
    auto bml = std::make_unique<Bml>(selected_btls(core, &why), procs);
    if (bml->modules().empty())
        return runtime::Status::error(PLEXUS_ERR_NOT_AVAILABLE, "no usable btl component:" + (why.empty() ? std::string(" none found") : why));
    if (auto s = bml->add_procs(0, static_cast<uint32_t>(procs.size())); !s) return s;

    *out = create(std::move(bml), core.progress(), procs);
    return runtime::Status::ok();
}

std::unique_ptr<Pml> Pml::create(std::unique_ptr<Bml> bml, runtime::ProgressEngine &engine, ProcTable &procs) {
    std::unique_ptr<Pml> pml(new Pml());
    pml->engine_ = &engine;
    pml->impl_ = std::make_unique<Impl>(procs, std::move(bml));
    Impl *impl = pml->impl_.get();
    impl->bml->register_recv(wire::kEager, on_match, impl);
    impl->bml->register_recv(wire::kEagerSync, on_match, impl);
    impl->bml->register_recv(wire::kRts, on_match, impl);
    impl->bml->register_recv(wire::kCts, plexus::mpi::on_cts, impl);
    impl->bml->register_recv(wire::kFrag, plexus::mpi::on_frag, impl);
    impl->bml->register_recv(wire::kFin, plexus::mpi::on_fin, impl);
    impl->bml->register_recv(wire::kAck, plexus::mpi::on_ack, impl);
    impl->bml->register_recv(wire::kPutDone, plexus::mpi::on_put_done, impl);
    impl->bml->register_recv(wire::kCancel, plexus::mpi::on_cancel, impl);
    impl->bml->register_recv(wire::kCancelAnswer, plexus::mpi::on_cancel_answer, impl);
    impl->bml->register_recv(wire::kSkip, on_match, impl);
    engine.add(progress_cb, impl);
    return pml;
}

Bml &Pml::bml() { return *impl_->bml; }

void Pml::add_comm(Comm *comm) {
    ContextQueues &q = impl_->context(comm->context_id);
    q.comm = comm;
    comm->pml = &q;
}

void Pml::remove_comm(Comm *comm) {
    ContextQueues &q = impl_->context(comm->context_id);
    // Messages nobody received are dropped with the communicator, as MPI leaves them undefined;
    // say so, because it usually means a missing receive.
    size_t dropped = 0;
    while (Unexpected *u = q.pop_unexpected()) {
        impl_->recycle(u);
        ++dropped;
    }
    if (dropped)
        mca::emit(PLEXUS_LOG_WARN, "pml", std::to_string(dropped) + " message(s) never received on communicator '" +
                                             comm->name + "' were discarded when it was freed");
    q.comm = nullptr;
    comm->pml = nullptr;
}

int Pml::start_send(Request *req) { return impl_->start_send(req); }
int Pml::start_recv(Request *req) { return impl_->start_recv(req); }

int Pml::iprobe(int source, int tag, Comm *comm, bool *found, ProbeResult *out) {
    ContextQueues &q = impl_->context(comm->context_id);
    Unexpected *u = q.peek(source, tag);
    *found = u != nullptr;
    if (u && out) *out = {u->source, u->tag, static_cast<size_t>(u->bytes)};
    return MPI_SUCCESS;
}

bool Pml::cancel(Request *req) {
    if (req->complete || req->kind != RequestKind::Recv || req->pml.state != kRecvPosted || !req->pml.queued) return false;
    auto *q = static_cast<ContextQueues *>(req->comm->pml);
    if (!q->unpost(req)) return false;
    req->pml.queued = false;
    req->status.cancelled = true;
    req->status.bytes = 0;
    Impl::complete(req);
    return true;
}

void Pml::cancel_send(Request *req, Request *follower) { impl_->cancel_send(req, follower); }

void Pml::drain() {
    // Bounded: when a peer has stopped polling (it is in the final fence already) and we are out
    // of BTL resources toward it, nothing will change; ending the job beats hanging it.
    constexpr auto kPatience = std::chrono::seconds(30);
    if (engine_->wait_until([this] { return impl_->idle(); }, kPatience) != PLEXUS_SUCCESS)
        mca::emit(PLEXUS_LOG_WARN, "pml",
                  "MPI_Finalize: " + std::to_string(impl_->controls.size()) + " control message(s) and " +
                      std::to_string(impl_->blocked_peers.size()) +
                      " peer(s) with blocked sends could not be delivered in 30 s; finalizing anyway");
}

void Pml::forget_peer(uint32_t proc) {
    Impl &m = *impl_;
    // A control still queued to it would add its endpoints again: it has gone.
    m.controls.erase(std::remove_if(m.controls.begin(), m.controls.end(), [proc](const Control &c) { return c.proc == proc; }),
                     m.controls.end());
    if (proc >= m.peers.size()) return;
    PeerState &p = m.peers[proc];
    p.bml = nullptr;
    // Both sides start their sequences afresh: the other side's disconnect forgot us the same
    // way, and a newcomer given this id (ProcTable) knows nothing of them.
    p.send_seq = p.recv_seq = 0;
    p.stash.clear();
    p.cancelled.clear();
}

// ---- Impl: control messages and progress ----

BmlPeer *Pml::Impl::bml_peer(uint32_t proc) {
    if (proc >= peers.size()) peers.resize(procs.size());
    PeerState &p = peers[proc];
    if (!p.bml) p.bml = bml->peer(proc);
    return p.bml;
}

void Pml::Impl::send_control(uint32_t proc, uint8_t tag, const void *hdr, size_t len) {
    BmlPeer *bp = bml_peer(proc);
    if (!bp) return;
    // Behind queued controls, so that a FIN never overtakes the CTS before it.
    if (controls.empty() && bp->send.btl->send(bp->send.btl, bp->send.ep, tag, hdr, len, nullptr, 0) == PLEXUS_SUCCESS)
        return;
    Control c{proc, tag, static_cast<uint8_t>(len), {}};
    std::memcpy(c.bytes, hdr, len);
    controls.push_back(c);
}

int Pml::Impl::progress() {
    if (controls.empty() && blocked_peers.empty() && streaming.empty() && getting.empty() && flushing.empty())
        return 0;
    int events = 0;
    while (!controls.empty()) {
        Control &c = controls.front();
        BmlPeer *bp = bml_peer(c.proc);
        if (bp->send.btl->send(bp->send.btl, bp->send.ep, c.tag, c.bytes, c.len, nullptr, 0) != PLEXUS_SUCCESS) break;
        controls.pop_front();
        ++events;
    }
    for (size_t i = 0; i < blocked_peers.size();) {
        PeerState &p = peers[blocked_peers[i]];
        while (Request *r = p.blocked.front()) {
            if (!try_send(r, p)) break;
            p.blocked.remove(r);
            r->pml.queued = false;
            ++events;
        }
        if (p.blocked.empty()) {
            blocked_peers[i] = blocked_peers.back();
            blocked_peers.pop_back();
        } else {
            ++i;
        }
    }
    for (Request *r = streaming.front(); r;) {
        Request *next = RequestList::next(r);
        if (stream_fragments(r)) ++events;
        r = next;
    }
    for (Request *r = flushing.front(); r;) {
        Request *next = RequestList::next(r);
        if (flushed(r)) {
            flushing.remove(r);
            r->pml.queued = false;
            retire_send(r);
            ++events;
        }
        r = next;
    }
    for (Request *r = getting.front(); r;) {
        Request *next = RequestList::next(r);
        getting.remove(r);
        r->pml.queued = false;
        if (!try_get(r)) {
            getting.push_back(r);  // keeps its place: still no resources
            r->pml.queued = true;
            break;
        }
        ++events;
        r = next;
    }
    return events;
}

bool Pml::Impl::idle() const {
    // Rendezvous sends still waiting for their receiver are the application's business (MPI
    // requires them complete before finalize); what is drained is what a peer may be waiting for.
    return controls.empty() && blocked_peers.empty() && streaming.empty() && getting.empty() &&
           bml->pending() == 0;
}

}  // namespace plexus::mpi
