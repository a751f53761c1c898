#include "tcp_params.h"

#include <cstring>
#include <string>

#include <plexus/sdk/btl_limits.hpp>
#include <plexus/sdk/param.hpp>

namespace plexus::btl_tcp {
namespace {

std::string size_text(uint64_t v) { return std::to_string(v) + " bytes"; }

}  // namespace

int register_tcp_params(const plexus_host_api_t *host, const plexus_component_t *self, TcpParams *p) {
    using namespace plexus::sdk;
    const int rc = register_params(host, self, {
        string_param("if_include", &p->if_include, "",
                     "Interfaces to use, comma-separated: names (eth0) or IPv4 CIDRs (10.1.0.0/16). "
                     "Empty: every IPv4 interface that is up. Not together with btl_tcp_if_exclude.",
                     2),
        string_param("if_exclude", &p->if_exclude, "",
                     "Interfaces not to use, comma-separated: names or IPv4 CIDRs. Loopback addresses "
                     "are only ever used between processes of one node. Not together with "
                     "btl_tcp_if_include.",
                     2),
        int_param("port_min", &p->port_min, "0",
                  "First TCP port to listen on (with btl_tcp_port_range); 0: any port the kernel "
                  "chooses. Default 0.",
                  4).range(0, 65535),
        int_param("port_range", &p->port_range, "100",
                  "Ports tried from btl_tcp_port_min on when it is set. Default 100.", 4).range(1, 65535),
        size_param("sndbuf", &p->sndbuf, "0",
                   "SO_SNDBUF of every connection; 0 leaves the kernel's autotuning. Default 0.", 4),
        size_param("rcvbuf", &p->rcvbuf, "0",
                   "SO_RCVBUF of every connection; 0 leaves the kernel's autotuning. Default 0.", 4),
        size_param("max_queued", &p->max_queued, "4m",
                   "Bytes accepted for one peer and not yet taken by its socket before sends to it "
                   "wait (the PML retries them after progress). At least btl_tcp_max_send_size. "
                   "Default 4m.",
                   6),
        int_param("handshake_timeout", &p->handshake_timeout, "5000",
                  "Milliseconds an incoming connection has to prove the job secret while this process "
                  "makes MPI calls, before it is closed and counted as refused. Default 5000.",
                  5).range(1, 3'600'000),
        int_param("connect_timeout", &p->connect_timeout, "30000",
                  "Milliseconds to reach a peer (connect, handshake, or its own connection when both "
                  "connect at once) while this process makes MPI calls, before the job ends with an "
                  "error naming it. A peer whose kernel took the connection but whose process has "
                  "not answered yet (it computes outside MPI) is waited for without limit, as a busy "
                  "receiver is over shared memory. Default 30000.",
                  5).range(1, 3'600'000),
        int_param("keepalive_time", &p->keepalive_time, "10",
                  "Seconds a connection may be silent before TCP keepalive probes ask the peer's host "
                  "whether it is still there (a host that vanished without a reset: power, link, a "
                  "deleted namespace); 0: no probes. Default 10.",
                  5).range(0, 32767),
        int_param("keepalive_interval", &p->keepalive_interval, "5",
                  "Seconds between keepalive probes. Default 5.", 5).range(1, 32767),
        int_param("keepalive_count", &p->keepalive_count, "3",
                  "Unanswered keepalive probes that end the connection, and with it the job, naming "
                  "the peer and its host. Default 3 (a vanished host is noticed after 10 + 5 x 3 = 25 s).",
                  5).range(1, 127),
        int_param("user_timeout", &p->user_timeout, "0",
                  "Milliseconds that sent data may stay unacknowledged by the peer's host before the "
                  "connection, and the job, ends (TCP_USER_TIMEOUT); it also bounds a probed idle "
                  "connection. 0: the keepalive's bound (keepalive_time + keepalive_interval x "
                  "keepalive_count), or the kernel's retransmission limits (about 15 minutes) when "
                  "keepalive_time is 0. Default 0.",
                  5).range(0, 2'000'000'000),
    });
    if (rc != PLEXUS_SUCCESS) return rc;
    // btl_tcp_eager_limit, _max_send_size and _exclusivity are the core's (every BTL has them).
    read_btl_limits(host, self, p);
    return PLEXUS_SUCCESS;
}

SocketOptions socket_options(const TcpParams &p) {
    SocketOptions o;
    o.sndbuf = p.sndbuf;
    o.rcvbuf = p.rcvbuf;
    o.keepalive_time = static_cast<int>(p.keepalive_time);
    o.keepalive_interval = static_cast<int>(p.keepalive_interval);
    o.keepalive_count = static_cast<int>(p.keepalive_count);
    o.user_timeout_ms = static_cast<int>(p.user_timeout);
    return o;
}

std::string validate_tcp_params(const TcpParams &p) {
    if (std::string bad = sdk::check_btl_limits("tcp", sdk::limits_of(p)); !bad.empty()) return bad;
    if (p.max_send_size > kMaxSendSizeCap)
        return "btl_tcp_max_send_size is " + size_text(p.max_send_size) + "; valid: from btl_tcp_eager_limit to 16m";
    if (std::string bad = sdk::check_max_queued("tcp", p.max_queued, p.max_send_size); !bad.empty()) return bad;
    if (p.port_min > 0 && p.port_min + p.port_range - 1 > 65535)
        return "btl_tcp_port_min " + std::to_string(p.port_min) + " with btl_tcp_port_range " +
               std::to_string(p.port_range) + " goes past port 65535";
    if (p.sndbuf > (1u << 30) || p.rcvbuf > (1u << 30))
        return "btl_tcp_sndbuf/rcvbuf are " + size_text(p.sndbuf) + "/" + size_text(p.rcvbuf) +
               "; valid: 0 (the kernel's) up to 1g";
    return sdk::check_if_lists("tcp", p.if_include, p.if_exclude);
}

}  // namespace plexus::btl_tcp
