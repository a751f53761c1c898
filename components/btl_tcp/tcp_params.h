// The btl_tcp parameters: their defaults, their registration with the core, and the checks the
// core's registry cannot make on its own (one limit against another, include against exclude).
#pragma once

#include <cstdint>
#include <string>

#include <plexus/btl.h>
#include <plexus/component.h>

#include "socket_util.h"

namespace plexus::btl_tcp {

struct TcpParams {
    // Comma-separated interface names or IPv4 CIDRs; at most one of the two may be set.
    const char *if_include = "";
    const char *if_exclude = "";
    // Listening port: any the kernel picks when port_min is 0, else the first free one of
    // [port_min, port_min + port_range).
    int64_t port_min = 0;
    int64_t port_range = 100;
    // SO_SNDBUF / SO_RCVBUF of every connection; 0 leaves the kernel's autotuning alone.
    uint64_t sndbuf = 0;
    uint64_t rcvbuf = 0;
    // Bytes accepted for one peer and not yet in its socket before send answers AGAIN.
    uint64_t max_queued = 4 * 1024 * 1024;
    // Milliseconds: an incoming connection must prove the job secret within handshake_timeout;
    // reaching a peer (connect, handshake, or waiting for its own connection) within
    // connect_timeout, or the job ends naming it. Neither counts time this process spent outside
    // MPI, nor a peer process that has not answered yet although its kernel took our connection.
    int64_t handshake_timeout = 5000;
    int64_t connect_timeout = 30000;
    // A peer whose host vanished without a reset: keepalive probes after keepalive_time s of
    // silence (0: none), every keepalive_interval s, keepalive_count unanswered ones end the
    // connection; user_timeout ms that sent data may stay unacknowledged (0: the keepalive's
    // bound, time + interval x count). The job then ends naming the peer and its host.
    int64_t keepalive_time = 10;
    int64_t keepalive_interval = 5;
    int64_t keepalive_count = 3;
    int64_t user_timeout = 0;
    // The core registers these for every BTL (btl_tcp_eager_limit, _max_send_size,
    // _exclusivity); these are tcp's own values, used unless the user sets them.
    uint64_t eager_limit = 64 * 1024;
    uint64_t max_send_size = 128 * 1024;
    uint32_t exclusivity = PLEXUS_BTL_EXCLUSIVITY_LOW;
};

// Largest max_send_size: the receiver holds a whole message in its buffer before delivering it.
inline constexpr uint64_t kMaxSendSizeCap = 16 * 1024 * 1024;

// Registers every parameter with storage in *p (the core writes the effective values there), and
// reads the ones the core registers for every BTL into *p.
int register_tcp_params(const plexus_host_api_t *host, const plexus_component_t *self, TcpParams *p);

// The options every connection gets, from the parameters.
SocketOptions socket_options(const TcpParams &p);

// Empty when p is usable, else one sentence naming the parameter, its value and what is valid.
// (The interface lists are checked against the machine's interfaces: interfaces.h.)
std::string validate_tcp_params(const TcpParams &p);

}  // namespace plexus::btl_tcp
