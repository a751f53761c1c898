// HMAC-SHA256(key, label, session, starter's nonce, answerer's nonce).
#include "pair_secret.h"

#include <plexus/component.h>
#include <plexus/sdk/hmac_sha256.hpp>

#include <cstring>

namespace plexus::dpm_ud {

static_assert(sizeof(PairSecret) == PLEXUS_PEER_SECRET_LEN);
static_assert(sizeof(PairSecret) == sdk::HmacSha256::kBytes);

PairSecret pair_secret(const Key &key, uint64_t session, const Nonce &starter, const Nonce &answerer) {
    static constexpr char kLabel[] = "plexus dpm_ud pair secret v1";  // with its NUL
    Bytes data(reinterpret_cast<const uint8_t *>(kLabel), reinterpret_cast<const uint8_t *>(kLabel) + sizeof kLabel);
    for (int i = 0; i < 8; ++i) data.push_back(static_cast<uint8_t>(session >> (8 * i)));
    data.insert(data.end(), starter.begin(), starter.end());
    data.insert(data.end(), answerer.begin(), answerer.end());
    PairSecret out{};
    sdk::HmacSha256::once(key.data(), key.size(), data.data(), data.size(), out.data());
    return out;
}

}  // namespace plexus::dpm_ud
