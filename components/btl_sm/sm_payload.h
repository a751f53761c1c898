// What one send carries into a fragment or a fast-box record: a header and a payload that is
// either contiguous bytes (send) or packed by the upper layer's callback straight into the
// shared buffer (send_pack, BTL 1.2), so that a derived datatype is copied once on this side.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <plexus/btl.h>

namespace plexus::btl_sm {

struct Payload {
    const void *hdr = nullptr;
    size_t hlen = 0;
    const void *bytes = nullptr;          // contiguous payload (pack == nullptr)
    plexus_btl_pack_fn_t pack = nullptr;  // else: bytes [offset, offset + plen) of ctx's stream
    void *ctx = nullptr;
    size_t offset = 0;
    size_t plen = 0;

    size_t len() const { return hlen + plen; }

    // Writes header and payload to dst (len() bytes).
    void write_to(uint8_t *dst) const {
        if (hlen) std::memcpy(dst, hdr, hlen);
        if (!plen) return;
        if (pack)
            pack(ctx, offset, plen, dst + hlen);
        else
            std::memcpy(dst + hlen, bytes, plen);
    }
};

inline Payload bytes_payload(const void *hdr, size_t hlen, const void *bytes, size_t plen) {
    Payload p;
    p.hdr = hdr;
    p.hlen = hlen;
    p.bytes = bytes;
    p.plen = plen;
    return p;
}

inline Payload packed_payload(const void *hdr, size_t hlen, plexus_btl_pack_fn_t pack, void *ctx, size_t offset,
                              size_t plen) {
    Payload p;
    p.hdr = hdr;
    p.hlen = hlen;
    p.pack = pack;
    p.ctx = ctx;
    p.offset = offset;
    p.plen = plen;
    return p;
}

}  // namespace plexus::btl_sm
