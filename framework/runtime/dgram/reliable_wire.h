// The reliable layer's own header, inside an authenticated datagram's payload: data fragments
// of a message (one-way, request or response) and selective acknowledgements. Big-endian, no
// padding; docs/datagrams.md draws both.
#pragma once

#include <cstddef>
#include <cstdint>

namespace plexus::runtime::dgram {

enum class RelKind : uint8_t { data = 1, ack = 2 };

// Bits of a data fragment's flags.
constexpr uint8_t kRelRequest = 1;   // the sender waits for a response
constexpr uint8_t kRelResponse = 2;  // answers reply_to

struct RelData {
    static constexpr size_t kBytes = 52;
    uint8_t flags = 0;
    uint64_t incarnation = 0;       // the sending layer's
    uint64_t msg_id = 0;            // per sending layer, from 1
    uint64_t reply_to = 0;          // a response: the request's msg_id
    uint64_t reply_incarnation = 0; // a response: the requester's incarnation
    uint32_t msg_len = 0;
    uint32_t frag_index = 0;
    uint32_t frag_count = 0;
    uint32_t frag_size = 0;         // payload of every fragment but the last

    size_t offset() const { return size_t(frag_index) * frag_size; }
    // What this fragment's payload must hold.
    size_t payload_len() const;
};

struct RelAck {
    static constexpr size_t kBytes = 32;
    uint64_t incarnation = 0;  // the data sender's (echoed), so an ack never matches a later layer
    uint64_t msg_id = 0;
    uint32_t frag_count = 0;
    uint32_t base = 0;         // every fragment below it has arrived
    uint16_t bitmap_len = 0;   // bytes that follow: bit i (LSB first) is fragment base + i
};

// The fragments of a message of len bytes at frag_size per fragment (an empty message is one).
uint32_t fragment_count(size_t len, size_t frag_size);

void encode(const RelData &h, uint8_t out[RelData::kBytes]);
void encode(const RelAck &h, uint8_t out[RelAck::kBytes]);

// What a payload is; anything inconsistent is malformed (checked against max_message).
enum class RelParse { data, ack, malformed };
RelParse decode(const uint8_t *p, size_t len, size_t max_message, RelData *data, RelAck *ack);

}  // namespace plexus::runtime::dgram
