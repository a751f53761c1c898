// The datagram MAC through OpenSSL's EVP_MAC interface (libcrypto 3).
#include "runtime/dgram/authenticator.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <cstring>

namespace plexus::runtime::dgram {
namespace {

struct MacDeleter {
    void operator()(EVP_MAC *m) const { EVP_MAC_free(m); }
    void operator()(EVP_MAC_CTX *c) const { EVP_MAC_CTX_free(c); }
};
using MacPtr = std::unique_ptr<EVP_MAC, MacDeleter>;
using MacCtxPtr = std::unique_ptr<EVP_MAC_CTX, MacDeleter>;

std::string openssl_error(const char *what) {
    char buf[256] = "";
    ERR_error_string_n(ERR_get_error(), buf, sizeof buf);
    return std::string(what) + ": " + buf;
}

MacCtxPtr hmac_sha256(const uint8_t *key, size_t len) {
    MacPtr mac(EVP_MAC_fetch(nullptr, "HMAC", nullptr));
    if (!mac) return nullptr;
    MacCtxPtr ctx(EVP_MAC_CTX_new(mac.get()));
    char digest[] = "SHA256";
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                           OSSL_PARAM_construct_end()};
    if (!ctx || !EVP_MAC_init(ctx.get(), key, len, params)) return nullptr;
    return ctx;
}

// HMAC-SHA256(key, label "\0" data): 32 bytes, empty on failure.
std::vector<uint8_t> hmac_once(const uint8_t *key, size_t key_len, std::string_view label,
                               const void *data, size_t len) {
    MacCtxPtr ctx = hmac_sha256(key, key_len);
    std::vector<uint8_t> out(32);
    size_t n = 0;
    const uint8_t zero = 0;
    if (!ctx || !EVP_MAC_update(ctx.get(), reinterpret_cast<const uint8_t *>(label.data()), label.size()) ||
        !EVP_MAC_update(ctx.get(), &zero, 1) ||
        (len && !EVP_MAC_update(ctx.get(), static_cast<const uint8_t *>(data), len)) ||
        !EVP_MAC_final(ctx.get(), out.data(), &n, out.size()) || n != out.size())
        return {};
    return out;
}

}  // namespace

struct Authenticator::Mac {
    MacCtxPtr ctx;
};

Authenticator::~Authenticator() = default;

Status Authenticator::create(const uint8_t *secret, size_t len, std::string_view label,
                             std::unique_ptr<Authenticator> *out) {
    std::vector<uint8_t> mac_key = hmac_once(secret, len, "plexus-dgram mac", label.data(), label.size());
    std::vector<uint8_t> id = hmac_once(secret, len, "plexus-dgram key id", label.data(), label.size());
    std::vector<uint8_t> derive = hmac_once(secret, len, "plexus-dgram derive", label.data(), label.size());
    if (mac_key.empty() || id.empty() || derive.empty())
        return Status::error(PLEXUS_ERR_NOT_AVAILABLE, openssl_error("HMAC-SHA256 key derivation"));
    std::unique_ptr<Authenticator> a(new Authenticator);
    a->mac_ = std::make_unique<Mac>();
    a->mac_->ctx = hmac_sha256(mac_key.data(), mac_key.size());
    OPENSSL_cleanse(mac_key.data(), mac_key.size());
    if (!a->mac_->ctx) return Status::error(PLEXUS_ERR_NOT_AVAILABLE, openssl_error("HMAC-SHA256"));
    for (int i = 0; i < 8; ++i) a->key_id_ = (a->key_id_ << 8) | id[i];
    a->derive_key_ = std::move(derive);
    *out = std::move(a);
    return Status::ok();
}

bool Authenticator::tag(const uint8_t *header, const struct iovec *payload, size_t n,
                        uint8_t out[Header::kTagBytes]) {
    EVP_MAC_CTX *ctx = mac_->ctx.get();
    // A NULL key re-initialises with the key already set, without allocating.
    if (!EVP_MAC_init(ctx, nullptr, 0, nullptr) || !EVP_MAC_update(ctx, header, Header::kAuthenticated))
        return false;
    for (size_t i = 0; i < n; ++i)
        if (payload[i].iov_len &&
            !EVP_MAC_update(ctx, static_cast<const uint8_t *>(payload[i].iov_base), payload[i].iov_len))
            return false;
    uint8_t full[32];
    size_t len = 0;
    if (!EVP_MAC_final(ctx, full, &len, sizeof full) || len != sizeof full) return false;
    std::memcpy(out, full, Header::kTagBytes);
    return true;
}

bool Authenticator::verify(const uint8_t *datagram, size_t len) {
    if (len < Header::kBytes) return false;
    const struct iovec payload{const_cast<uint8_t *>(datagram + Header::kBytes), len - Header::kBytes};
    uint8_t expect[Header::kTagBytes];
    if (!tag(datagram, &payload, 1, expect)) return false;
    return CRYPTO_memcmp(expect, datagram + Header::kAuthenticated, Header::kTagBytes) == 0;
}

std::vector<uint8_t> Authenticator::derive(std::string_view purpose, const void *data, size_t len) const {
    return hmac_once(derive_key_.data(), derive_key_.size(), purpose, data, len);
}

}  // namespace plexus::runtime::dgram
