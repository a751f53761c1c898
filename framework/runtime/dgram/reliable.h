// Reliable messages and request/response over one datagram endpoint (DGRAM 1.1): messages cut
// into fragments of one datagram each, selectively acknowledged, retransmitted with exponential
// back-off until acknowledged or the operation's timeout, delivered once. Driven by progress()
// (a progress-engine callback; no thread). docs/datagrams.md, "Reliable messages".
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <plexus/dgram.h>

#include "runtime/dgram/dgram_params.h"
#include "runtime/dgram/incoming_messages.h"
#include "runtime/dgram/outgoing_message.h"
#include "runtime/dgram/transport.h"
#include "runtime/status.h"

namespace plexus::runtime::dgram {
class Reliable;
}

// What a caller holds of one operation; the layer fills it in when the operation ends.
struct plexus_dgram_op {
    plexus::runtime::dgram::Reliable *rel = nullptr;  // set while in flight
    uint64_t id = 0;
    int status = PLEXUS_ERR_AGAIN;
    std::string error;
    std::vector<uint8_t> response;
};

namespace plexus::runtime::dgram {

class Reliable {
public:
    using Clock = std::chrono::steady_clock;
    enum class Kind { oneway, request, response };
    struct Config {
        OutgoingMessage::Timing timing;
        std::chrono::milliseconds timeout{10000};
        plexus_dgram_message_fn_t handler = nullptr;
        void *ctx = nullptr;
    };

    // Takes over ep's handler; ep must outlive the layer.
    static Status open(plexus_dgram_endpoint_t *ep, const Config &config, const Settings &settings,
                       std::unique_ptr<Reliable> *out);
    ~Reliable();
    Reliable(const Reliable &) = delete;
    Reliable &operator=(const Reliable &) = delete;

    // Starts an operation; reply is the request answered (kind response only). *op may be NULL.
    Status send(Kind kind, const Address &to, const plexus_dgram_iov_t *iov, size_t n, int timeout_ms,
                const plexus_dgram_peer_t *reply, plexus_dgram_op_t **op);
    int progress();
    Status wait(plexus_dgram_op_t *op, int timeout_ms);
    // The network says nothing listens at `to` any more: every operation to it fails now
    // (PLEXUS_ERR_UNREACH) rather than at its timeout.
    void unreachable(const Address &to);
    // The caller lets go of op: it is forgotten, no more retransmissions.
    void abandon(plexus_dgram_op_t *op);
    const plexus_dgram_reliable_stats_t &stats() const { return stats_; }
    std::string stats_text() const;

private:
    struct Flight {
        Kind kind;
        Address to;
        std::vector<uint8_t> data;
        RelData shape;
        OutgoingMessage msg;
        Clock::time_point started, deadline;
        plexus_dgram_op_t *op = nullptr;
        bool heard = false;       // an ack came back
        uint32_t peer_sender = 0; // who acked
    };
    struct OwedAck {
        Address to;
        uint32_t frag_count;
    };
    using AckKey = std::pair<IncomingMessages::PeerKey, uint64_t>;

    Reliable(plexus_dgram_endpoint_t *ep, const Config &config, const Settings &settings);
    static void on_datagram(void *ctx, const void *data, size_t len, const plexus_dgram_recv_info_t *info);
    void on_data(const RelData &h, const uint8_t *payload, const plexus_dgram_recv_info_t *info);
    void on_ack(const RelAck &a, const uint8_t *bitmap, const plexus_dgram_recv_info_t *info);
    void deliver(const RelData &h, std::vector<uint8_t> &message, const plexus_dgram_recv_info_t *info);
    int flush_acks();
    // Sends what the flight has due; false when the flight failed (erased).
    int service(std::map<uint64_t, Flight>::iterator it, Clock::time_point now);
    Status transmit(Flight &f, uint64_t id, uint32_t index);
    void finish(std::map<uint64_t, Flight>::iterator it, int status, std::string error);
    std::string describe(uint64_t id, const Flight &f) const;
    void trace(int level, const std::string &text) const;

    plexus_dgram_endpoint_t *ep_;
    Config config_;
    Settings settings_;
    uint64_t incarnation_ = 0;
    uint64_t next_id_ = 0;
    size_t frag_size_ = 0;
    size_t max_bitmap_ = 0;
    std::map<uint64_t, Flight> flights_;
    std::map<AckKey, OwedAck> owed_;
    IncomingMessages incoming_;
    Clock::time_point next_wakeup_ = Clock::time_point::min();
    bool changed_ = false;  // an ack or a new operation: flights may have something due
    plexus_dgram_reliable_stats_t stats_{};
    std::vector<uint32_t> due_;  // scratch
    std::vector<uint8_t> scratch_;
};

}  // namespace plexus::runtime::dgram
