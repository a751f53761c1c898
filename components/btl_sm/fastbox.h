// Fast boxes: a single-producer single-consumer ring of variable-size messages that one sender
// owns inside its receiver's segment. The receiver polls the header word at its read position:
// no FIFO, no fragment, no return trip, which is what makes small messages fast.
//
// Ring layout: a control line (the receiver's published read position, which the sender reads
// only when the ring looks full) and then size bytes (a power of two). Each record starts on an
// 8-byte boundary with an 8-byte header word, written last with release:
//     bits  0..7   tag
//     bits  8..30  length of the data (records: payload bytes; skip: bytes skipped)
//     bit  31      skip: nothing here, continue at the start of the ring
//     bits 32..63  stamp of the record's position (box_stamp), so a stale record of an earlier
//                  lap, or the zeroes of a fresh ring, never look valid
// A record never wraps: when it does not fit before the end, a skip record fills the rest. The
// writer clears the header word after each record before publishing it, so the reader only ever
// looks at words written in the current lap (or at offset 0, which always holds a header).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "sm_sdk.h"

namespace plexus::btl_sm {

struct alignas(kCacheLine) BoxControl {
    uint64_t read_pos;  // bytes the receiver has consumed (published after each batch)
};

constexpr size_t kBoxHeaderBytes = 8;
// Records are packed on 8-byte boundaries: a cache line carries several small messages, which
// halves the lines a stream of small messages moves between the cores (measured: message rate
// up by a quarter or more against one record per line, latency unchanged).
constexpr size_t kBoxAlign = 8;
constexpr uint32_t kBoxMaxLen = (1u << 23) - 1;
constexpr size_t kBoxMinSize = 1024;

// Bytes one box of ring size occupies (control line + ring).
constexpr size_t box_bytes(size_t ring_size) { return sizeof(BoxControl) + ring_size; }

constexpr uint32_t box_stamp(uint64_t pos) {
    return static_cast<uint32_t>(pos / kBoxAlign) | 0x80000000u;
}

constexpr uint64_t box_record_bytes(size_t len) { return align_up(kBoxHeaderBytes + len, kBoxAlign); }

// Largest message a ring of size bytes accepts (a quarter, so that several are in flight).
constexpr size_t box_max_message(size_t ring_size) { return ring_size / 4 - kBoxHeaderBytes; }

// Zeroes a box (control and ring) before it is granted to a sender.
void box_format(void *mem, size_t ring_size);

class BoxWriter {
public:
    BoxWriter() = default;
    BoxWriter(void *mem, size_t ring_size);

    // Appends one record of a followed by b; false when the ring has no room for it now.
    bool write(uint8_t tag, const void *a, size_t alen, const void *b, size_t blen) {
        return write_with(tag, alen + blen, [&](uint8_t *data) {
            if (alen) std::memcpy(data, a, alen);
            if (blen) std::memcpy(data + alen, b, blen);
        });
    }
    // Appends one record of len bytes that fill(data) writes in place (a packing upper layer);
    // fill is not called when the ring has no room (false).
    template <class Fill>
    bool write_with(uint8_t tag, size_t len, Fill &&fill) {
        const uint64_t need = box_record_bytes(len);
        const uint64_t off = pos_ & mask_;
        const uint64_t skip = off + need > size_ ? size_ - off : 0;
        // One slot more than the record: the header word after it is cleared (see below).
        if (pos_ + skip + need + kBoxAlign - read_cache_ > size_ && !refresh(skip + need + kBoxAlign))
            return false;
        const uint64_t start = skip ? 0 : off;
        uint8_t *rec = ring_ + start;
        // The reader's next stop must hold a word of this lap, never stale payload of the last
        // one that could happen to look like a valid stamp (offset 0 always holds a header).
        if (start + need < size_) store_relaxed(*reinterpret_cast<uint64_t *>(rec + need), uint64_t{0});
        fill(rec + kBoxHeaderBytes);
        publish(rec, pos_ + skip, (static_cast<uint64_t>(len) << 8) | tag);
        if (skip) publish(ring_ + off, pos_, (skip << 8) | (1ull << 31));
        pos_ += skip + need;
        return true;
    }
    // True when the receiver has consumed everything written.
    bool drained() const;
    bool valid() const { return ring_ != nullptr; }

private:
    static void publish(uint8_t *rec, uint64_t pos, uint64_t low) {
        store_release(*reinterpret_cast<uint64_t *>(rec), (static_cast<uint64_t>(box_stamp(pos)) << 32) | low);
    }
    bool refresh(uint64_t need);

    BoxControl *control_ = nullptr;
    uint8_t *ring_ = nullptr;
    uint64_t size_ = 0;
    uint64_t mask_ = 0;
    uint64_t pos_ = 0;         // bytes written
    uint64_t read_cache_ = 0;  // the receiver's read_pos when last looked at
};

// One message found in a box: valid until the reader publishes past it.
struct BoxMessage {
    const uint8_t *data;
    uint32_t len;
    uint8_t tag;
};

class BoxReader {
public:
    BoxReader() = default;
    BoxReader(void *mem, size_t ring_size);

    // The next message, if its header is there (one acquire load when there is none); the
    // read position moves past it at once, so a nested poll never sees it twice.
    bool next(BoxMessage *out) {
        uint64_t word = load_acquire(*reinterpret_cast<uint64_t *>(ring_ + (pos_ & mask_)));
        if (static_cast<uint32_t>(word >> 32) != box_stamp(pos_)) return false;
        if (word & (1ull << 31)) {  // skip to the start of the ring
            pos_ += (word >> 8) & kBoxMaxLen;
            word = load_acquire(*reinterpret_cast<uint64_t *>(ring_));
            if (static_cast<uint32_t>(word >> 32) != box_stamp(pos_)) return false;
        }
        const uint8_t *rec = ring_ + (pos_ & mask_);
        out->len = static_cast<uint32_t>((word >> 8) & kBoxMaxLen);
        out->tag = static_cast<uint8_t>(word);
        out->data = rec + kBoxHeaderBytes;
        pos_ += box_record_bytes(out->len);
        return true;
    }
    // Lets the sender reuse everything read so far (after the callbacks have returned).
    void publish() {
        if (pos_ != published_) {
            store_release(control_->read_pos, pos_);
            published_ = pos_;
        }
    }
    bool valid() const { return ring_ != nullptr; }

private:
    BoxControl *control_ = nullptr;
    uint8_t *ring_ = nullptr;
    uint64_t mask_ = 0;
    uint64_t pos_ = 0;
    uint64_t published_ = 0;
};

}  // namespace plexus::btl_sm
