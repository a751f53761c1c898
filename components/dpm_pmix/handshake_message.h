// The messages two roots trade while they meet: a context-id proposal and, in each side's first
// message, its group (every process as namespace and rank) and its half of the pair secret (the
// two halves XORed are the secret both groups share from then on: dpm.h's pair_secret). Text, so
// that any name service carries it:
//   cid <n>
//   key <64 hex digits>       (the first message only)
//   proc <nspace> <rank>      (zero or more, in rank order)
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plexus::dpm_pmix {

struct Proc {
    std::string nspace;
    uint32_t rank = 0;
    bool operator==(const Proc &) const = default;
};

struct HandshakeMessage {
    uint32_t cid = 0;
    std::vector<Proc> group;  // empty after the first message
    std::vector<uint8_t> key;  // kKeyBytes in the first message, else empty
};

inline constexpr size_t kKeyBytes = 32;  // PLEXUS_PEER_SECRET_LEN

std::string encode(const HandshakeMessage &m);
// nullopt (and *why) for anything that is not such a message.
std::optional<HandshakeMessage> decode(const std::string &text, std::string *why);

}  // namespace plexus::dpm_pmix
