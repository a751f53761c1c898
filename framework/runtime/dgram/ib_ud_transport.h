// Datagrams over InfiniBand Unreliable Datagram through rdma-core's libibverbs: one UD queue
// pair on an HCA port. Declines, with its reason, where the core was built without libibverbs
// or the node has no usable HCA.
#pragma once

#include <memory>
#include <string>

#include "runtime/dgram/dgram_params.h"
#include "runtime/dgram/transport.h"

namespace plexus::runtime::dgram {

// device is "mlx5_0" or "mlx5_0:2" (port 1 when omitted), or "" / "any" for the first device
// with an active port. PLEXUS_ERR_NOT_AVAILABLE with the reason when it cannot run here.
Status open_ib_ud(const Settings &settings, const std::string &device, std::unique_ptr<Transport> *out);

}  // namespace plexus::runtime::dgram
