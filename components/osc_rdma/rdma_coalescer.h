// The buffered protocol's coalescing: operations to one target become records packed into
// buffers of the BTL's eager size, each sent as one message when it is full or at
// synchronisation. An operation that fits in an empty buffer is never split (a record that does
// not fit in what is left starts the next buffer); a larger one is cut into fragments of whole
// units (an accumulate's items), each a record of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

#include "rdma_wire.h"

namespace plexus::osc_rdma {

// Writes bytes [offset, offset + len) of the operation's packed payload into dst. A reference to
// a callable (no allocation per operation: this is on every put's path), valid for the call of
// Coalescer::add it is passed to.
class PackFn {
public:
    PackFn() = default;
    PackFn(std::nullptr_t) {}
    template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, PackFn>>>
    PackFn(F &&f) : ctx_(const_cast<void *>(static_cast<const void *>(&f))),
                    fn_([](void *c, size_t o, size_t l, uint8_t *d) { return (*static_cast<std::remove_reference_t<F> *>(c))(o, l, d); }) {}
    int operator()(size_t offset, size_t len, uint8_t *dst) const { return fn_(ctx_, offset, len, dst); }

private:
    void *ctx_ = nullptr;
    int (*fn_)(void *, size_t, size_t, uint8_t *) = nullptr;
};

// Receives a full buffer: the message bytes from the header on and how many records it holds.
// The header's kind, win and count are the coalescer's; the sink fills in the rest it owns.
using SinkFn = std::function<int(std::vector<uint8_t> &message, uint32_t records)>;

class Coalescer {
public:
    // capacity: bytes of one message, header included (at least one header, one record header
    // and one payload byte: checked by the caller, see min_capacity).
    Coalescer(size_t capacity, SinkFn sink);

    static size_t min_capacity() { return kMsgHeaderBytes + kRecordHeaderBytes + 1; }

    // Adds one operation: header (offset, len set here), the target type's encoding, and its
    // payload by pack (none for a get request). unit: fragments hold whole units. Returns the
    // sink's or pack's error, else 0.
    int add(RecordHeader r, const std::vector<uint8_t> &type, size_t unit, const PackFn &pack);
    // A whole put of len plain bytes (at most payload_room(0) and 0xffff) at byte disp, in the
    // short form: the per-operation path of the common small put, without a RecordHeader.
    int add_short_put(uint64_t disp, const void *src, size_t len);
    // Sends what is buffered (nothing when empty).
    int flush();

    bool empty() const { return records_ == 0; }
    size_t capacity() const { return capacity_; }
    // Payload bytes an empty buffer takes in one record with a type of type_len bytes.
    size_t payload_room(size_t type_len) const;

private:
    int append(const RecordHeader &r, const std::vector<uint8_t> &type, const PackFn &pack);
    size_t left() const { return capacity_ - buf_.size(); }

    size_t capacity_;
    SinkFn sink_;
    std::vector<uint8_t> buf_;
    uint32_t records_ = 0;
};

}  // namespace plexus::osc_rdma
