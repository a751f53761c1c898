// The messages two roots trade while they meet: a context-id proposal and, in each side's first
// message, its group (every process as namespace and rank). Text, so that any name service
// carries it:
//   cid <n>
//   proc <nspace> <rank>      (zero or more, in rank order)
#pragma once

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
};

std::string encode(const HandshakeMessage &m);
// nullopt (and *why) for anything that is not such a message.
std::optional<HandshakeMessage> decode(const std::string &text, std::string *why);

}  // namespace plexus::dpm_pmix
