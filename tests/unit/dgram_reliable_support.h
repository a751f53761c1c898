// Helpers for the reliable layer's tests (DGRAM 1.1): a layer over an endpoint, closed before
// it, and a responder that answers every request from a thread of its own until stopped.
#pragma once

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>

#include "dgram_test_support.h"

namespace plexus::test::dgram {

// What the responder answers: the request reversed, behind a one-byte marker, so that a
// response cannot be mistaken for an echo.
inline Bytes answer_to(const uint8_t *data, size_t len) {
    Bytes r(data, data + len);
    std::reverse(r.begin(), r.end());
    r.insert(r.begin(), 0xA5);
    return r;
}

struct RelOptions {
    int timeout_ms = 20000;
    int rto_ms = 5;
    int rto_max_ms = 100;
    plexus_dgram_message_fn_t handler = nullptr;
    void *ctx = nullptr;
};

// A reliable layer over its own endpoint.
class RelEp {
public:
    RelEp(uint32_t sender, const RelOptions &o = {}, OpenOptions open = {}) : ep(open_udp(sender, open)) {
        plexus_dgram_reliable_args_t a{};
        a.struct_size = sizeof a;
        a.timeout_ms = o.timeout_ms;
        a.rto_ms = o.rto_ms;
        a.rto_max_ms = o.rto_max_ms;
        a.handler = o.handler;
        a.ctx = o.ctx;
        plexus_reason_t why{};
        EXPECT_EQ(dg().reliable_open(ep.p, &a, &rel, &why), PLEXUS_SUCCESS) << why.text;
    }
    RelEp(const RelEp &) = delete;
    RelEp &operator=(const RelEp &) = delete;
    ~RelEp() {
        if (rel) dg().reliable_close(rel);
    }
    plexus_dgram_reliable_stats_t stats() const {
        plexus_dgram_reliable_stats_t s{};
        s.struct_size = sizeof s;
        EXPECT_EQ(dg().reliable_stats(rel, &s), PLEXUS_SUCCESS);
        return s;
    }
    // Starts a request of msg to `to`; the op is the caller's to free.
    plexus_dgram_op_t *request(const Bytes &to, const Bytes &msg, int timeout_ms = 0) {
        const plexus_dgram_iov_t iov{msg.data(), msg.size()};
        plexus_dgram_op_t *op = nullptr;
        EXPECT_EQ(dg().reliable_request(rel, to.data(), to.size(), &iov, 1, timeout_ms, &op), PLEXUS_SUCCESS)
            << dg().reliable_last_error(rel);
        return op;
    }
    plexus_dgram_op_t *send(const Bytes &to, const Bytes &msg, int timeout_ms = 0) {
        const plexus_dgram_iov_t iov{msg.data(), msg.size()};
        plexus_dgram_op_t *op = nullptr;
        EXPECT_EQ(dg().reliable_send(rel, to.data(), to.size(), &iov, 1, timeout_ms, &op), PLEXUS_SUCCESS)
            << dg().reliable_last_error(rel);
        return op;
    }
    Bytes response(const plexus_dgram_op_t *op) const {
        const void *data = nullptr;
        size_t len = 0;
        if (dg().op_response(op, &data, &len) != PLEXUS_SUCCESS) return {};
        const auto *p = static_cast<const uint8_t *>(data);
        return Bytes(p, p + len);
    }
    Ep ep;
    plexus_dgram_reliable_t *rel = nullptr;
};

// Answers every request with answer_to(request) and counts what it was handed, driving its
// layer from its own thread (each endpoint is used by one thread) until destroyed.
class Responder {
public:
    explicit Responder(uint32_t sender, bool answer = true, OpenOptions open = {}) : answer_(answer) {
        RelOptions o;
        o.handler = &Responder::on_message;
        o.ctx = this;
        side_ = std::make_unique<RelEp>(sender, o, open);
        address_ = side_->ep.address();
        thread_ = std::thread([this] {
            int fd = -1;
            dg().wait_fd(side_->ep.p, &fd);
            // Sleeps in poll when idle (the machine's cores are shared), never longer than 1 ms,
            // so that its own retransmission timers run on time.
            for (int idle = 0; !stop_.load();) {
                if (dg().reliable_progress(side_->rel) > 0) {
                    idle = 0;
                } else if (++idle > 32) {
                    pollfd p{fd, POLLIN, 0};
                    (void)::poll(&p, 1, 1);
                }
            }
        });
    }
    ~Responder() { stop(); }
    // Stops the thread; the counters may be read after this.
    void stop() {
        stop_ = true;
        if (thread_.joinable()) thread_.join();
    }
    const Bytes &address() const { return address_; }
    RelEp &side() { return *side_; }
    int handled() const { return handled_.load(); }

private:
    static void on_message(void *ctx, const void *data, size_t len, const plexus_dgram_peer_t *from) {
        auto *self = static_cast<Responder *>(ctx);
        self->handled_++;
        if (!self->answer_ || from->request == 0) return;
        const Bytes r = answer_to(static_cast<const uint8_t *>(data), len);
        const plexus_dgram_iov_t iov{r.data(), r.size()};
        EXPECT_EQ(dg().reliable_respond(self->side_->rel, from, &iov, 1, nullptr), PLEXUS_SUCCESS);
    }
    bool answer_;
    std::unique_ptr<RelEp> side_;
    Bytes address_;
    std::atomic<bool> stop_{false};
    std::atomic<int> handled_{0};
    std::thread thread_;
};

}  // namespace plexus::test::dgram
