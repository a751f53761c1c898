// The C table components reach the datagram facility through (host->dgram, host API 1.3).
#pragma once

#include <plexus/dgram.h>

namespace plexus::runtime::dgram {

// Constant-initialised, so that the host API's table may point to it from its own initialiser.
extern const plexus_dgram_services_t kServices;

}  // namespace plexus::runtime::dgram
