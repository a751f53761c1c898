// The datagram facility's parameters (runtime_dgram_*), registered with the runtime's, and the
// settings an endpoint is opened with.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "base/param_registry.h"
#include "runtime/status.h"

namespace plexus::runtime::dgram {

struct Settings {
    std::string interface = "lo";           // runtime_dgram_if
    double drop_rate = 0.0;                 // runtime_dgram_drop_rate: receive-side loss, 0..1
    uint64_t drop_seed = 1;                 // runtime_dgram_drop_seed
    size_t mtu = 0;                         // runtime_dgram_mtu: datagram cap, 0 the link's
    size_t max_message = 8u << 20;          // runtime_dgram_max_message
    size_t reassembly_memory = 32u << 20;   // runtime_dgram_reassembly_memory
    std::chrono::milliseconds reassembly_timeout{2000};  // runtime_dgram_reassembly_timeout_ms
    int multicast_ttl = 1;                  // runtime_dgram_multicast_ttl
    size_t receive_buffer = 4u << 20;       // runtime_dgram_rcvbuf
    size_t max_peers = 4096;                // senders remembered for replay detection
    // The reliable layer (reliable.h): retransmission, back-off, operation timeout, window.
    std::chrono::milliseconds rto{20};        // runtime_dgram_rto_ms
    std::chrono::milliseconds rto_max{1000};  // runtime_dgram_rto_max_ms
    std::chrono::milliseconds timeout{10000}; // runtime_dgram_timeout_ms
    size_t window = 256u << 10;             // runtime_dgram_window: unacked bytes per message
    int verbose = 0;                        // runtime_dgram_verbose

    // What is out of range (drop rate outside 0..1, a cap below a header); empty when usable.
    std::string check() const;
};

std::vector<mca::ParamSpec> dgram_param_specs();

// From a registry where the runtime's parameters are registered.
Settings dgram_settings(const mca::ParamRegistry &params);

// The settings of this process: the running runtime's, else read from its own sources.
Settings dgram_settings_of_process();

}  // namespace plexus::runtime::dgram
