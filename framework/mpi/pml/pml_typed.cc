// Typed requests: packing per message through send_pack, unpacking per message on arrival,
// and the staging copy for BTLs that cannot pack (pml_typed.h).
#include "mpi/pml/pml_typed.h"

#include <cstdlib>
#include <cstring>

#include "mpi/datatype.h"

namespace plexus::mpi {

namespace {

// The BTL's pack callback: bytes of the send request ctx's packed stream.
void pack_request(void *ctx, size_t offset, size_t len, void *dst) {
    const auto *r = static_cast<const Request *>(ctx);
    pack_range(*r->datatype, r->buf, static_cast<size_t>(r->count), offset, len, dst);
}

}  // namespace

int send_payload(plexus_btl_module_t *btl, plexus_btl_endpoint_t *ep, uint8_t tag, const void *hdr, size_t hlen,
                 Request *r, size_t offset, size_t n) {
    if (r->typed && !r->pml.staging) {
        if (PLEXUS_BTL_HAS_SEND_PACK(btl)) return btl->send_pack(btl, ep, tag, hdr, hlen, pack_request, r, offset, n);
        if (!stage_payload(r, 0)) return PLEXUS_ERR_AGAIN;  // a 1.1 BTL: the whole message packed once
    }
    return btl->send(btl, ep, tag, hdr, hlen, contiguous_payload(r) + offset, n);
}

bool stage_payload(Request *r, size_t from) {
    auto *copy = static_cast<uint8_t *>(std::malloc(r->bytes ? r->bytes : 1));
    if (!copy) return false;
    if (from < r->bytes) pack_range(*r->datatype, r->buf, static_cast<size_t>(r->count), from, r->bytes - from, copy + from);
    r->pml.staging = copy;
    return true;
}

void drop_staging(Request *r) {
    std::free(r->pml.staging);
    r->pml.staging = nullptr;
}

void receive_bytes(Request *r, size_t offset, const void *data, size_t n) {
    if (!n) return;
    if (r->typed)
        unpack_range(*r->datatype, r->buf, static_cast<size_t>(r->count), offset, n, data);
    else
        std::memcpy(static_cast<uint8_t *>(r->buf) + offset, data, n);
}

}  // namespace plexus::mpi
