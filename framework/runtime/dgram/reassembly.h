// Messages longer than one datagram put back together from their fragments, within a memory
// budget; a message whose fragments do not all arrive within the timeout is given up.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "runtime/dgram/wire_format.h"

namespace plexus::runtime::dgram {

class Reassembly {
public:
    using Clock = std::chrono::steady_clock;

    struct Limits {
        size_t memory = 0;                    // bytes of partial messages held at most
        std::chrono::milliseconds timeout{0}; // from a message's first fragment
    };
    // What became of a fragment offered.
    enum class Outcome { partial, complete, no_memory, inconsistent };

    explicit Reassembly(Limits limits) : limits_(limits) {}

    // Places one authenticated fragment; on complete, *message holds the whole message.
    Outcome add(const Header &h, const uint8_t *payload, std::vector<uint8_t> *message,
                Clock::time_point now = Clock::now());

    // Gives up the messages older than the timeout; returns how many fragments they held.
    uint64_t expire(Clock::time_point now = Clock::now());

    size_t bytes_held() const { return held_; }
    size_t partial_messages() const { return partial_.size(); }

private:
    struct Partial {
        std::vector<uint8_t> data;
        std::vector<bool> have;
        uint32_t count = 0;
        uint32_t received = 0;
        uint64_t bytes = 0;
        Clock::time_point started;
    };
    using Key = std::tuple<uint32_t, uint64_t, uint64_t>;  // sender, salt, message sequence

    void forget(std::map<Key, Partial>::iterator it);

    Limits limits_;
    size_t held_ = 0;
    std::map<Key, Partial> partial_;
};

}  // namespace plexus::runtime::dgram
