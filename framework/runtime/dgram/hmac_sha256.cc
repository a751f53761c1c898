// HMAC-SHA256 through SHA256_Init/Update/Final. OpenSSL 3 marks them deprecated in favour of EVP,
// whose first use is the cost this file avoids (hmac_sha256.h); they stay in OpenSSL 3.x.
#include "runtime/dgram/hmac_sha256.h"

#include <openssl/crypto.h>

#include <cstring>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace plexus::runtime::dgram {
namespace {

constexpr size_t kBlock = 64;

void keyed(SHA256_CTX *ctx, const uint8_t (&key)[kBlock], uint8_t pad) {
    uint8_t block[kBlock];
    for (size_t i = 0; i < kBlock; ++i) block[i] = key[i] ^ pad;
    SHA256_Init(ctx);
    SHA256_Update(ctx, block, kBlock);
    OPENSSL_cleanse(block, sizeof block);
}

}  // namespace

HmacSha256::HmacSha256(const uint8_t *key, size_t len) {
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

HmacSha256::~HmacSha256() {
    OPENSSL_cleanse(&inner_key_, sizeof inner_key_);
    OPENSSL_cleanse(&outer_key_, sizeof outer_key_);
    OPENSSL_cleanse(&message_, sizeof message_);
}

void HmacSha256::begin() { message_ = inner_key_; }

void HmacSha256::update(const void *data, size_t len) {
    if (len) SHA256_Update(&message_, data, len);
}

void HmacSha256::finish(uint8_t out[kBytes]) {
    uint8_t inner[kBytes];
    SHA256_Final(inner, &message_);
    SHA256_CTX outer = outer_key_;
    SHA256_Update(&outer, inner, sizeof inner);
    SHA256_Final(out, &outer);
    OPENSSL_cleanse(&outer, sizeof outer);
}

void HmacSha256::once(const uint8_t *key, size_t key_len, const void *data, size_t len, uint8_t out[kBytes]) {
    HmacSha256 mac(key, key_len);
    mac.update(data, len);
    mac.finish(out);
}

}  // namespace plexus::runtime::dgram
