// What btl_tcp puts on a connection: the four handshake records that open it, then frames (a
// header with the length and the BTL tag, then the upper layer's header and payload). Every
// process of a job runs the same library, so records are plain structs in host byte order; a
// peer of the other byte order fails the magic check like any stranger.
#pragma once

#include <cstddef>
#include <cstdint>

#include <plexus/component.h>

namespace plexus::btl_tcp {

inline constexpr uint16_t kWireVersion = 1;
inline constexpr size_t kNonceBytes = 16;
inline constexpr size_t kMacBytes = 32;  // HMAC-SHA256
inline constexpr size_t kNspaceBytes = PLEXUS_NSPACE_MAX;

inline constexpr uint32_t kHelloMagic = 0x48545850u;      // "PXTH"
inline constexpr uint32_t kChallengeMagic = 0x43545850u;  // "PXTC"
inline constexpr uint32_t kProofMagic = 0x50545850u;      // "PXTP"
inline constexpr uint32_t kVerdictMagic = 0x56545850u;    // "PXTV"

// 1, connector -> acceptor: who calls whom, and the connector's fresh nonce.
struct Hello {
    uint32_t magic;
    uint16_t version;
    uint16_t reserved;
    uint32_t from_rank;
    uint32_t to_rank;
    uint8_t nonce[kNonceBytes];
    char from_nspace[kNspaceBytes];  // NUL-terminated
    char to_nspace[kNspaceBytes];
};

// 2, acceptor -> connector: the acceptor's fresh nonce and its proof of the secret, bound to the
// hello (so to the connector's nonce: a recorded answer is useless later).
struct Challenge {
    uint32_t magic;
    uint32_t reserved;
    uint8_t nonce[kNonceBytes];
    uint8_t mac[kMacBytes];
};

// 3, connector -> acceptor: the connector's proof, bound to the hello and the acceptor's nonce.
struct Proof {
    uint32_t magic;
    uint32_t reserved;
    uint8_t mac[kMacBytes];
};

// 4, acceptor -> connector: whether this connection is the one both keep (0 when the acceptor
// keeps the one it made itself, or already has one: both sides connected at once).
struct Verdict {
    uint32_t magic;
    uint32_t accepted;
};

// Every message after the verdict: len bytes (upper header + payload) follow.
struct FrameHeader {
    uint32_t len;
    uint8_t tag;
    uint8_t reserved[3];
};

static_assert(sizeof(FrameHeader) == 8, "frames start with 8 bytes");

}  // namespace plexus::btl_tcp
