// The header every datagram carries, as bytes on the wire (big-endian, no padding), and the
// checks a received one passes before anything else looks at it. docs/datagrams.md draws it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace plexus::runtime::dgram {

struct Header {
    static constexpr uint16_t kMagic = 0x5844;  // "XD"
    static constexpr uint8_t kVersion = 1;
    static constexpr size_t kTagBytes = 16;      // HMAC-SHA256 truncated to 128 bits
    static constexpr size_t kAuthenticated = 56; // the bytes before the tag
    static constexpr size_t kBytes = kAuthenticated + kTagBytes;

    uint8_t flags = 0;        // none defined yet: sent as 0, ignored
    uint64_t key_id = 0;      // which key (job and label) signed it
    uint32_t sender = 0;
    uint32_t epoch = 0;
    uint64_t salt = 0;        // random per endpoint opened: (salt, seq) is the nonce
    uint64_t seq = 0;         // per endpoint, from 1, one per datagram
    uint32_t msg_len = 0;     // the whole message
    uint32_t frag_offset = 0; // where this datagram's payload goes in it
    uint32_t frag_index = 0;
    uint32_t frag_count = 0;
    uint16_t frag_len = 0;    // payload bytes in this datagram
    std::array<uint8_t, kTagBytes> tag{};

    // The sequence of the message's first fragment: fragments take consecutive sequences, so
    // this names the message among the sender's.
    uint64_t message_seq() const { return seq - frag_index; }
};

enum class ParseResult { ok, too_short, bad_magic, bad_version, bad_lengths };

// Writes the kBytes of h (tag included) to out.
void encode(const Header &h, uint8_t *out);

// Reads a datagram of len bytes; ok only when the header is whole and its lengths agree with
// each other, with len and with max_message.
ParseResult decode(const uint8_t *data, size_t len, size_t max_message, Header *h);

const char *describe(ParseResult r);

}  // namespace plexus::runtime::dgram
