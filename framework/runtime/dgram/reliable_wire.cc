// Encoding and checking of the reliable layer's headers.
#include "runtime/dgram/reliable_wire.h"

namespace plexus::runtime::dgram {
namespace {

constexpr uint8_t kVersion = 1;

template <typename T>
uint8_t *put(uint8_t *p, T v) {
    for (size_t i = sizeof(T); i-- > 0;) *p++ = static_cast<uint8_t>(v >> (8 * i));
    return p;
}

template <typename T>
T get(const uint8_t *&p) {
    T v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v = static_cast<T>((v << 8) | *p++);
    return v;
}

bool data_agrees(const RelData &h, size_t payload, size_t max_message) {
    if (h.msg_id == 0 || h.frag_size == 0 || h.msg_len > max_message) return false;
    if ((h.flags & ~(kRelRequest | kRelResponse)) != 0) return false;
    if ((h.flags & kRelRequest) && (h.flags & kRelResponse)) return false;
    const bool response = h.flags & kRelResponse;
    if (response != (h.reply_to != 0) || (!response && h.reply_incarnation != 0)) return false;
    if (h.frag_count != fragment_count(h.msg_len, h.frag_size) || h.frag_index >= h.frag_count) return false;
    return payload == h.payload_len();
}

}  // namespace

size_t RelData::payload_len() const {
    if (frag_index + 1 < frag_count) return frag_size;
    return msg_len - offset();
}

uint32_t fragment_count(size_t len, size_t frag_size) {
    if (len == 0) return 1;
    return static_cast<uint32_t>((len + frag_size - 1) / frag_size);
}

void encode(const RelData &h, uint8_t out[RelData::kBytes]) {
    uint8_t *p = out;
    p = put<uint8_t>(p, kVersion);
    p = put<uint8_t>(p, static_cast<uint8_t>(RelKind::data));
    p = put<uint8_t>(p, h.flags);
    p = put<uint8_t>(p, 0);
    p = put(p, h.incarnation);
    p = put(p, h.msg_id);
    p = put(p, h.reply_to);
    p = put(p, h.reply_incarnation);
    p = put(p, h.msg_len);
    p = put(p, h.frag_index);
    p = put(p, h.frag_count);
    put(p, h.frag_size);
}

void encode(const RelAck &h, uint8_t out[RelAck::kBytes]) {
    uint8_t *p = out;
    p = put<uint8_t>(p, kVersion);
    p = put<uint8_t>(p, static_cast<uint8_t>(RelKind::ack));
    p = put<uint16_t>(p, 0);
    p = put(p, h.incarnation);
    p = put(p, h.msg_id);
    p = put(p, h.frag_count);
    p = put(p, h.base);
    p = put(p, h.bitmap_len);
    put<uint16_t>(p, 0);
}

RelParse decode(const uint8_t *p, size_t len, size_t max_message, RelData *data, RelAck *ack) {
    if (!p || len < 4 || p[0] != kVersion) return RelParse::malformed;
    const uint8_t kind = p[1];
    if (kind == static_cast<uint8_t>(RelKind::data) && len >= RelData::kBytes) {
        const uint8_t *q = p + 2;
        data->flags = get<uint8_t>(q);
        if (get<uint8_t>(q) != 0) return RelParse::malformed;
        data->incarnation = get<uint64_t>(q);
        data->msg_id = get<uint64_t>(q);
        data->reply_to = get<uint64_t>(q);
        data->reply_incarnation = get<uint64_t>(q);
        data->msg_len = get<uint32_t>(q);
        data->frag_index = get<uint32_t>(q);
        data->frag_count = get<uint32_t>(q);
        data->frag_size = get<uint32_t>(q);
        return data_agrees(*data, len - RelData::kBytes, max_message) ? RelParse::data : RelParse::malformed;
    }
    if (kind == static_cast<uint8_t>(RelKind::ack) && len >= RelAck::kBytes) {
        const uint8_t *q = p + 2;
        if (get<uint16_t>(q) != 0) return RelParse::malformed;
        ack->incarnation = get<uint64_t>(q);
        ack->msg_id = get<uint64_t>(q);
        ack->frag_count = get<uint32_t>(q);
        ack->base = get<uint32_t>(q);
        ack->bitmap_len = get<uint16_t>(q);
        if (get<uint16_t>(q) != 0) return RelParse::malformed;
        const bool ok = ack->msg_id != 0 && ack->frag_count != 0 && ack->base <= ack->frag_count &&
                        len == RelAck::kBytes + ack->bitmap_len &&
                        uint64_t(ack->bitmap_len) * 8 < uint64_t(ack->frag_count - ack->base) + 8;
        return ok ? RelParse::ack : RelParse::malformed;
    }
    return RelParse::malformed;
}

}  // namespace plexus::runtime::dgram
