// The proof of a secret that opens every connection (the job secret within a job, the secret of
// their meeting between jobs: key_choice.h): the key derived from the secret, the two MACs over
// the hello and the acceptor's nonce, and the checks of what a stranger may send.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <string>

#include "wire.h"

namespace plexus::btl_tcp {

class HandshakeKey {
public:
    // Keeps the secret; the key, HMAC-SHA256(secret, label) (the secret itself never keys
    // anything sent), is derived at the first MAC, i.e. the first connection. Deriving it here
    // would initialise OpenSSL's EVP layer in every process at MPI_Init, about 6 million
    // instructions, a quarter of a rank's start, although processes of one node never make a TCP
    // connection (issue 20's spawn rate). False for an empty secret or one over kSecretBytes.
    bool derive(const uint8_t *secret, size_t len);
    // The acceptor's MAC (in the challenge) and the connector's (in the proof); each covers the
    // hello and the acceptor's nonce under its own label, so neither can stand for the other.
    bool acceptor_mac(const Hello &hello, const uint8_t (&nonce)[kNonceBytes], uint8_t (&out)[kMacBytes]) const;
    bool connector_mac(const Hello &hello, const uint8_t (&nonce)[kNonceBytes], uint8_t (&out)[kMacBytes]) const;
    // What a hello names the key by: HMAC of a label of its own under the key, cut short. The
    // acceptor finds which of the secrets it shares with the caller this is without trying each
    // in a MAC, and the id tells nothing of the key.
    bool key_id(uint8_t (&out)[kKeyIdBytes]) const;

private:
    static constexpr size_t kSecretBytes = 64;
    bool mac(const char *label, const Hello &hello, const uint8_t (&nonce)[kNonceBytes],
             uint8_t (&out)[kMacBytes]) const;
    bool key_ready() const;  // derives the key once; false when the crypto library failed
    std::array<uint8_t, kSecretBytes> secret_{};
    size_t secret_len_ = 0;
    mutable std::once_flag derived_once_;
    mutable bool derived_ = false;
    mutable std::array<uint8_t, kMacBytes> key_{};
};

// Constant-time comparison of two MACs.
bool same_mac(const uint8_t (&a)[kMacBytes], const uint8_t (&b)[kMacBytes]);

// Fresh random bytes (getrandom); false when the kernel has none.
bool random_bytes(void *buf, size_t len);

// A hello from (from_nspace, from_rank) to (to_nspace, to_rank) with a fresh nonce; false when a
// namespace does not fit or no randomness is available.
bool make_hello(const std::string &from_nspace, uint32_t from_rank, const std::string &to_nspace, uint32_t to_rank,
                Hello *out);

// Empty when a received hello is well formed (magic, version, terminated namespaces), else why not.
std::string check_hello(const Hello &h);

}  // namespace plexus::btl_tcp
