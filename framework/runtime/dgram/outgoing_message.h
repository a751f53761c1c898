// One reliable message on its way: which of its fragments to send now (new ones within the
// window, ones presumed lost because a later one was acknowledged, the oldest unacknowledged ones
// (a bounded burst) when the retransmission timer fires), the timer's exponential back-off while
// the peer stays silent, and the acknowledgements that have come back. No I/O: the reliable layer
// sends what it says.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

namespace plexus::runtime::dgram {

class OutgoingMessage {
public:
    using Clock = std::chrono::steady_clock;
    struct Timing {
        std::chrono::milliseconds rto{20};      // the first retransmission timeout
        std::chrono::milliseconds rto_max{1000};
        size_t window = 256u << 10;             // bytes sent and unacknowledged at most
    };
    static constexpr size_t kTimerBurst = 16;  // fragments resent when the timer fires
    // Why fragments are due.
    enum class Cause { none, fresh, presumed_lost, timer };

    OutgoingMessage(size_t len, size_t frag_size, const Timing &timing);

    uint32_t count() const { return static_cast<uint32_t>(frags_.size()); }
    uint32_t acked() const { return acked_; }
    bool all_acked() const { return acked_ == frags_.size(); }
    uint64_t transmissions() const { return transmissions_; }

    // The fragments to send now, and why; the timer backs off when it is the cause.
    Cause due(Clock::time_point now, std::vector<uint32_t> *out);
    // Records that fragment i went out; true when it had gone out before.
    bool sent(uint32_t i, Clock::time_point now);
    // Applies an acknowledgement (every fragment below base, and the bitmap's bits above);
    // returns the fragments newly acknowledged. *rtt_us: a round trip measured on a fragment
    // sent once (Karn: a retransmitted one's ack is ambiguous), else untouched.
    uint32_t ack(uint32_t base, const uint8_t *bitmap, size_t bitmap_len, Clock::time_point now,
                 int64_t *rtt_us);
    // Everything counts as arrived (a response proves its request did).
    void ack_all();

    // When due() may next have something: the timer (max() when nothing is in flight).
    Clock::time_point next_timer() const { return in_flight_ ? timer_ : Clock::time_point::max(); }

private:
    struct Fragment {
        bool acked = false;
        uint64_t order = 0;  // of its latest transmission; 0: never sent
        uint32_t sends = 0;
        Clock::time_point sent_at{};
    };
    size_t len_of(uint32_t i) const;
    bool set_acked(uint32_t i, Clock::time_point now, int64_t *rtt_us, uint64_t *rtt_order);

    size_t len_;
    size_t frag_size_;
    Timing timing_;
    std::vector<Fragment> frags_;
    uint32_t acked_ = 0;
    uint32_t next_fresh_ = 0;       // the first never sent
    size_t in_flight_bytes_ = 0;
    uint32_t in_flight_ = 0;        // sent, not acknowledged
    uint64_t order_ = 0;            // transmissions so far, numbering them
    uint64_t acked_order_ = 0;      // the latest transmission known to have arrived
    uint64_t transmissions_ = 0;
    std::chrono::milliseconds rto_;
    Clock::time_point timer_{};
};

}  // namespace plexus::runtime::dgram
