// HMAC-SHA256 over a datagram's header and payload, keyed per (job secret, label): derives the
// MAC key and the key id from the secret, makes and checks the truncated tags.
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
    // Derives the MAC key and key id from secret and label (HMAC-SHA256 of fixed strings under
    // the secret), so that the secret itself never keys anything sent.
    static Status create(const uint8_t *secret, size_t len, std::string_view label,
                         std::unique_ptr<Authenticator> *out);
    ~Authenticator();
    Authenticator(const Authenticator &) = delete;
    Authenticator &operator=(const Authenticator &) = delete;

    uint64_t key_id() const { return key_id_; }

    // The tag of the authenticated header bytes followed by the payload pieces.
    bool tag(const uint8_t *header, const struct iovec *payload, size_t n,
             uint8_t out[Header::kTagBytes]);
    // Whether the received datagram's tag (in its header) verifies, compared in constant time.
    bool verify(const uint8_t *datagram, size_t len);

    // Bytes derived from the secret for purpose (e.g. group addresses), independent of the MAC key.
    std::vector<uint8_t> derive(std::string_view purpose, const void *data, size_t len) const;

private:
    Authenticator() = default;
    struct Mac;
    std::unique_ptr<Mac> mac_;
    std::vector<uint8_t> derive_key_;
    uint64_t key_id_ = 0;
};

}  // namespace plexus::runtime::dgram
