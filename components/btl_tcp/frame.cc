#include "frame.h"

namespace plexus::btl_tcp {

FrameUse classify_frame(const FrameHeader &fh, size_t max_len, std::string *why) {
    switch (fh.kind) {
    case kFrameMessage:
        if (fh.len <= max_len) return FrameUse::Message;
        *why = "sent a message of " + std::to_string(fh.len) +
               " bytes, more than any btl_tcp_max_send_size: the stream is corrupt";
        return FrameUse::Corrupt;
    case kFrameGoodbye:
        if (fh.len == 0) return FrameUse::Goodbye;
        *why = "sent a goodbye of " + std::to_string(fh.len) + " bytes (it has none): the stream is corrupt";
        return FrameUse::Corrupt;
    default:
        *why = "sent a frame of unknown kind " + std::to_string(fh.kind) + ": the stream is corrupt";
        return FrameUse::Corrupt;
    }
}

FrameHeader message_header(uint8_t tag, size_t len) {
    FrameHeader h{};
    h.len = static_cast<uint32_t>(len);
    h.tag = tag;
    h.kind = kFrameMessage;
    return h;
}

FrameHeader goodbye_header() {
    FrameHeader h{};
    h.kind = kFrameGoodbye;
    return h;
}

}  // namespace plexus::btl_tcp
