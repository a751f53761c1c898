// The datagram MAC: HMAC-SHA256 without OpenSSL's EVP layer, libcrypto opened at the first
// endpoint (hmac_sha256.h says why).
#include "runtime/dgram/authenticator.h"

#include <cstring>

#include "runtime/dgram/hmac_sha256.h"

namespace plexus::runtime::dgram {
namespace {

// HMAC-SHA256(key, label "\0" data): 32 bytes.
std::vector<uint8_t> hmac_once(const uint8_t *key, size_t key_len, std::string_view label,
                               const void *data, size_t len) {
    HmacSha256 mac(key, key_len);
    const uint8_t zero = 0;
    mac.update(label.data(), label.size());
    mac.update(&zero, 1);
    mac.update(data, len);
    std::vector<uint8_t> out(HmacSha256::kBytes);
    mac.finish(out.data());
    return out;
}

}  // namespace

struct Authenticator::Mac {
    explicit Mac(const std::vector<uint8_t> &key) : hmac(key.data(), key.size()) {}
    HmacSha256 hmac;
};


Authenticator::~Authenticator() {
    sdk::secure_zero(secret_.data(), secret_.size());
    sdk::secure_zero(derive_key_.data(), derive_key_.size());
}

Status Authenticator::create(const uint8_t *secret, size_t len, std::string_view label,
                             std::unique_ptr<Authenticator> *out) {
    std::unique_ptr<Authenticator> a(new Authenticator);
    a->secret_.assign(secret, secret + len);
    a->label_ = label;
    *out = std::move(a);
    return Status::ok();
}

// An endpoint lives on one thread (its owner's progress), like every other member here.
bool Authenticator::ready() const {
    if (!derived_) derive_keys();
    return mac_ != nullptr;
}

void Authenticator::derive_keys() const {
    derived_ = true;
    if (!HmacSha256::available(&why_)) return;
    const uint8_t *secret = secret_.data();
    const size_t len = secret_.size();
    std::vector<uint8_t> mac_key = hmac_once(secret, len, "plexus-dgram mac", label_.data(), label_.size());
    std::vector<uint8_t> id = hmac_once(secret, len, "plexus-dgram key id", label_.data(), label_.size());
    mac_ = std::make_unique<Mac>(mac_key);
    sdk::secure_zero(mac_key.data(), mac_key.size());
    for (int i = 0; i < 8; ++i) key_id_ = (key_id_ << 8) | id[i];
    derive_key_ = hmac_once(secret, len, "plexus-dgram derive", label_.data(), label_.size());
    sdk::secure_zero(secret_.data(), secret_.size());
}

bool Authenticator::tag(const uint8_t *header, const struct iovec *payload, size_t n,
                        uint8_t out[Header::kTagBytes]) {
    if (!ready()) return false;
    HmacSha256 &mac = mac_->hmac;
    mac.begin();
    mac.update(header, Header::kAuthenticated);
    for (size_t i = 0; i < n; ++i) mac.update(payload[i].iov_base, payload[i].iov_len);
    uint8_t full[HmacSha256::kBytes];
    mac.finish(full);
    std::memcpy(out, full, Header::kTagBytes);
    return true;
}

bool Authenticator::verify(const uint8_t *datagram, size_t len) {
    if (len < Header::kBytes) return false;
    const struct iovec payload{const_cast<uint8_t *>(datagram + Header::kBytes), len - Header::kBytes};
    uint8_t expect[Header::kTagBytes];
    if (!tag(datagram, &payload, 1, expect)) return false;
    return HmacSha256::equal(expect, datagram + Header::kAuthenticated, Header::kTagBytes);
}

std::vector<uint8_t> Authenticator::derive(std::string_view purpose, const void *data, size_t len) const {
    if (!ready()) return {};
    return hmac_once(derive_key_.data(), derive_key_.size(), purpose, data, len);
}

}  // namespace plexus::runtime::dgram
