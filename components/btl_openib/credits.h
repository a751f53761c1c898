// Credit-based flow control of btl_openib's send/receive path, apart from verbs so that it is
// tested without an HCA. A receiver posts `data + ctl` receive buffers per peer before its queue
// pair can receive; the sender spends one data credit per message and one control credit per
// explicit credit message, so that credit messages can never be starved by data. The receiver
// reposts each buffer it consumed and owes the sender a credit for it, which travels back
// piggybacked on the next message it sends that peer, or in an explicit credit message once half
// a window is owed and nothing else is going that way.
#pragma once

#include <cstdint>

namespace plexus::btl_openib {

// What one message carries back to its receiver: buffers (and eager RDMA slots) freed since the
// last message that way.
struct Piggyback {
    uint16_t data = 0;
    uint8_t ctl = 0;
    uint16_t rdma = 0;
};

class CreditWindow {
public:
    CreditWindow() = default;
    // data/ctl: the receive buffers the peer posted for this process's data and credit messages;
    // threshold: owed data credits that make an explicit credit message due.
    CreditWindow(uint16_t data, uint16_t ctl, uint16_t threshold)
        : data_(data), ctl_(ctl), threshold_(threshold) {}

    // ---- the sending side ----
    // Spends a credit; false (nothing spent) when the peer has no buffer posted for it.
    bool take_data() { return data_ > 0 ? (--data_, true) : false; }
    bool take_ctl() { return ctl_ > 0 ? (--ctl_, true) : false; }
    // A send that took a credit could not be posted after all.
    void untake_data() { ++data_; }
    void untake_ctl() { ++ctl_; }
    // The peer returned credits (from any message's header).
    void returned(const Piggyback &p) {
        data_ = static_cast<uint16_t>(data_ + p.data);
        ctl_ = static_cast<uint16_t>(ctl_ + p.ctl);
    }
    uint16_t data_credits() const { return data_; }
    uint16_t ctl_credits() const { return ctl_; }

    // ---- the receiving side ----
    // A receive buffer was consumed and posted again: the sender may use it once told.
    void consumed(bool credit_message) {
        if (credit_message)
            ++owed_ctl_;
        else
            ++owed_data_;
    }
    // Everything owed, handed to a message that is about to go (and forgotten here).
    Piggyback take_owed() {
        Piggyback p;
        p.data = owed_data_;
        p.ctl = owed_ctl_;
        owed_data_ = 0;
        owed_ctl_ = 0;
        return p;
    }
    // The message that took p was not sent: owe it again.
    void restore_owed(const Piggyback &p) {
        owed_data_ = static_cast<uint16_t>(owed_data_ + p.data);
        owed_ctl_ = static_cast<uint8_t>(owed_ctl_ + p.ctl);
    }
    // Half a window is owed: an explicit credit message should go if nothing else does.
    bool explicit_due() const { return owed_data_ >= threshold_ && threshold_ > 0; }
    uint16_t owed_data() const { return owed_data_; }
    uint8_t owed_ctl() const { return owed_ctl_; }

private:
    uint16_t data_ = 0;
    uint16_t ctl_ = 0;
    uint16_t threshold_ = 0;
    uint16_t owed_data_ = 0;
    uint8_t owed_ctl_ = 0;
};

}  // namespace plexus::btl_openib
