// HMAC-SHA256 over a datagram's header and payload, keyed per (job secret, label): derives the
// MAC key and the key id from the secret, makes and checks the truncated tags. The keys are
// derived at the first datagram sent or received, not when the endpoint opens: an endpoint opened
// only to learn its address (dpm_ud's usable check in every process) then never loads libcrypto.
#pragma once

#include <sys/uio.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/dgram/wire_format.h"
#include "runtime/status.h"

namespace plexus::runtime::dgram {

class Authenticator {
public:
    // Keeps secret and label; the MAC key and key id are derived from them (HMAC-SHA256 of fixed
    // strings under the secret) at first use, so that the secret itself never keys anything sent.
    static Status create(const uint8_t *secret, size_t len, std::string_view label,
                         std::unique_ptr<Authenticator> *out);
    ~Authenticator();
    Authenticator(const Authenticator &) = delete;
    Authenticator &operator=(const Authenticator &) = delete;

    // False when libcrypto cannot be loaded (why() says so); then nothing is tagged or verified.
    bool ready() const;
    const std::string &why() const { return why_; }

    uint64_t key_id() const { return ready() ? key_id_ : 0; }

    // The tag of the authenticated header bytes followed by the payload pieces.
    bool tag(const uint8_t *header, const struct iovec *payload, size_t n,
             uint8_t out[Header::kTagBytes]);
    // Whether the received datagram's tag (in its header) verifies, compared in constant time.
    bool verify(const uint8_t *datagram, size_t len);

    // Bytes derived from the secret for purpose (e.g. group addresses), independent of the MAC key.
    std::vector<uint8_t> derive(std::string_view purpose, const void *data, size_t len) const;

private:
    Authenticator() = default;
    void derive_keys() const;
    struct Mac;
    // Derived at first use (ready()); the secret is wiped then.
    mutable std::vector<uint8_t> secret_;
    mutable std::string label_;
    mutable bool derived_ = false;
    mutable std::string why_;
    mutable std::unique_ptr<Mac> mac_;
    mutable std::vector<uint8_t> derive_key_;
    mutable uint64_t key_id_ = 0;
};

}  // namespace plexus::runtime::dgram
