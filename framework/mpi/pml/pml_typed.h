// Typed requests (Request::typed: the user's buffer laid out by a datatype with holes): the PML
// moves their data one message at a time between the user's buffer and the BTL's. A send packs
// each eager message or rendezvous fragment straight into the transport's buffer through the
// BTL's send_pack (BTL 1.2); a receive unpacks each one from where the BTL delivered it, at its
// offset in the packed stream. No whole-message copy is made on either side, except for a BTL
// without send_pack (1.1) and for the rest of a send the BTL writes by put: those read a packed
// staging copy (Request::Pml::staging), as every typed send did before BTL 1.2.
#pragma once

#include <cstddef>
#include <cstdint>

#include <plexus/btl.h>

#include "mpi/request.h"

namespace plexus::mpi {

// Bytes [offset, offset + n) of r's payload out with hdr through btl (send_pack when r is typed
// and unstaged, else send from the contiguous bytes). A typed send whose BTL cannot pack is staged
// first; PLEXUS_ERR_AGAIN when there is no memory for that now.
int send_payload(plexus_btl_module_t *btl, plexus_btl_endpoint_t *ep, uint8_t tag, const void *hdr, size_t hlen,
                 Request *r, size_t offset, size_t n);

// The send's payload as contiguous bytes: the staging copy, or the buffer of an untyped send.
inline const uint8_t *contiguous_payload(const Request *r) {
    return static_cast<const uint8_t *>(r->pml.staging ? r->pml.staging : r->buf);
}

// Whether r's payload can be named by one address (for get and put): untyped or staged.
inline bool payload_contiguous(const Request *r) { return !r->typed || r->pml.staging; }

// Packs bytes [from, r->bytes) of a typed send into a staging copy (the bytes before from are
// not needed: fragments carried them). false: out of memory.
bool stage_payload(Request *r, size_t from);
void drop_staging(Request *r);

// Writes n received bytes at offset of r's packed stream into r's buffer (unpacked when typed).
void receive_bytes(Request *r, size_t offset, const void *data, size_t n);

}  // namespace plexus::mpi
