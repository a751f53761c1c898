// Rendezvous, receive side: after a request-to-send matched, either read the data straight out
// of the sender's memory (the BTL's get: one copy, no intermediate buffer) and tell the sender it
// is done, or ask it to send fragments. Only the bytes the receive buffer holds are moved.
#include <algorithm>
#include <cstring>

#include "mpi/pml/pml_impl.h"
#include "mpi/pml/pml_typed.h"

namespace plexus::mpi {

namespace {

uint64_t cookie_of(Request *r) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(r)); }

// A get in progress for one receive.
struct GetState {
    Pml::Impl *pml;
    plexus_btl_module_t *btl;
    plexus_btl_endpoint_t *ep;
    plexus_btl_mem_handle_t handle;
    uint64_t addr;
    size_t issued = 0;       // bytes whose get has been started
    size_t outstanding = 0;  // gets started and not yet done
    bool all_started = false;
    int error = PLEXUS_SUCCESS;
};

void get_done(void *ctx, int status) {
    auto *r = static_cast<Request *>(ctx);
    static_cast<GetState *>(r->pml.rdma)->pml->on_get_done(r, status);
}

}  // namespace

void Pml::Impl::start_rndv_recv(Request *r, uint32_t proc, const wire::RtsHeader &rts) {
    const size_t n = std::min<uint64_t>(rts.bytes, r->bytes);
    r->status.source = rts.match.source;
    r->status.tag = rts.match.tag;
    r->status.bytes = rts.bytes;  // what was sent; the MPI layer reports at most the buffer
    r->pml.target = n;
    r->status.error = n < rts.bytes ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    r->pml.proc = proc;
    r->pml.peer_cookie = rts.send_cookie;
    r->pml.offset = 0;
    BmlPeer *bp = bml_peer(proc);
    // A typed receive has no one address to get into: it takes fragments and unpacks each.
    if (rts.addr && bp && bp->rdma.btl && !r->typed) {
        r->pml.rdma = new GetState{this, bp->rdma.btl, bp->rdma.ep, rts.handle, rts.addr};
        r->pml.state = kRecvGetting;
        if (!try_get(r)) {
            getting.push_back(r);
            r->pml.queued = true;
        }
        return;
    }
    r->pml.state = kRecvFrags;
    wire::CtsHeader cts{rts.send_cookie, cookie_of(r), n, 0, {}};  // no put offered yet
    offer_put(r, &cts);
    send_control(proc, wire::kCts, &cts, sizeof cts);
    if (n == 0) complete(r);
}

// Lets the sender write what fragments have not carried when this process stops draining them
// (descheduled on a busy machine): registering is free where it matters (sm: a handle, no
// pinning) and the sender uses it only then.
void Pml::Impl::offer_put(Request *r, wire::CtsHeader *cts) {
    BmlPeer *bp = bml_peer(r->pml.proc);
    if (r->pml.target == 0 || r->typed || !bp || !bp->rdma.btl || !(bp->rdma.btl->caps & PLEXUS_BTL_CAP_PUT)) return;
    auto reg = std::make_unique<RdmaRegistration>();
    reg->btl = bp->rdma.btl;
    if (reg->btl->register_mem(reg->btl, r->buf, r->pml.target, &reg->handle) != PLEXUS_SUCCESS) return;
    cts->addr = reinterpret_cast<uintptr_t>(r->buf);
    cts->handle = reg->handle;
    r->pml.rdma = reg.release();
}

// Starts the gets still to be started; false when the BTL is out of resources (retry later).
bool Pml::Impl::try_get(Request *r) {
    auto *g = static_cast<GetState *>(r->pml.rdma);
    const size_t total = r->pml.target;
    const size_t max = g->btl->max_rdma_size ? g->btl->max_rdma_size : total;
    while (g->issued < total) {
        const size_t len = std::min(max, total - g->issued);
        ++g->outstanding;  // before the call: the BTL may finish it before get returns
        int rc = g->btl->get(g->btl, g->ep, static_cast<uint8_t *>(r->buf) + g->issued, len, &g->handle,
                             g->addr + g->issued, get_done, r);
        if (rc == PLEXUS_SUCCESS) {
            g->issued += len;
            continue;
        }
        --g->outstanding;
        if (rc == PLEXUS_ERR_AGAIN) return false;
        g->error = rc;  // no single copy to this peer after all: fragments instead
        break;
    }
    g->all_started = true;
    if (g->outstanding == 0) finish_get(r);
    return true;
}

void Pml::Impl::on_get_done(Request *r, int status) {
    auto *g = static_cast<GetState *>(r->pml.rdma);
    if (status != PLEXUS_SUCCESS && g->error == PLEXUS_SUCCESS) g->error = status;
    --g->outstanding;
    if (g->all_started && g->outstanding == 0) finish_get(r);
}

void Pml::Impl::finish_get(Request *r) {
    auto *g = static_cast<GetState *>(r->pml.rdma);
    const bool failed = g->error != PLEXUS_SUCCESS;
    delete g;
    r->pml.rdma = nullptr;
    if (failed) {
        // The data did not arrive by get: have the sender push it (it keeps its buffer until then).
        r->pml.state = kRecvFrags;
        r->pml.offset = 0;
        wire::CtsHeader cts{r->pml.peer_cookie, cookie_of(r), r->pml.target, 0, {}};  // no put offered
        send_control(r->pml.proc, wire::kCts, &cts, sizeof cts);
        if (r->pml.target == 0) complete(r);
        return;
    }
    wire::CookieHeader fin{r->pml.peer_cookie};
    send_control(r->pml.proc, wire::kFin, &fin, sizeof fin);
    complete(r);
}

void Pml::Impl::on_frag(const wire::FragHeader &h, const void *data, size_t len) {
    auto *r = reinterpret_cast<Request *>(static_cast<uintptr_t>(h.recv_cookie));
    if (r->pml.state != kRecvFrags || h.offset >= r->pml.target) return;
    const size_t n = std::min<size_t>(len, r->pml.target - h.offset);
    receive_bytes(r, h.offset, data, n);  // unpacked in place when typed: no staging copy
    received_frags(r, n);
}

// The sender wrote the bytes after its last fragment straight into the buffer.
void Pml::Impl::on_put_done(const wire::PutDoneHeader &h) {
    auto *r = reinterpret_cast<Request *>(static_cast<uintptr_t>(h.recv_cookie));
    if (r->pml.state != kRecvFrags) return;
    received_frags(r, h.bytes);
}

void Pml::Impl::received_frags(Request *r, size_t n) {
    r->pml.offset += n;
    if (r->pml.offset < r->pml.target) return;
    if (auto *reg = static_cast<RdmaRegistration *>(r->pml.rdma)) {
        reg->btl->deregister_mem(reg->btl, &reg->handle);
        delete reg;
        r->pml.rdma = nullptr;
    }
    complete(r);
}

}  // namespace plexus::mpi
