// The reliable_* and op_* members of plexus_dgram_services: what a component passes is checked
// here (a bad argument is PLEXUS_ERR_BAD_PARAM, never a crash), then handed to Reliable.
#include "runtime/dgram/reliable_services.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "runtime/dgram/dgram_params.h"
#include "runtime/dgram/reliable.h"

using plexus::runtime::Status;
using plexus::runtime::dgram::Address;
using plexus::runtime::dgram::Reliable;

struct plexus_dgram_reliable {
    std::unique_ptr<Reliable> impl;
    std::string error;  // the last failed call's, for reliable_last_error
};

namespace plexus::runtime::dgram::reliable_api {
namespace {

int fail(plexus_dgram_reliable_t *rel, const Status &s) {
    if (rel && !s) rel->error = s.message;
    return s.code;
}

bool valid_iov(const plexus_dgram_iov_t *iov, size_t n) {
    if (n && !iov) return false;
    for (size_t i = 0; i < n; ++i)
        if (iov[i].len && !iov[i].base) return false;
    return true;
}

std::chrono::milliseconds or_default(int32_t ms, std::chrono::milliseconds fallback) {
    return ms > 0 ? std::chrono::milliseconds(ms) : fallback;
}

int start(Reliable::Kind kind, plexus_dgram_reliable_t *rel, const void *addr, size_t addr_len,
          const plexus_dgram_iov_t *iov, size_t n, int timeout_ms, const plexus_dgram_peer_t *reply,
          plexus_dgram_op_t **op) {
    if (!rel) return PLEXUS_ERR_BAD_PARAM;
    if (op) *op = nullptr;
    if (!addr || addr_len == 0 || addr_len > PLEXUS_DGRAM_ADDR_MAX)
        return fail(rel, Status::error(PLEXUS_ERR_BAD_PARAM, "reliable send: no peer address (addr, addr_len)"));
    if (!valid_iov(iov, n))
        return fail(rel, Status::error(PLEXUS_ERR_BAD_PARAM, "reliable send: iov has a piece without its bytes"));
    const auto *a = static_cast<const uint8_t *>(addr);
    return fail(rel, rel->impl->send(kind, Address(a, a + addr_len), iov, n, timeout_ms, reply, op));
}

}  // namespace

int open(plexus_dgram_endpoint_t *ep, const plexus_dgram_reliable_args_t *args, plexus_dgram_reliable_t **out,
         plexus_reason_t *why) {
    if (!ep || !out || (args && args->struct_size < sizeof(plexus_dgram_reliable_args_t))) {
        if (why) std::snprintf(why->text, sizeof why->text, "reliable_open: ep and out are required, args->struct_size set");
        return PLEXUS_ERR_BAD_PARAM;
    }
    *out = nullptr;
    const Settings settings = dgram_settings_of_process();
    Reliable::Config config;
    config.timing.rto = or_default(args ? args->rto_ms : 0, settings.rto);
    config.timing.rto_max = std::max(config.timing.rto, or_default(args ? args->rto_max_ms : 0, settings.rto_max));
    config.timing.window = settings.window;
    config.timeout = or_default(args ? args->timeout_ms : 0, settings.timeout);
    config.handler = args ? args->handler : nullptr;
    config.ctx = args ? args->ctx : nullptr;
    std::unique_ptr<Reliable> impl;
    if (Status s = Reliable::open(ep, config, settings, &impl); !s) {
        if (why) std::snprintf(why->text, sizeof why->text, "%s", s.message.c_str());
        return s.code;
    }
    *out = new plexus_dgram_reliable{std::move(impl), {}};
    return PLEXUS_SUCCESS;
}

int close(plexus_dgram_reliable_t *rel) {
    if (!rel) return PLEXUS_ERR_BAD_PARAM;
    delete rel;
    return PLEXUS_SUCCESS;
}

int send(plexus_dgram_reliable_t *rel, const void *addr, size_t addr_len, const plexus_dgram_iov_t *iov, size_t n,
         int timeout_ms, plexus_dgram_op_t **op) {
    return start(Reliable::Kind::oneway, rel, addr, addr_len, iov, n, timeout_ms, nullptr, op);
}

int request(plexus_dgram_reliable_t *rel, const void *addr, size_t addr_len, const plexus_dgram_iov_t *iov,
            size_t n, int timeout_ms, plexus_dgram_op_t **op) {
    return start(Reliable::Kind::request, rel, addr, addr_len, iov, n, timeout_ms, nullptr, op);
}

int respond(plexus_dgram_reliable_t *rel, const plexus_dgram_peer_t *from, const plexus_dgram_iov_t *iov, size_t n,
            plexus_dgram_op_t **op) {
    if (!rel) return PLEXUS_ERR_BAD_PARAM;
    if (op) *op = nullptr;
    if (!from || from->request == 0 || from->addr_len == 0 || from->addr_len > PLEXUS_DGRAM_ADDR_MAX)
        return fail(rel, Status::error(PLEXUS_ERR_BAD_PARAM,
                                       "respond: from is not a request's sender (from->request is 0 or no address)"));
    return start(Reliable::Kind::response, rel, from->addr, from->addr_len, iov, n, 0, from, op);
}

int progress(void *rel) {
    auto *r = static_cast<plexus_dgram_reliable_t *>(rel);
    return r ? r->impl->progress() : 0;
}

int wait(plexus_dgram_reliable_t *rel, plexus_dgram_op_t *op, int timeout_ms) {
    if (!rel || !op) return PLEXUS_ERR_BAD_PARAM;
    if (op->rel && op->rel != rel->impl.get())
        return fail(rel, Status::error(PLEXUS_ERR_BAD_PARAM, "wait: op belongs to another reliable layer"));
    return fail(rel, rel->impl->wait(op, timeout_ms));
}

int stats(plexus_dgram_reliable_t *rel, plexus_dgram_reliable_stats_t *out) {
    if (!rel || !out || out->struct_size < offsetof(plexus_dgram_reliable_stats_t, sent)) return PLEXUS_ERR_BAD_PARAM;
    // An older caller's struct holds fewer counters: fill what it has room for.
    const uint32_t callers_size = out->struct_size;
    std::memcpy(out, &rel->impl->stats(), std::min<size_t>(callers_size, sizeof(plexus_dgram_reliable_stats_t)));
    out->struct_size = callers_size;
    return PLEXUS_SUCCESS;
}

const char *last_error(plexus_dgram_reliable_t *rel) { return rel ? rel->error.c_str() : "no reliable layer"; }

int op_status(const plexus_dgram_op_t *op) { return op ? op->status : PLEXUS_ERR_BAD_PARAM; }

int op_response(const plexus_dgram_op_t *op, const void **data, size_t *len) {
    if (!op || !data || !len) return PLEXUS_ERR_BAD_PARAM;
    if (op->status != PLEXUS_SUCCESS) return op->status;
    *data = op->response.data();
    *len = op->response.size();
    return PLEXUS_SUCCESS;
}

const char *op_error(const plexus_dgram_op_t *op) { return op ? op->error.c_str() : "no operation"; }

int op_free(plexus_dgram_op_t *op) {
    if (!op) return PLEXUS_ERR_BAD_PARAM;
    if (op->rel) op->rel->abandon(op);
    delete op;
    return PLEXUS_SUCCESS;
}

}  // namespace plexus::runtime::dgram::reliable_api
