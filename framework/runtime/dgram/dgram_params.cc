// Registration and reading of runtime_dgram_*.
#include "runtime/dgram/dgram_params.h"

#include <limits>

#include "base/output.h"
#include "base/process_settings.h"
#include "base/param_sources.h"
#include "runtime/runtime.h"
#include "runtime/dgram/wire_format.h"

namespace plexus::runtime::dgram {
namespace {

mca::ParamSpec spec(const char *name, plexus_param_type_t type, std::string def, std::string help,
                    int level) {
    mca::ParamSpec s;
    s.name = std::string("runtime_dgram_") + name;
    s.type = type;
    s.default_text = std::move(def);
    s.help = std::move(help);
    s.level = level;
    s.framework = "runtime";
    s.component = "base";
    return s;
}

mca::ParamSpec ranged(mca::ParamSpec s, int64_t min, int64_t max) {
    s.has_range = true;
    s.min = min;
    s.max = max;
    return s;
}

const mca::Param *find(const mca::ParamRegistry &params, const char *name) {
    return params.find(std::string("runtime_dgram_") + name);
}

}  // namespace

std::string Settings::check() const {
    if (!(drop_rate >= 0.0 && drop_rate <= 1.0))
        return "runtime_dgram_drop_rate " + std::to_string(drop_rate) + " is outside 0..1";
    if (mtu != 0 && mtu < Header::kBytes + 64)
        return "runtime_dgram_mtu " + std::to_string(mtu) + " leaves no room for a payload (at least " +
               std::to_string(Header::kBytes + 64) + ", or 0 for the link's)";
    if (max_message > std::numeric_limits<uint32_t>::max())
        return "runtime_dgram_max_message " + std::to_string(max_message) + " is above 4 GiB - 1";
    return {};
}

std::vector<mca::ParamSpec> dgram_param_specs() {
    const Settings d;
    return {
        spec("if", PLEXUS_PARAM_STRING, d.interface,
             "The interface datagrams use: an interface name (lo, eth0) or one of its IPv4 "
             "addresses for UDP, an HCA with its port (mlx5_0:1) for InfiniBand UD", 4),
        spec("drop_rate", PLEXUS_PARAM_DOUBLE, "0",
             "For tests: the fraction (0..1) of arriving datagrams dropped as if lost, before "
             "they are checked; counted as 'injected'", 9),
        ranged(spec("drop_seed", PLEXUS_PARAM_INT, std::to_string(d.drop_seed),
                    "Seed of runtime_dgram_drop_rate's choices (with the sender id of the "
                    "receiving endpoint), so that a test's losses repeat", 9),
               0, std::numeric_limits<int64_t>::max()),
        spec("mtu", PLEXUS_PARAM_SIZE, "0",
             "The longest datagram sent, header included (0: the link's MTU less the IP and UDP "
             "headers); longer messages are fragmented", 6),
        spec("max_message", PLEXUS_PARAM_SIZE, std::to_string(d.max_message),
             "The longest message an endpoint sends or reassembles", 6),
        spec("reassembly_memory", PLEXUS_PARAM_SIZE, std::to_string(d.reassembly_memory),
             "Bytes of partially received messages an endpoint holds at most; fragments of a "
             "further message are dropped and counted", 6),
        ranged(spec("reassembly_timeout_ms", PLEXUS_PARAM_INT,
                    std::to_string(d.reassembly_timeout.count()),
                    "How long a partially received message waits for its missing fragments", 6),
               1, std::numeric_limits<int>::max()),
        ranged(spec("multicast_ttl", PLEXUS_PARAM_INT, std::to_string(d.multicast_ttl),
                    "IP multicast TTL: 1 keeps multicast on the subnet", 7),
               0, 255),
        spec("rcvbuf", PLEXUS_PARAM_SIZE, std::to_string(d.receive_buffer),
             "Receive buffer asked for every UDP socket (the kernel caps it at "
             "net.core.rmem_max); what overflows it is counted as 'kernel'", 7),
        ranged(spec("rto_ms", PLEXUS_PARAM_INT, std::to_string(d.rto.count()),
                    "Reliable messages: how long a fragment waits for its acknowledgement before "
                    "it is sent again; doubles while the peer stays silent", 6),
               1, 60000),
        ranged(spec("rto_max_ms", PLEXUS_PARAM_INT, std::to_string(d.rto_max.count()),
                    "Reliable messages: the cap of the retransmission timeout's doubling", 6),
               1, 600000),
        ranged(spec("timeout_ms", PLEXUS_PARAM_INT, std::to_string(d.timeout.count()),
                    "Reliable messages: how long a message (a request: with its response) may "
                    "take before it fails with a timeout naming the peer", 5),
               1, std::numeric_limits<int>::max()),
        spec("window", PLEXUS_PARAM_SIZE, std::to_string(d.window),
             "Reliable messages: bytes of one message sent and not yet acknowledged at most "
             "(at least one fragment), so that a large message does not overflow the receiver's "
             "socket buffer", 7),
        ranged(spec("verbose", PLEXUS_PARAM_INT, "0",
                    "Trace reliable messages: 1 counters when a reliable layer closes and every "
                    "timeout, 10 every message completed, 50 every retransmission", 8),
               0, 100),
    };
}

Settings dgram_settings(const mca::ParamRegistry &params) {
    Settings s;
    if (auto *p = find(params, "if")) s.interface = p->value.text;
    if (auto *p = find(params, "drop_rate")) s.drop_rate = p->value.d;
    if (auto *p = find(params, "drop_seed")) s.drop_seed = static_cast<uint64_t>(p->value.i);
    if (auto *p = find(params, "mtu")) s.mtu = p->value.u;
    if (auto *p = find(params, "max_message")) s.max_message = p->value.u;
    if (auto *p = find(params, "reassembly_memory")) s.reassembly_memory = p->value.u;
    if (auto *p = find(params, "reassembly_timeout_ms"))
        s.reassembly_timeout = std::chrono::milliseconds(p->value.i);
    if (auto *p = find(params, "multicast_ttl")) s.multicast_ttl = static_cast<int>(p->value.i);
    if (auto *p = find(params, "rcvbuf")) s.receive_buffer = p->value.u;
    if (auto *p = find(params, "rto_ms")) s.rto = std::chrono::milliseconds(p->value.i);
    if (auto *p = find(params, "rto_max_ms")) s.rto_max = std::chrono::milliseconds(p->value.i);
    if (auto *p = find(params, "timeout_ms")) s.timeout = std::chrono::milliseconds(p->value.i);
    if (auto *p = find(params, "window")) s.window = p->value.u;
    if (auto *p = find(params, "verbose")) s.verbose = static_cast<int>(p->value.i);
    return s;
}

Settings dgram_settings_of_process() {
    if (Runtime *rt = Runtime::current()) return rt->settings().dgram;
    mca::ParamRegistry params(mca::process_settings().settings);
    std::string err;
    for (auto &s : dgram_param_specs()) params.register_param(std::move(s), nullptr, &err);
    for (const auto &e : params.errors()) mca::warn_once("runtime", e);
    return dgram_settings(params);
}

}  // namespace plexus::runtime::dgram
