// One datagram endpoint: fragments, authenticates and sends messages over a transport; reads,
// checks (format, key, tag, epoch, replay), reassembles and delivers what arrives; counts what
// it sent, received and dropped, by reason.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <plexus/dgram.h>

#include "runtime/dgram/authenticator.h"
#include "runtime/dgram/dgram_params.h"
#include "runtime/dgram/loss_injector.h"
#include "runtime/dgram/reassembly.h"
#include "runtime/dgram/replay_guard.h"
#include "runtime/dgram/transport.h"

namespace plexus::runtime::dgram {

struct EndpointConfig {
    Settings settings;
    std::vector<uint8_t> key;  // the secret every peer shares
    std::string label;
    uint32_t sender = 0;
    uint32_t epoch = 0;
};

class Endpoint {
public:
    static Status open(EndpointConfig config, std::unique_ptr<Transport> transport,
                       std::unique_ptr<Endpoint> *out);

    Address address() const { return transport_->local_address(); }
    plexus_dgram_limits_t limits() const;

    Status send(const Address &to, const plexus_dgram_iov_t *iov, size_t n);

    Address group_address(const void *name, size_t len) const;
    Status join(const Address &group) { return transport_->join(group); }
    Status leave(const Address &group) { return transport_->leave(group); }

    // The next message into buf (see plexus_dgram_services.recv).
    Status recv(void *buf, size_t cap, plexus_dgram_recv_info_t *info, int timeout_ms);
    void set_handler(plexus_dgram_handler_fn_t fn, void *ctx) {
        handler_ = fn;
        handler_ctx_ = ctx;
    }
    // Reads what has arrived; with a handler, delivers it; returns the messages delivered.
    int progress();
    int wait_fd() const { return transport_->wait_fd(); }
    // Told (from progress) of every address the network says nothing listens at any more
    // (Transport::take_unreachable); the reliable layer fails what it sends there.
    using UnreachableFn = void (*)(void *ctx, const Address &to);
    void set_unreachable_handler(UnreachableFn fn, void *ctx) {
        unreachable_fn_ = fn;
        unreachable_ctx_ = ctx;
    }

    Status set_epoch(uint32_t epoch);
    const plexus_dgram_stats_t &stats() const { return stats_; }

private:
    struct Message {
        std::vector<uint8_t> data;
        plexus_dgram_recv_info_t info;
    };
    static constexpr int kBudget = 64;  // datagrams read per progress call

    Endpoint() = default;
    Status send_fragment(const Address &to, Header &h, const plexus_dgram_iov_t *iov, size_t n,
                         size_t offset);
    // Reads up to budget datagrams; returns the messages delivered to the handler.
    int pump(int budget);
    int accept(const RawDatagram &raw);
    int deliver(const uint8_t *data, size_t len, const Header &h, const RawDatagram &raw,
                std::vector<uint8_t> *owned);
    void drop(plexus_dgram_drop_t why, uint64_t n = 1) { stats_.dropped[why] += n; }
    void expire_partials();

    EndpointConfig config_;
    std::unique_ptr<Transport> transport_;
    std::unique_ptr<Authenticator> auth_;
    std::unique_ptr<ReplayGuard> guard_;
    std::unique_ptr<Reassembly> reassembly_;
    std::unique_ptr<LossInjector> loss_;
    uint64_t salt_ = 0;
    uint64_t next_seq_ = 0;
    uint32_t epoch_ = 0;
    size_t max_payload_ = 0;
    std::vector<uint8_t> rx_;  // one datagram
    std::deque<Message> ready_;
    size_t ready_bytes_ = 0;
    plexus_dgram_handler_fn_t handler_ = nullptr;
    void *handler_ctx_ = nullptr;
    UnreachableFn unreachable_fn_ = nullptr;
    void *unreachable_ctx_ = nullptr;
    std::vector<Address> unreachable_;  // scratch for pump
    Reassembly::Clock::time_point next_expiry_{};
    plexus_dgram_stats_t stats_{};
};

}  // namespace plexus::runtime::dgram
