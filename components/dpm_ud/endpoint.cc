// The endpoint: open, request/response over the reliable layer, close.
#include "endpoint.h"

#include <poll.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstring>

#include <plexus/sdk/host.hpp>

namespace plexus::dpm_ud {
namespace {

constexpr const char *kLabel = "dpm_ud";

}  // namespace

Endpoint::Endpoint(const plexus_host_api_t *host, const plexus_component_t *self)
    : host_(host), self_(self), dg_(host->dgram) {}

int Endpoint::open(const plexus_host_api_t *host, const plexus_component_t *self, const char *interface,
                   const Key &key, uint32_t sender, std::unique_ptr<Endpoint> *out, std::string *why) {
    if (!PLEXUS_HOST_HAS(host, dgram) || !PLEXUS_HOST_HAS(host, progress_wait) || host->dgram->minor < 1 ||
        host->dgram->struct_size < offsetof(plexus_dgram_services_t, op_free) + sizeof host->dgram->op_free)
        return *why = "the core has no reliable datagrams (host API 1.3, dgram 1.1)", PLEXUS_ERR_NOT_AVAILABLE;
    std::unique_ptr<Endpoint> e(new Endpoint(host, self));
    const plexus_dgram_services_t *dg = e->dg_;
    plexus_dgram_open_args_t args{};
    args.struct_size = sizeof args;
    args.transport = PLEXUS_DGRAM_ANY;
    args.interface = interface && *interface ? interface : nullptr;
    args.key = key.data();
    args.key_len = key.size();
    args.label = kLabel;
    args.sender = sender;
    plexus_reason_t reason{};
    if (int rc = dg->open(&args, &e->ep_, &reason); rc != PLEXUS_SUCCESS) return *why = reason.text, rc;
    uint8_t addr[PLEXUS_DGRAM_ADDR_MAX];
    size_t len = sizeof addr;
    if (int rc = dg->address(e->ep_, addr, &len); rc != PLEXUS_SUCCESS) return *why = dg->last_error(e->ep_), rc;
    e->address_.assign(addr, addr + len);
    plexus_dgram_reliable_args_t ra{};
    ra.struct_size = sizeof ra;
    ra.handler = &Endpoint::on_message;
    ra.ctx = e.get();
    if (int rc = dg->reliable_open(e->ep_, &ra, &e->rel_, &reason); rc != PLEXUS_SUCCESS) return *why = reason.text, rc;
    // While it exists the engine drives it: requests are acknowledged (and kept) whenever this
    // process is inside MPI, not only while a root waits for them.
    if (int rc = host->progress_register(dg->reliable_progress, e->rel_); rc != PLEXUS_SUCCESS)
        return *why = "progress_register failed", rc;
    e->registered_ = true;
    *out = std::move(e);
    return PLEXUS_SUCCESS;
}

Endpoint::~Endpoint() {
    if (registered_) host_->progress_unregister(dg_->reliable_progress, rel_);
    for (plexus_dgram_op_t *op : responses_) dg_->op_free(op);
    if (rel_ && host_->verbosity && host_->verbosity(self_) >= PLEXUS_LOG_DETAIL)
        host_->log(self_, PLEXUS_LOG_DETAIL, "endpoint %s closed: %s", address_text(address_).c_str(), counters().c_str());
    if (rel_) dg_->reliable_close(rel_);
    if (ep_) dg_->close(ep_);
}

void Endpoint::on_message(void *ctx, const void *data, size_t len, const plexus_dgram_peer_t *from) {
    auto *e = static_cast<Endpoint *>(ctx);
    std::string why;
    std::optional<Message> m = decode(static_cast<const uint8_t *>(data), len, &why);
    // Only requests start anything here; one-way messages and garbage under our key are counted.
    if (!from->request || !m) {
        ++e->foreign_;
        e->host_->log(e->self_, PLEXUS_LOG_DETAIL, "dropped a message from %s: %s",
                      address_text({from->addr, from->addr + from->addr_len}).c_str(),
                      m ? "not a request" : why.c_str());
        return;
    }
    e->inbox_.push_back({*from, std::move(*m)});
}

int Endpoint::wait(const std::function<bool()> &done, int timeout_ms) {
    auto fn = [](void *ctx) { return (*static_cast<const std::function<bool()> *>(ctx))() ? 1 : 0; };
    void *ctx = const_cast<std::function<bool()> *>(&done);
    // An answer from a peer that has a CPU comes within tens of microseconds: the engine's own
    // wait (spinning, then yielding) catches it. A longer wait is for the other group's
    // collective steps: the engine's back-off would sleep ever longer (up to 2 ms in a dpm call)
    // and miss the answer by up to that much, so the root sleeps in poll on the endpoint instead,
    // woken by the datagram itself, with an engine pass after each wake-up and at least every
    // 2 ms (the cap dpm calls give the engine's sleeps, so a long wait wakes no more often).
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::milliseconds(timeout_ms);
    constexpr auto kPolling = std::chrono::microseconds(200);
    constexpr int64_t kEnginePassMs = 2;
    do {
        if (host_->progress_wait(fn, ctx, 0) == PLEXUS_SUCCESS) return PLEXUS_SUCCESS;
        sched_yield();
    } while (Clock::now() - start < kPolling);
    int fd = -1;
    if (dg_->wait_fd(ep_, &fd) != PLEXUS_SUCCESS || fd < 0) return host_->progress_wait(fn, ctx, timeout_ms);
    for (;;) {
        if (host_->progress_wait(fn, ctx, 0) == PLEXUS_SUCCESS) return PLEXUS_SUCCESS;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) return PLEXUS_ERR_TIMEOUT;
        pollfd p{fd, POLLIN, 0};
        (void)::poll(&p, 1, static_cast<int>(std::min<int64_t>(left, kEnginePassMs)));
    }
}

