// HMAC-SHA256 (RFC 2104) over libcrypto's SHA-256 block functions, not its EVP layer, for the core
// and components alike (the datagram MAC, btl_tcp's handshake, dpm_ud's rc proof). The first EVP
// call of a process initialises OpenSSL's providers, method stores and configuration: about 6
// million instructions, a quarter of what a rank executes from exec to the end of MPI_Init (issue
// 20's spawn rate). The block functions need no initialisation and give the same bytes
// (tests/unit/test_runtime_dgram_hmac checks RFC 4231's vectors and OpenSSL's HMAC()). OpenSSL 3
// marks them deprecated in favour of EVP, whose first use is the cost avoided; they stay in 3.x.
// Header-only: the user links libcrypto (-lcrypto), as for any OpenSSL call.
#pragma once

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace plexus::sdk {

class HmacSha256 {
public:
    static constexpr size_t kBytes = 32;

    HmacSha256(const uint8_t *key, size_t len) {
        uint8_t padded[kBlock] = {};
        if (len > kBlock)
            SHA256(key, len, padded);  // RFC 2104: a key longer than a block is hashed first
        else if (len > 0)
            std::memcpy(padded, key, len);
        keyed(&inner_key_, padded, 0x36);
        keyed(&outer_key_, padded, 0x5c);
        OPENSSL_cleanse(padded, sizeof padded);
        begin();
    }
    ~HmacSha256() {
        OPENSSL_cleanse(&inner_key_, sizeof inner_key_);
        OPENSSL_cleanse(&outer_key_, sizeof outer_key_);
        OPENSSL_cleanse(&message_, sizeof message_);
    }
    HmacSha256(const HmacSha256 &) = delete;
    HmacSha256 &operator=(const HmacSha256 &) = delete;

    // Starts a message under the key (the keyed inner and outer states are kept, so a message
    // costs its own blocks only).
    void begin() { message_ = inner_key_; }
    void update(const void *data, size_t len) {
        if (len) SHA256_Update(&message_, data, len);
    }
    void finish(uint8_t out[kBytes]) {
        uint8_t inner[kBytes];
        SHA256_Final(inner, &message_);
        SHA256_CTX outer = outer_key_;
        SHA256_Update(&outer, inner, sizeof inner);
        SHA256_Final(out, &outer);
        OPENSSL_cleanse(&outer, sizeof outer);
    }

    // One message: HMAC(key, data).
    static void once(const uint8_t *key, size_t key_len, const void *data, size_t len, uint8_t out[kBytes]) {
        HmacSha256 mac(key, key_len);
        mac.update(data, len);
        mac.finish(out);
    }

private:
    static constexpr size_t kBlock = 64;
    static void keyed(SHA256_CTX *ctx, const uint8_t (&key)[kBlock], uint8_t pad) {
        uint8_t block[kBlock];
        for (size_t i = 0; i < kBlock; ++i) block[i] = key[i] ^ pad;
        SHA256_Init(ctx);
        SHA256_Update(ctx, block, kBlock);
        OPENSSL_cleanse(block, sizeof block);
    }

    SHA256_CTX inner_key_, outer_key_;  // after the padded key's block
    SHA256_CTX message_;
};

}  // namespace plexus::sdk

#pragma GCC diagnostic pop
