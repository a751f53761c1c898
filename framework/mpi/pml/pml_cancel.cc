// MPI_Cancel of a send. Only the receiver knows whether a message has matched, so the sender asks
// it (kCancel, naming the message by its sequence number) and the receiver answers
// (kCancelAnswer): an unmatched message is withdrawn from its unexpected queue, or, when it has
// not arrived yet (a cancel may overtake its message on another channel), dropped on arrival; a
// matched one stays matched and the send completes as usual. A rendezvous is withdrawn with its
// RTS, before any data moved. A send that never left (waiting for BTL resources) is withdrawn by
// the sender alone, and a kSkip takes its place in the sequence.
#include <cstring>

#include "mpi/pml/pml_impl.h"
#include "mpi/pml/pml_typed.h"

namespace plexus::mpi {

namespace {

static_assert(sizeof(wire::CancelHeader) <= sizeof(Control::bytes), "a cancel travels as a control message");
static_assert(sizeof(wire::CancelAnswerHeader) <= sizeof(Control::bytes), "so does its answer");
static_assert(sizeof(wire::MatchHeader) <= sizeof(Control::bytes), "and a skip");

Request *from_cookie(uint64_t cookie) { return reinterpret_cast<Request *>(static_cast<uintptr_t>(cookie)); }
uint64_t cookie_of(Request *r) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(r)); }

// A rendezvous send's registration for the receiver's get, which will never come now.
void release_registration(Request *r) {
    auto *reg = static_cast<RdmaRegistration *>(r->pml.rdma);
    if (!reg) return;
    reg->btl->deregister_mem(reg->btl, &reg->handle);
    delete reg;
    r->pml.rdma = nullptr;
}

}  // namespace

void Pml::Impl::cancel_send(Request *r, Request *follower) {
    if (follower) cancel_followers.emplace_back(r, follower);
    if (r->pml.cancel_asked) return;
    if (r->status.cancelled) {  // withdrawn already: the receiver no longer knows the message
        settle_followers(r, true);
        return;
    }
    switch (r->pml.state) {
    case kSendBlocked:
        withdraw_blocked(r);
        return;
    case kSendStreaming:  // a CTS came: the receiver matched it, the data is moving
        settle_followers(r, false);
        return;
    case kSendNew:
        // An eager send completes when it leaves; until the receiver answers it is not done.
        if (!r->complete) {  // never started: nothing to withdraw
            settle_followers(r, false);
            return;
        }
        r->complete = false;
        break;
    default:  // waiting for the synchronous ACK, for a CTS / FIN, or for its BTL to let go of it
        break;
    }
    r->pml.cancel_asked = true;
    const wire::CancelHeader h{r->comm->context_id, r->comm->rank, r->pml.seq, 0, cookie_of(r)};
    send_control(r->pml.proc, wire::kCancel, &h, sizeof h);
}

// The receiver has never seen this send, but its sequence number is taken: a kSkip carries the
// number instead, so that the messages after it are not held back waiting for it.
void Pml::Impl::withdraw_blocked(Request *r) {
    PeerState &p = peers[r->pml.proc];
    p.blocked.remove(r);
    r->pml.queued = false;
    const wire::MatchHeader h{r->comm->context_id, r->comm->rank, 0, r->pml.seq};
    send_control(r->pml.proc, wire::kSkip, &h, sizeof h);
    finish_cancelled(r);
}

void Pml::Impl::finish_cancelled(Request *r) {
    if (r->pml.state == kSendFlushing) {  // withdrawn by the receiver before its BTL let go of it
        flushing.remove(r);
        r->pml.queued = false;
    }
    release_registration(r);
    if (r->pml.staging) drop_staging(r);
    r->pml.cancel_asked = false;
    r->pml.state = kSendNew;
    r->status.error = MPI_SUCCESS;
    r->status.bytes = 0;
    r->status.cancelled = true;
    complete(r);
    settle_followers(r, true);
}

void Pml::Impl::settle_followers(Request *r, bool cancelled) {
    for (size_t i = 0; i < cancel_followers.size();) {
        if (cancel_followers[i].first != r) {
            ++i;
            continue;
        }
        Request *f = cancel_followers[i].second;
        f->status.cancelled = cancelled;
        if (cancelled) f->status.bytes = 0;
        complete(f);
        cancel_followers[i] = cancel_followers.back();
        cancel_followers.pop_back();
    }
}

// The receiver's side: at most one answer per question, and the answer is final.
void Pml::Impl::on_cancel(uint32_t proc, const wire::CancelHeader &h) {
    if (proc >= procs.size()) return;  // not from a Plexus PML
    if (proc >= peers.size()) peers.resize(procs.size());
    PeerState &p = peers[proc];
    bool withdrawn = true;
    if (static_cast<int32_t>(h.seq - p.recv_seq) >= 0) {
        p.cancelled.insert(h.seq);  // not delivered yet: on its way, or held for its turn
    } else if (Unexpected *u = context(h.context).withdraw(h.source, proc, h.seq)) {
        recycle(u);
    } else {
        withdrawn = false;  // delivered and not waiting: a receive has it
    }
    const wire::CancelAnswerHeader answer{h.send_cookie, h.seq, withdrawn ? 1u : 0u};
    send_control(proc, wire::kCancelAnswer, &answer, sizeof answer);
}

void Pml::Impl::on_cancel_answer(const wire::CancelAnswerHeader &h) {
    Request *r = from_cookie(h.send_cookie);
    // The request cannot have been retired while the question was open (finish_send leaves it
    // incomplete), so the cookie still names it.
    if (!r->pml.cancel_asked || r->pml.seq != h.seq) return;
    if (h.cancelled) {
        finish_cancelled(r);
        return;
    }
    r->pml.cancel_asked = false;
    if (r->pml.state == kSendNew) complete(r);  // it finished while the question was open
    settle_followers(r, false);
}

bool Pml::Impl::drop_if_cancelled(PeerState &p, uint32_t seq) {
    return !p.cancelled.empty() && p.cancelled.erase(seq) > 0;
}

}  // namespace plexus::mpi
