// The messages two roots trade while their groups meet (README.md, "Protocol"): binary,
// little-endian, one kind per message, every message naming its session (a random number the
// starting root chose) so that an answering root tells concurrent meetings on one port apart.
//
//   hello        starter -> answerer  group size, group id, context-id proposal, deadline, nonce
//   hello_ack    answerer -> starter  group size, group id, proposal, and whether to go on over a
//                                     reliable connection (its TCP port and a nonce)
//   propose(_ack)                     a further proposal while the two differ
//   cards(_ack)                       the context id, the group's processes with business cards,
//                                     the sender's build status (cards_ack)
//   done(_ack)                        the starter's build status; the answerer's last word
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plexus::dpm_ud {

using Bytes = std::vector<uint8_t>;
using Nonce = std::array<uint8_t, 16>;

enum class Kind : uint8_t {
    hello = 1,
    hello_ack = 2,
    propose = 3,
    propose_ack = 4,
    cards = 5,
    cards_ack = 6,
    done = 7,
    done_ack = 8,
};
const char *kind_name(Kind k);

// A process of a group and its business cards (the blob services->own_cards made there).
struct ProcCards {
    std::string nspace;
    uint32_t rank = 0;
    Bytes cards;
    bool operator==(const ProcCards &) const = default;
};

struct Message {
    Kind kind = Kind::hello;
    uint64_t session = 0;
    // hello, hello_ack
    uint32_t group_size = 0;
    std::string group_id;   // the sending group's job (its root's namespace)
    uint64_t deadline_ms = 0;  // hello: when the starter gives up (CLOCK_REALTIME ms)
    uint8_t rc = 0;            // hello_ack: 1 = go on over a TCP connection to rc_port
    uint16_t rc_port = 0;
    Nonce nonce{};             // hello: the starter's; hello_ack: the answerer's
    // hello, hello_ack, propose, propose_ack, cards, cards_ack
    uint32_t cid = 0;
    // cards, cards_ack
    std::vector<ProcCards> procs;
    // cards_ack, done: an MPI error class (0: built), and what went wrong
    int32_t status = 0;
    std::string text;
    bool operator==(const Message &) const = default;
};

Bytes encode(const Message &m);
// nullopt and *why for anything that is not a whole message of this protocol.
std::optional<Message> decode(const uint8_t *data, size_t len, std::string *why);

}  // namespace plexus::dpm_ud
