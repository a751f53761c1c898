// The datagram MAC's HMAC-SHA256: the SDK's (plexus/sdk/hmac_sha256.hpp says why not EVP).
#pragma once

#include <plexus/sdk/hmac_sha256.hpp>

namespace plexus::runtime::dgram {
using HmacSha256 = sdk::HmacSha256;
}  // namespace plexus::runtime::dgram
