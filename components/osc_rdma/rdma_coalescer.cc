#include "rdma_coalescer.h"

#include <algorithm>
#include <cstring>

#include <plexus/osc.h>

namespace plexus::osc_rdma {

Coalescer::Coalescer(size_t capacity, SinkFn sink) : capacity_(capacity), sink_(std::move(sink)) {
    buf_.reserve(capacity_);
    buf_.resize(kMsgHeaderBytes);
}

size_t Coalescer::payload_room(size_t type_len) const {
    const size_t fixed = kMsgHeaderBytes + kRecordHeaderBytes + type_len;
    return capacity_ > fixed ? capacity_ - fixed : 0;
}

int Coalescer::flush() {
    if (records_ == 0) return 0;
    MsgHeader h;
    h.kind = MsgKind::kData;
    h.count = records_;
    encode_header(h, buf_.data());
    const uint32_t n = records_;
    int rc = sink_(buf_, n);
    buf_.resize(kMsgHeaderBytes);
    records_ = 0;
    return rc;
}

int Coalescer::add_short_put(uint64_t disp, const void *src, size_t len) {
    const size_t need = kShortRecordBytes + len;
    if (need > left())
        if (int rc = flush(); rc != 0) return rc;
    const size_t at = buf_.size();
    buf_.resize(at + need);
    uint8_t *q = buf_.data() + at;
    encode_short_put(disp, len, q);
    std::memcpy(q + kShortRecordBytes, src, len);
    ++records_;
    return 0;
}

int Coalescer::append(const RecordHeader &r, const std::vector<uint8_t> &type, const PackFn &pack) {
    const size_t at = buf_.size();
    buf_.resize(at + record_bytes(r));
    encode_record(r, buf_.data() + at);
    const size_t header = record_header_bytes(r);
    std::copy(type.begin(), type.end(), buf_.begin() + long(at + header));
    if (r.len > 0) {
        if (int rc = pack(r.offset, r.len, buf_.data() + at + header + type.size()); rc != 0) {
            buf_.resize(at);
            return rc;
        }
    }
    ++records_;
    return 0;
}

int Coalescer::add(RecordHeader r, const std::vector<uint8_t> &type, size_t unit, const PackFn &pack) {
    r.type_len = uint16_t(type.size());
    const size_t room = payload_room(type.size());
    const size_t payload = r.kind == RecordKind::kGetRequest ? 0 : size_t(r.total);
    unit = std::max<size_t>(unit, 1);
    if (room < unit) return PLEXUS_OSC_ERR_UNSUPPORTED;  // not one unit fits a message
    if (payload <= room) {  // whole: into this buffer or the next
        r.offset = 0;
        r.len = payload;
        if (record_bytes(r) > left())
            if (int rc = flush(); rc != 0) return rc;
        return append(r, type, pack);
    }
    for (size_t offset = 0; offset < payload;) {
        const size_t fixed = kRecordHeaderBytes + type.size();
        size_t chunk = left() > fixed ? (left() - fixed) / unit * unit : 0;
        if (chunk == 0) {
            if (int rc = flush(); rc != 0) return rc;
            continue;
        }
        r.offset = offset;
        r.len = std::min(chunk, payload - offset);
        if (int rc = append(r, type, pack); rc != 0) return rc;
        offset += size_t(r.len);
    }
    return 0;
}

}  // namespace plexus::osc_rdma
