// HMAC-SHA256 (RFC 2104) over libcrypto's SHA-256 block functions, not its EVP layer. The first
// EVP call of a process initialises OpenSSL's providers, method stores and configuration: about
// 6 million instructions, a quarter of what a rank executes from exec to the end of MPI_Init,
// paid by every spawned child for the one datagram it sends (issue 20's spawn rate). The block
// functions need no initialisation; the result is the same bytes (tests/unit/test_runtime_dgram_hmac).
#pragma once

#include <openssl/sha.h>

#include <cstddef>
#include <cstdint>

namespace plexus::runtime::dgram {

class HmacSha256 {
public:
    static constexpr size_t kBytes = 32;

    HmacSha256(const uint8_t *key, size_t len);
    ~HmacSha256();
    HmacSha256(const HmacSha256 &) = delete;
    HmacSha256 &operator=(const HmacSha256 &) = delete;

    // Starts a message under the key (the keyed inner and outer states are kept, so a message
    // costs its own blocks only).
    void begin();
    void update(const void *data, size_t len);
    void finish(uint8_t out[kBytes]);

    // One message: HMAC(key, data).
    static void once(const uint8_t *key, size_t key_len, const void *data, size_t len, uint8_t out[kBytes]);

private:
    SHA256_CTX inner_key_, outer_key_;  // after the padded key's block
    SHA256_CTX message_;
};

}  // namespace plexus::runtime::dgram
