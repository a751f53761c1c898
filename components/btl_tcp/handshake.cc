// HMAC-SHA256 through the SDK's (libcrypto's SHA-256 without the EVP layer's initialisation).
#include "handshake.h"

#include <sys/random.h>


#include <plexus/sdk/hmac_sha256.hpp>

#include <cstring>
#include <vector>

namespace plexus::btl_tcp {
namespace {

constexpr char kKeyLabel[] = "plexus btl_tcp handshake key v1";

static_assert(kMacBytes == sdk::HmacSha256::kBytes);

bool hmac(const uint8_t *key, size_t key_len, const uint8_t *data, size_t len, uint8_t (&out)[kMacBytes]) {
    sdk::HmacSha256::once(key, key_len, data, len, out);
    return sdk::HmacSha256::available();  // without libcrypto, out is random: say so
}

bool terminated(const char (&s)[kNspaceBytes]) { return std::memchr(s, 0, sizeof s) != nullptr; }

}  // namespace

bool HandshakeKey::derive(const uint8_t *secret, size_t len) {
    if (!secret || len == 0 || len > secret_.size()) return false;
    std::memcpy(secret_.data(), secret, len);
    secret_len_ = len;
    return true;
}

bool HandshakeKey::key_ready() const {
    std::call_once(derived_once_, [this] {
        uint8_t out[kMacBytes];
        derived_ = secret_len_ > 0 &&
                   hmac(secret_.data(), secret_len_, reinterpret_cast<const uint8_t *>(kKeyLabel),
                        sizeof kKeyLabel - 1, out);
        if (derived_) std::memcpy(key_.data(), out, sizeof out);
        sdk::secure_zero(out, sizeof out);
    });
    return derived_;
}

bool HandshakeKey::mac(const char *label, const Hello &hello, const uint8_t (&nonce)[kNonceBytes],
                       uint8_t (&out)[kMacBytes]) const {
    if (!key_ready()) return false;
    const size_t label_len = std::strlen(label) + 1;  // with its NUL: labels cannot run into the hello
    std::vector<uint8_t> data(label_len + sizeof hello + kNonceBytes);
    std::memcpy(data.data(), label, label_len);
    std::memcpy(data.data() + label_len, &hello, sizeof hello);
    std::memcpy(data.data() + label_len + sizeof hello, nonce, kNonceBytes);
    return hmac(key_.data(), key_.size(), data.data(), data.size(), out);
}

bool HandshakeKey::acceptor_mac(const Hello &hello, const uint8_t (&nonce)[kNonceBytes], uint8_t (&out)[kMacBytes]) const {
    return mac("accept", hello, nonce, out);
}

bool HandshakeKey::connector_mac(const Hello &hello, const uint8_t (&nonce)[kNonceBytes], uint8_t (&out)[kMacBytes]) const {
    return mac("connect", hello, nonce, out);
}

bool HandshakeKey::key_id(uint8_t (&out)[kKeyIdBytes]) const {
    if (!key_ready()) return false;
    static constexpr char kIdLabel[] = "plexus btl_tcp key id v1";
    uint8_t full[kMacBytes];
    hmac(key_.data(), key_.size(), reinterpret_cast<const uint8_t *>(kIdLabel), sizeof kIdLabel - 1, full);
    std::memcpy(out, full, sizeof out);
    return true;
}

bool same_mac(const uint8_t (&a)[kMacBytes], const uint8_t (&b)[kMacBytes]) {
    return sdk::HmacSha256::equal(a, b, kMacBytes);
}

bool random_bytes(void *buf, size_t len) {
    auto *p = static_cast<uint8_t *>(buf);
    while (len > 0) {
        const ssize_t n = ::getrandom(p, len, 0);
        if (n <= 0) return false;
        p += n;
        len -= static_cast<size_t>(n);
    }
    return true;
}

bool make_hello(const std::string &from_nspace, uint32_t from_rank, const std::string &to_nspace, uint32_t to_rank,
                Hello *out) {
    Hello h;
    std::memset(&h, 0, sizeof h);  // padding too: the whole struct is MACed
    if (from_nspace.size() >= kNspaceBytes || to_nspace.size() >= kNspaceBytes) return false;
    h.magic = kHelloMagic;
    h.version = kWireVersion;
    h.from_rank = from_rank;
    h.to_rank = to_rank;
    std::memcpy(h.from_nspace, from_nspace.c_str(), from_nspace.size() + 1);
    std::memcpy(h.to_nspace, to_nspace.c_str(), to_nspace.size() + 1);
    if (!random_bytes(h.nonce, sizeof h.nonce)) return false;
    *out = h;
    return true;
}

std::string check_hello(const Hello &h) {
    if (h.magic != kHelloMagic) return "not a btl_tcp hello (wrong magic)";
    if (h.version != kWireVersion)
        return "hello of wire version " + std::to_string(h.version) + ", this library speaks " +
               std::to_string(kWireVersion);
    if (!terminated(h.from_nspace) || !terminated(h.to_nspace)) return "hello with an unterminated namespace";
    return "";
}

}  // namespace plexus::btl_tcp
