// The C table components reach the datagram facility through (host->dgram, host API 1.3).
#pragma once

#include <plexus/dgram.h>

namespace plexus::runtime::dgram {

// Constant-initialised, so that the host API's table may point to it from its own initialiser.
extern const plexus_dgram_services_t kServices;

class Endpoint;
// The endpoint behind a handle, for the core's own layers over it (the reliable layer); NULL for
// NULL.
Endpoint *endpoint_of(plexus_dgram_endpoint_t *ep);

}  // namespace plexus::runtime::dgram
