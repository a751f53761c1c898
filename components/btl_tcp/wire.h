// What btl_tcp puts on a connection: the four handshake records that open it, then frames (a
// header with the length and the BTL tag, then the upper layer's header and payload), and last a
// goodbye frame when the process closes it in order (finalize, disconnect, close). Every
// process of a job runs the same library, so records are plain structs in host byte order; a
// peer of the other byte order fails the magic check like any stranger.
#pragma once

#include <cstddef>
#include <cstdint>

#include <plexus/component.h>

namespace plexus::btl_tcp {

// 2: frames carry a kind, and an orderly close ends with a goodbye (version 1 had neither, so a
// peer of version 1 would read every close as a failure: the hello refuses it).
// 3: the hello names the key it proves (key_id): between jobs, a secret of their meeting.
inline constexpr uint16_t kWireVersion = 3;
inline constexpr size_t kNonceBytes = 16;
inline constexpr size_t kKeyIdBytes = 8;
inline constexpr size_t kMacBytes = 32;  // HMAC-SHA256
inline constexpr size_t kNspaceBytes = PLEXUS_NSPACE_MAX;

inline constexpr uint32_t kHelloMagic = 0x48545850u;      // "PXTH"
inline constexpr uint32_t kChallengeMagic = 0x43545850u;  // "PXTC"
inline constexpr uint32_t kProofMagic = 0x50545850u;      // "PXTP"
inline constexpr uint32_t kVerdictMagic = 0x56545850u;    // "PXTV"

// 1, connector -> acceptor: who calls whom, the connector's fresh nonce, and which key the
// handshake proves: zero within a job (the job secret), else the id of the secret the two
// processes share (handshake.h, key_choice.h).
struct Hello {
    uint32_t magic;
    uint16_t version;
    uint16_t reserved;
    uint32_t from_rank;
    uint32_t to_rank;
    uint8_t nonce[kNonceBytes];
    uint8_t key_id[kKeyIdBytes];
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

// What a frame is. A connection whose stream ends (or is reset) without a goodbye lost its peer:
// the process died, or its host went away; only the goodbye tells that from a finalize.
enum FrameKind : uint8_t {
    kFrameMessage = 0,  // the upper layer's: len bytes (upper header + payload) follow
    kFrameGoodbye = 1,  // the sender closes this connection in order; len 0, nothing follows
};

// Every frame after the verdict.
struct FrameHeader {
    uint32_t len;
    uint8_t tag;
    uint8_t kind;  // FrameKind
    uint8_t reserved[2];
};

static_assert(sizeof(FrameHeader) == 8, "frames start with 8 bytes");

}  // namespace plexus::btl_tcp