int Endpoint::request(const std::vector<uint8_t> &to, const Message &m, int timeout_ms, Message *reply,
                      std::string *why) {
    const Bytes bytes = encode(m);
    plexus_dgram_iov_t iov{bytes.data(), bytes.size()};
    plexus_dgram_op_t *op = nullptr;
    if (int rc = dg_->reliable_request(rel_, to.data(), to.size(), &iov, 1, timeout_ms, &op); rc != PLEXUS_SUCCESS)
        return *why = std::string("sending ") + kind_name(m.kind) + ": " + dg_->reliable_last_error(rel_), rc;
    // The op's own timeout ends it; the wait's bound only guards against a layer that stops.
    wait([&] { return dg_->op_status(op) != PLEXUS_ERR_AGAIN; }, timeout_ms + 1000);
    int rc = dg_->op_status(op);
    if (rc == PLEXUS_ERR_AGAIN) rc = PLEXUS_ERR_TIMEOUT;
    if (rc != PLEXUS_SUCCESS) {
        *why = std::string(kind_name(m.kind)) + " to " + address_text(to) + ": " +
               (dg_->op_error(op)[0] ? dg_->op_error(op) : "no answer");
        dg_->op_free(op);
        return rc;
    }
    const void *data = nullptr;
    size_t len = 0;
    dg_->op_response(op, &data, &len);
    std::optional<Message> got = decode(static_cast<const uint8_t *>(data), len, why);
    dg_->op_free(op);
    if (!got) return *why = "the answer to " + std::string(kind_name(m.kind)) + " from " + address_text(to) +
                            " is malformed: " + *why,
                  PLEXUS_ERROR;
    *reply = std::move(*got);
    return PLEXUS_SUCCESS;
}

int Endpoint::next(const std::function<bool(const Incoming &)> &wanted,
                   const std::function<bool(const Incoming &)> &stale, int timeout_ms, Incoming *out,
                   std::string *why) {
    auto take = [&] {
        for (auto it = inbox_.begin(); it != inbox_.end();) {
            if (stale && stale(*it)) {
                it = inbox_.erase(it);
                continue;
            }
            if (wanted(*it)) {
                *out = std::move(*it);
                inbox_.erase(it);
                return true;
            }
            ++it;
        }
        return false;
    };
    if (take()) return PLEXUS_SUCCESS;
    bool found = false;
    wait([&] { return found = take(); }, timeout_ms);
    if (found) return PLEXUS_SUCCESS;
    *why = "nothing arrived at " + address_text(address_) + " within " + std::to_string(timeout_ms) + " ms";
    return PLEXUS_ERR_TIMEOUT;
}

int Endpoint::respond(const plexus_dgram_peer_t &to, const Message &m, std::string *why) {
    const Bytes bytes = encode(m);
    plexus_dgram_iov_t iov{bytes.data(), bytes.size()};
    plexus_dgram_op_t *op = nullptr;
    if (int rc = dg_->reliable_respond(rel_, &to, &iov, 1, &op); rc != PLEXUS_SUCCESS)
        return *why = std::string("responding ") + kind_name(m.kind) + ": " + dg_->reliable_last_error(rel_), rc;
    responses_.push_back(op);
    return PLEXUS_SUCCESS;
}

bool Endpoint::idle() {
    for (auto it = responses_.begin(); it != responses_.end();) {
        if (dg_->op_status(*it) == PLEXUS_ERR_AGAIN) return false;
        dg_->op_free(*it);
        it = responses_.erase(it);
    }
    return true;
}

void Endpoint::pump() { dg_->reliable_progress(rel_); }

std::string Endpoint::counters() {
    plexus_dgram_stats_t s{};
    s.struct_size = sizeof s;
    plexus_dgram_reliable_stats_t r{};
    r.struct_size = sizeof r;
    dg_->stats(ep_, &s);
    dg_->reliable_stats(rel_, &r);
    std::string out = "messages sent " + std::to_string(r.sent) + " (timeouts " + std::to_string(r.timeouts) +
                      "), fragments " + std::to_string(r.fragments) + ", retransmitted " +
                      std::to_string(r.retransmitted) + ", delivered " + std::to_string(r.delivered) +
                      ", duplicates " + std::to_string(r.duplicates) + ", not dpm_ud " + std::to_string(foreign_) +
                      "; datagrams dropped:";
    for (int i = 0; i < PLEXUS_DGRAM_DROP_COUNT; ++i)
        out += std::string(" ") + dg_->drop_reason_name(i) + " " + std::to_string(s.dropped[i]);
    return out;
}

}  // namespace plexus::dpm_ud
