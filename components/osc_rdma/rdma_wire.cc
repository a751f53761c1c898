#include "rdma_wire.h"

#include <cstring>

namespace plexus::osc_rdma {
namespace {

template <class T>
uint8_t *put(uint8_t *p, T v) {
    std::memcpy(p, &v, sizeof v);
    return p + sizeof v;
}

template <class T>
const uint8_t *take(const uint8_t *p, T *v) {
    std::memcpy(v, p, sizeof *v);
    return p + sizeof *v;
}

bool known_kind(uint8_t k) { return k >= uint8_t(MsgKind::kData) && k <= uint8_t(MsgKind::kFenceDone); }

}  // namespace

void encode_header(const MsgHeader &h, uint8_t *out) {
    uint8_t *p = put(out, h.win);
    p = put(p, uint8_t(h.kind));
    p = put(p, uint8_t(h.epoch));
    p = put(p, h.lock_type);
    p = put(p, h.flags);
    p = put(p, h.count);
    put(p, h.aux);
}

bool decode_header(const void *data, size_t len, MsgHeader *out) {
    if (len < kMsgHeaderBytes) return false;
    const auto *p = static_cast<const uint8_t *>(data);
    uint8_t kind = 0, epoch = 0;
    p = take(p, &out->win);
    p = take(p, &kind);
    p = take(p, &epoch);
    p = take(p, &out->lock_type);
    p = take(p, &out->flags);
    p = take(p, &out->count);
    take(p, &out->aux);
    if (!known_kind(kind) || epoch > uint8_t(EpochTag::kLock)) return false;
    out->kind = MsgKind(kind);
    out->epoch = EpochTag(epoch);
    return true;
}

// The kind byte of the short form (RecordKind's values end below it).
constexpr uint8_t kShortPutKind = 0x10;

void encode_short_put(uint64_t disp, size_t len, uint8_t *out) {
    uint8_t *p = put(out, kShortPutKind);
    p = put(p, uint8_t(0));
    p = put(p, uint16_t(len));
    p = put(p, uint32_t(0));
    put(p, disp);
}

void encode_record(const RecordHeader &r, uint8_t *out) {
    if (is_short(r)) return encode_short_put(r.disp, size_t(r.len), out);
    uint8_t *p = put(out, uint8_t(r.kind));
    p = put(p, uint8_t(0));
    p = put(p, r.type_len);
    p = put(p, r.op);
    p = put(p, r.target_count);
    p = put(p, r.get_id);
    p = put(p, r.disp);
    p = put(p, r.offset);
    p = put(p, r.len);
    put(p, r.total);
}

bool RecordReader::next(RecordView *out) {
    if (p_ == end_ || bad_) return false;
    RecordHeader &r = out->h;
    if (*p_ == kShortPutKind) {
        if (size_t(end_ - p_) < kShortRecordBytes) return !(bad_ = true);
        uint16_t len = 0;
        take(p_ + 2, &len);
        take(p_ + 8, &r.disp);
        if (size_t(end_ - p_) - kShortRecordBytes < len) return !(bad_ = true);
        r = RecordHeader{RecordKind::kPut, 0, -1, 0, 0, r.disp, 0, len, len};
        out->type = out->payload = p_ + kShortRecordBytes;
        p_ = out->payload + len;
        return true;
    }
    if (size_t(end_ - p_) < kRecordHeaderBytes) return !(bad_ = true);
    uint8_t kind = 0, pad = 0;
    const uint8_t *p = take(p_, &kind);
    p = take(p, &pad);
    p = take(p, &r.type_len);
    p = take(p, &r.op);
    p = take(p, &r.target_count);
    p = take(p, &r.get_id);
    p = take(p, &r.disp);
    p = take(p, &r.offset);
    p = take(p, &r.len);
    p = take(p, &r.total);
    const bool kind_ok = kind >= uint8_t(RecordKind::kPut) && kind <= uint8_t(RecordKind::kGetRequest);
    const size_t rest = size_t(end_ - p);
    if (!kind_ok || r.type_len > rest || r.len > rest - r.type_len || r.offset > r.total ||
        r.len > r.total - r.offset)
        return !(bad_ = true);
    r.kind = RecordKind(kind);
    out->type = p;
    out->payload = p + r.type_len;
    p_ = out->payload + r.len;
    return true;
}

}  // namespace plexus::osc_rdma
