// One datagram endpoint of dpm_ud with the core's reliable layer over it (plexus/dgram.h 1.1):
// opened with a key both sides share (a spawn's or a port's), driven by the progress engine
// while it exists, closed with its counters logged. The starting root sends requests and waits
// for their responses; the answering root takes requests as they arrive (the layer's handler
// keeps them) and responds. Every wait is bounded and says what it waited for.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <plexus/component.h>
#include <plexus/dgram.h>

#include "address.h"
#include "wire.h"

namespace plexus::dpm_ud {

// A request that arrived, decoded, with who sent it (copied: respond may come later).
struct Incoming {
    plexus_dgram_peer_t from{};
    Message message;
};

class Endpoint {
public:
    // sender: the id carried in every datagram (0 for an answering root, random for a starter).
    // interface: NULL for runtime_dgram_if. An error class and *why when it cannot open.
    static int open(const plexus_host_api_t *host, const plexus_component_t *self, const char *interface,
                    const Key &key, uint32_t sender, std::unique_ptr<Endpoint> *out, std::string *why);
    ~Endpoint();
    Endpoint(const Endpoint &) = delete;
    Endpoint &operator=(const Endpoint &) = delete;

    const std::vector<uint8_t> &address() const { return address_; }

    // Sends m to `to` and waits for the response (timeout_ms bounds the whole request).
    int request(const std::vector<uint8_t> &to, const Message &m, int timeout_ms, Message *reply, std::string *why);
    // The first request kept (or arriving within timeout_ms) that `wanted` accepts; requests it
    // declines stay for later calls, except those `stale` says nobody waits for any more.
    int next(const std::function<bool(const Incoming &)> &wanted, const std::function<bool(const Incoming &)> &stale,
             int timeout_ms, Incoming *out, std::string *why);
    // Responds to a request; the response is retransmitted until acknowledged (idle() says when).
    int respond(const plexus_dgram_peer_t &to, const Message &m, std::string *why);
    // No response of ours is still unacknowledged (those that failed count as done).
    bool idle();
    // Reads, acknowledges and retransmits once, for callers blocked on something else.
    void pump();

    // What the endpoint and its reliable layer counted, for the log (drops by reason included).
    std::string counters();
    uint64_t foreign_messages() const { return foreign_; }

private:
    Endpoint(const plexus_host_api_t *host, const plexus_component_t *self);
    static void on_message(void *ctx, const void *data, size_t len, const plexus_dgram_peer_t *from);
    int wait(const std::function<bool()> &done, int timeout_ms);

    const plexus_host_api_t *host_;
    const plexus_component_t *self_;
    const plexus_dgram_services_t *dg_;
    plexus_dgram_endpoint_t *ep_ = nullptr;
    plexus_dgram_reliable_t *rel_ = nullptr;
    bool registered_ = false;
    std::vector<uint8_t> address_;
    std::deque<Incoming> inbox_;
    std::vector<plexus_dgram_op_t *> responses_;  // in flight or done, freed by idle()
    uint64_t foreign_ = 0;                         // authenticated but not a dpm_ud request
};

}  // namespace plexus::dpm_ud
