// Rendezvous, send side: a receiver that stops draining fragments. Pipelined fragments need the
// receiver on a CPU while the sender copies; on a machine whose CPUs other programs keep busy it
// is often descheduled, holding every fragment, and the sender waits for a scheduler round per
// ring of fragments. When the BTL says so (it lowers rdma_threshold once its fragments have not
// come back within its bound: btl_sm_single_copy_stall), the sender writes the rest straight into
// the receive buffer the CTS offered and tells the receiver how many bytes that was; a put needs
// only the sender running. The bytes already sent as fragments stay as they are.
#include <algorithm>
#include <string>

#include "base/output.h"
#include "mpi/pml/pml_impl.h"
#include "mpi/pml/pml_typed.h"

namespace plexus::mpi {

namespace {

void put_written(void *ctx, int status) {
    auto *r = static_cast<Request *>(ctx);
    static_cast<PutTarget *>(r->pml.rdma)->pml->on_put_written(r, status);
}

}  // namespace

// Called when a fragment found no room: whether the rest is worth a put by the BTL's own
// current measure (a BTL whose receivers drain keeps its threshold above any pipelined size).
bool Pml::Impl::receiver_stalled(Request *r, const BmlPeer &bp) const {
    const plexus_btl_module_t *btl = bp.rdma.btl;
    if (!btl || !(btl->caps & PLEXUS_BTL_CAP_PUT) || !btl->put) return false;
    const size_t rest = r->pml.target - r->pml.offset;
    if (!PLEXUS_BTL_RDMA_PAYS(btl, rest)) return false;
    mca::emit(PLEXUS_LOG_DETAIL, "pml",
              "receiver not draining fragments: the last " + std::to_string(rest) + " of " +
                  std::to_string(r->pml.target) + " bytes to process " + std::to_string(r->pml.proc) + " go by put");
    return true;
}

// Starts the next put of the rest (one at a time); true when one was started.
bool Pml::Impl::put_rest(Request *r) {
    auto *t = static_cast<PutTarget *>(r->pml.rdma);
    if (t->in_flight) return false;
    const BtlPath &path = bml_peer(r->pml.proc)->rdma;
    const size_t rest = r->pml.target - r->pml.offset;
    const size_t len = path.btl->max_rdma_size ? std::min(rest, path.btl->max_rdma_size) : rest;
    // A put reads one address: the rest of a typed send is packed once (a rare path: a receiver
    // that stopped draining fragments).
    if (!payload_contiguous(r) && !stage_payload(r, r->pml.offset)) return false;
    t->in_flight = len;  // before the call: the BTL may finish it before put returns
    const int rc = path.btl->put(path.btl, path.ep, contiguous_payload(r) + r->pml.offset, len,
                                 &t->handle, t->addr + r->pml.offset, put_written, r);
    if (rc == PLEXUS_SUCCESS) return true;  // r may be complete already: touch nothing
    t->in_flight = 0;
    if (rc != PLEXUS_ERR_AGAIN) give_up_put(r);
    return false;
}

// No put to this peer after all (ptrace rules, say): fragments carry the rest, as without one.
void Pml::Impl::give_up_put(Request *r) {
    delete static_cast<PutTarget *>(r->pml.rdma);
    r->pml.rdma = nullptr;
}

void Pml::Impl::on_put_written(Request *r, int status) {
    auto *t = static_cast<PutTarget *>(r->pml.rdma);
    const size_t len = t->in_flight;
    t->in_flight = 0;
    if (status != PLEXUS_SUCCESS) {
        give_up_put(r);  // fragments carry these bytes again
        return;
    }
    wire::PutDoneHeader done{r->pml.peer_cookie, len};
    send_control(r->pml.proc, wire::kPutDone, &done, sizeof done);
    r->pml.offset += len;
    if (r->pml.offset >= r->pml.target) finish_streaming(r);
}

}  // namespace plexus::mpi
