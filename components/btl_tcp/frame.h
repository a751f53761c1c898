// Frames as the receiver sees them and as the sender makes them: the upper layer's messages, and
// the goodbye that ends a connection closed in order. The goodbye is what lets a receiver tell a
// peer that finalized from one that died or whose host went away: both end the stream, only the
// first says goodbye before it does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "wire.h"

namespace plexus::btl_tcp {

enum class FrameUse {
    Message,  // deliver the len bytes that follow
    Goodbye,  // the peer closes in order: the end of its stream is not a failure
    Corrupt   // the stream cannot be read on: the peer is lost
};

// What to do with a received header; max_len is the longest message any peer may send. For
// Corrupt, *why says what is wrong, to follow "rank R of job J on host H: ".
FrameUse classify_frame(const FrameHeader &fh, size_t max_len, std::string *why);

FrameHeader message_header(uint8_t tag, size_t len);
FrameHeader goodbye_header();

}  // namespace plexus::btl_tcp
