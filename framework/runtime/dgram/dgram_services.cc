// The plexus_dgram_services table: checks what a component passes, fills the defaults from the
// runtime (job secret, rank) and the parameters, and maps onto Endpoint.
#include "runtime/dgram/dgram_services.h"

#include <cstdio>
#include <cstring>
#include <string>

#include "runtime/dgram/endpoint.h"
#include "runtime/dgram/ib_ud_transport.h"
#include "runtime/dgram/reliable_services.h"
#include "runtime/dgram/udp_transport.h"
#include "runtime/runtime.h"

using plexus::runtime::Status;
using namespace plexus::runtime::dgram;

struct plexus_dgram_endpoint {
    std::unique_ptr<Endpoint> impl;
    std::string error;  // the last failure, for last_error
};

namespace plexus::runtime::dgram {

Endpoint *endpoint_of(plexus_dgram_endpoint_t *ep) { return ep ? ep->impl.get() : nullptr; }

namespace {

int fail(plexus_dgram_endpoint_t *ep, const Status &s) {
    if (ep && !s) ep->error = s.message;
    return s.code;
}

void set_reason(plexus_reason_t *why, const std::string &text) {
    if (why) std::snprintf(why->text, sizeof why->text, "%s", text.c_str());
}

// The key and the sender the caller asked for, or the job's secret and this rank.
Status resolve_identity(const plexus_dgram_open_args_t &a, EndpointConfig *c) {
    Runtime *rt = Runtime::current();
    if (a.key) {
        if (a.key_len < PLEXUS_DGRAM_KEY_MIN)
            return Status::error(PLEXUS_ERR_BAD_PARAM, "key of " + std::to_string(a.key_len) +
                                                           " bytes; at least " +
                                                           std::to_string(PLEXUS_DGRAM_KEY_MIN) + " needed");
        c->key.assign(a.key, a.key + a.key_len);
    } else {
        JobSecret secret;
        if (!rt) return Status::error(PLEXUS_ERR_NOT_AVAILABLE, "the job secret needs the runtime; pass a key");
        if (Status s = rt->secret(&secret); !s) return s;
        c->key.assign(secret.bytes().begin(), secret.bytes().end());
    }
    if (a.sender == PLEXUS_DGRAM_SENDER_RANK) {
        if (!rt) return Status::error(PLEXUS_ERR_NOT_AVAILABLE, "the sender's rank needs the runtime; pass a sender");
        c->sender = rt->job().rank;
    } else {
        c->sender = a.sender;
    }
    c->label = a.label ? a.label : "";
    c->epoch = a.epoch;
    return Status::ok();
}

Status open_transport(const plexus_dgram_open_args_t &a, const Settings &s,
                      std::unique_ptr<Transport> *out) {
    const std::string iface = a.interface ? a.interface : s.interface;
    switch (a.transport) {
    case PLEXUS_DGRAM_UDP: return UdpTransport::open(s, iface, a.port, out);
    case PLEXUS_DGRAM_IB_UD: return open_ib_ud(s, iface, out);
    case PLEXUS_DGRAM_ANY: {
        Status ib = open_ib_ud(s, iface, out);
        if (ib) return ib;
        Status udp = UdpTransport::open(s, iface, a.port, out);
        if (!udp) udp.message += "; InfiniBand UD: " + ib.message;
        return udp;
    }
    }
    return Status::error(PLEXUS_ERR_BAD_PARAM, "transport " + std::to_string(a.transport) +
                                                   " unknown (valid: 0 any, 1 UDP, 2 InfiniBand UD)");
}

int open(const plexus_dgram_open_args_t *args, plexus_dgram_endpoint_t **out, plexus_reason_t *why) {
    if (!args || !out || args->struct_size < offsetof(plexus_dgram_open_args_t, reserved)) {
        set_reason(why, "open: args and out are required, args->struct_size set");
        return PLEXUS_ERR_BAD_PARAM;
    }
    *out = nullptr;
    EndpointConfig config;
    config.settings = dgram_settings_of_process();
    std::unique_ptr<Transport> transport;
    std::unique_ptr<Endpoint> impl;
    Status s = resolve_identity(*args, &config);
    if (s) s = open_transport(*args, config.settings, &transport);
    if (s) s = Endpoint::open(std::move(config), std::move(transport), &impl);
    if (!s) {
        set_reason(why, s.message);
        return s.code;
    }
    *out = new plexus_dgram_endpoint{std::move(impl), {}};
    return PLEXUS_SUCCESS;
}

int close(plexus_dgram_endpoint_t *ep) {
    if (!ep) return PLEXUS_ERR_BAD_PARAM;
    delete ep;
    return PLEXUS_SUCCESS;
}

int address(plexus_dgram_endpoint_t *ep, void *buf, size_t *len) {
    if (!ep || !buf || !len) return PLEXUS_ERR_BAD_PARAM;
    const Address a = ep->impl->address();
    if (*len < a.size()) {
        *len = a.size();
        return fail(ep, Status::error(PLEXUS_ERR_OUT_OF_RESOURCE, "address buffer too small"));
    }
    std::memcpy(buf, a.data(), a.size());
    *len = a.size();
    return PLEXUS_SUCCESS;
}

int limits(plexus_dgram_endpoint_t *ep, plexus_dgram_limits_t *out) {
    if (!ep || !out || out->struct_size < sizeof(plexus_dgram_limits_t)) return PLEXUS_ERR_BAD_PARAM;
    *out = ep->impl->limits();
    return PLEXUS_SUCCESS;
}

bool valid_address(const void *addr, size_t len) {
    return addr && len > 0 && len <= PLEXUS_DGRAM_ADDR_MAX;
}

Address address_of(const void *addr, size_t len) {
    const auto *p = static_cast<const uint8_t *>(addr);
    return Address(p, p + len);
}

int sendv(plexus_dgram_endpoint_t *ep, const void *addr, size_t addr_len, const plexus_dgram_iov_t *iov,
          size_t n) {
    if (!ep) return PLEXUS_ERR_BAD_PARAM;
    if (!valid_address(addr, addr_len) || (n && !iov))
        return fail(ep, Status::error(PLEXUS_ERR_BAD_PARAM, "send: an address and the data are required"));
    for (size_t i = 0; i < n; ++i)
        if (iov[i].len && !iov[i].base)
            return fail(ep, Status::error(PLEXUS_ERR_BAD_PARAM, "send: a piece without its bytes"));
    return fail(ep, ep->impl->send(address_of(addr, addr_len), iov, n));
}

int send(plexus_dgram_endpoint_t *ep, const void *addr, size_t addr_len, const void *data, size_t len) {
    const plexus_dgram_iov_t one{data, len};
    return sendv(ep, addr, addr_len, &one, 1);
}

int group_address(plexus_dgram_endpoint_t *ep, const void *name, size_t name_len, void *addr,
                  size_t *addr_len) {
    if (!ep || (!name && name_len) || !addr || !addr_len) return PLEXUS_ERR_BAD_PARAM;
    const Address a = ep->impl->group_address(name, name_len);
    if (a.empty())
        return fail(ep, Status::error(PLEXUS_ERR_NOT_AVAILABLE,
                                      "no group address: the datagram MAC's libcrypto cannot be loaded"));
    if (*addr_len < a.size()) {
        *addr_len = a.size();
        return fail(ep, Status::error(PLEXUS_ERR_OUT_OF_RESOURCE, "address buffer too small"));
    }
    std::memcpy(addr, a.data(), a.size());
    *addr_len = a.size();
    return PLEXUS_SUCCESS;
}

int join(plexus_dgram_endpoint_t *ep, const void *group, size_t len) {
    if (!ep) return PLEXUS_ERR_BAD_PARAM;
    if (!valid_address(group, len)) return fail(ep, Status::error(PLEXUS_ERR_BAD_PARAM, "join: no group address"));
    return fail(ep, ep->impl->join(address_of(group, len)));
}

int leave(plexus_dgram_endpoint_t *ep, const void *group, size_t len) {
    if (!ep) return PLEXUS_ERR_BAD_PARAM;
    if (!valid_address(group, len)) return fail(ep, Status::error(PLEXUS_ERR_BAD_PARAM, "leave: no group address"));
    return fail(ep, ep->impl->leave(address_of(group, len)));
}

int recv(plexus_dgram_endpoint_t *ep, void *buf, size_t cap, plexus_dgram_recv_info_t *info, int timeout_ms) {
    if (!ep) return PLEXUS_ERR_BAD_PARAM;
    if ((!buf && cap) || (info && info->struct_size < offsetof(plexus_dgram_recv_info_t, from_len)))
        return fail(ep, Status::error(PLEXUS_ERR_BAD_PARAM, "recv: buffer or info->struct_size missing"));
    return fail(ep, ep->impl->recv(buf, cap, info, timeout_ms));
}

int set_handler(plexus_dgram_endpoint_t *ep, plexus_dgram_handler_fn_t fn, void *ctx) {
    if (!ep) return PLEXUS_ERR_BAD_PARAM;
    ep->impl->set_handler(fn, ctx);
    return PLEXUS_SUCCESS;
}

int progress(void *ctx) {
    auto *ep = static_cast<plexus_dgram_endpoint_t *>(ctx);
    return ep ? ep->impl->progress() : 0;
}

int wait_fd(plexus_dgram_endpoint_t *ep, int *fd) {
    if (!ep || !fd) return PLEXUS_ERR_BAD_PARAM;
    *fd = ep->impl->wait_fd();
    return PLEXUS_SUCCESS;
}

int set_epoch(plexus_dgram_endpoint_t *ep, uint32_t epoch) {
    if (!ep) return PLEXUS_ERR_BAD_PARAM;
    return fail(ep, ep->impl->set_epoch(epoch));
}

int stats(plexus_dgram_endpoint_t *ep, plexus_dgram_stats_t *out) {
    if (!ep || !out || out->struct_size < offsetof(plexus_dgram_stats_t, dropped)) return PLEXUS_ERR_BAD_PARAM;
    // An older caller knows fewer reasons: fill what its struct holds.
    const uint32_t callers_size = out->struct_size;
    std::memcpy(out, &ep->impl->stats(), std::min<size_t>(callers_size, sizeof(plexus_dgram_stats_t)));
    out->struct_size = callers_size;
    return PLEXUS_SUCCESS;
}

const char *drop_reason_name(int reason) {
    static const char *const kNames[PLEXUS_DGRAM_DROP_COUNT] = {
        "malformed", "foreign", "auth", "stale", "duplicate", "self",
        "injected", "reassembly_timeout", "reassembly_memory", "kernel"};
    return reason >= 0 && reason < PLEXUS_DGRAM_DROP_COUNT ? kNames[reason] : nullptr;
}

const char *last_error(plexus_dgram_endpoint_t *ep) {
    return ep ? ep->error.c_str() : "no endpoint";
}

}  // namespace

const plexus_dgram_services_t kServices = {
    sizeof(plexus_dgram_services_t), PLEXUS_DGRAM_MAJOR, PLEXUS_DGRAM_MINOR,
    open, close, address, limits, send, sendv, group_address, join, leave,
    recv, set_handler, progress, wait_fd, set_epoch, stats, drop_reason_name, last_error,
    // 1.1
    reliable_api::open, reliable_api::close, reliable_api::send, reliable_api::request,
    reliable_api::respond, reliable_api::progress, reliable_api::wait, reliable_api::stats,
    reliable_api::last_error, reliable_api::op_status, reliable_api::op_response,
    reliable_api::op_error, reliable_api::op_free,
};

}  // namespace plexus::runtime::dgram
