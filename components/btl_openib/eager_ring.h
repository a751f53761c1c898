// Eager RDMA channels: a ring of fixed-size slots in the receiver's memory that one sender fills
// by RDMA write (paper 003's "RDMA protocol"; Open MPI's eager RDMA), apart from verbs so that it
// is tested with memcpy standing in for the write.
//
// A message is placed at the END of its slot, its footer last: [ ... unused | payload | footer ].
// The footer's final word is the tail flag: the stamp of the slot's position in the stream, so
// the receiver polls one fixed address per slot whatever the message's length, and a slot of an
// earlier lap (or the zeroes of a fresh ring) never looks written. One RDMA write carries payload
// and footer; HCAs place the bytes of one write in address order, so the flag is seen last (the
// assumption Open MPI and MVAPICH make; see the README). The sender writes only into slots the
// receiver has returned (credits): the ring starts with `slots` of them.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace plexus::btl_openib {

struct RingFooter {
    uint32_t len;           // payload bytes
    uint8_t tag;            // the active-message tag
    uint8_t ctl_credits;    // piggybacked credits (credits.h)
    uint16_t credits;
    uint16_t rdma_credits;  // slots of the sender's own incoming ring returned
    uint8_t rdma_gen;       // that ring's generation (low byte): credits of an old ring are ignored
    uint8_t reserved;
    uint32_t stamp;         // the tail flag: written last, ring_stamp(position)
};
static_assert(sizeof(RingFooter) == 16, "the footer is part of the wire format");

inline constexpr size_t kRingFooterBytes = sizeof(RingFooter);
inline constexpr size_t kRingSlotAlign = 64;

// Nonzero for every position, and different for the same slot on consecutive laps.
constexpr uint32_t ring_stamp(uint64_t position) { return static_cast<uint32_t>(position) | 0x80000000u; }

// Bytes of one slot that carries messages of up to max_payload bytes (a whole number of lines).
constexpr size_t ring_slot_bytes(size_t max_payload) {
    return (max_payload + kRingFooterBytes + kRingSlotAlign - 1) / kRingSlotAlign * kRingSlotAlign;
}

// Where a message of len bytes starts inside its slot, and how many bytes the write carries.
constexpr size_t ring_write_offset(size_t slot_bytes, size_t len) { return slot_bytes - kRingFooterBytes - len; }
constexpr size_t ring_write_bytes(size_t len) { return len + kRingFooterBytes; }

// The sender's side of one channel: which slot is next and whether the receiver has freed it.
class RingSender {
public:
    RingSender() = default;
    RingSender(uint32_t slots, size_t slot_bytes) : slots_(slots), slot_bytes_(slot_bytes), credits_(slots) {}

    bool valid() const { return slots_ > 0; }
    size_t max_payload() const { return slot_bytes_ - kRingFooterBytes; }
    size_t slot_bytes() const { return slot_bytes_; }
    // Room for one more message now.
    bool can_write(size_t len) const { return credits_ > 0 && len <= max_payload(); }
    // Claims the next slot: its index and the stamp its footer must carry.
    void claim(uint32_t *slot, uint32_t *stamp) {
        *slot = static_cast<uint32_t>(position_ % slots_);
        *stamp = ring_stamp(position_);
        ++position_;
        --credits_;
    }
    // Lays a message out as the write carries it: payload then footer, into dst (len + 16 bytes).
    static void format(uint8_t *dst, size_t len, const RingFooter &footer) {
        std::memcpy(dst + len, &footer, sizeof footer);
    }
    void returned(uint32_t n) { credits_ += n; }
    uint32_t credits() const { return credits_; }
    uint64_t written() const { return position_; }

private:
    uint32_t slots_ = 0;
    size_t slot_bytes_ = 0;
    uint32_t credits_ = 0;
    uint64_t position_ = 0;
};

// A message found in the ring: valid until release().
struct RingMessage {
    const uint8_t *data;
    RingFooter footer;
};

// The receiver's side: polls the tail flag of the next slot.
class RingReceiver {
public:
    RingReceiver() = default;
    RingReceiver(uint8_t *mem, uint32_t slots, size_t slot_bytes) : mem_(mem), slots_(slots), slot_bytes_(slot_bytes) {}

    bool valid() const { return mem_ != nullptr; }
    // The next message if its flag is there (one load when there is none). A footer whose length
    // does not fit the slot is a corrupt write: *corrupt is set and the slot skipped.
    bool next(RingMessage *out, bool *corrupt = nullptr) {
        uint8_t *slot = mem_ + size_t(position_ % slots_) * slot_bytes_;
        auto *flag = reinterpret_cast<const uint32_t *>(slot + slot_bytes_ - sizeof(uint32_t));
        if (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != ring_stamp(position_)) return false;
        std::memcpy(&out->footer, slot + slot_bytes_ - kRingFooterBytes, sizeof out->footer);
        ++position_;
        if (out->footer.len > slot_bytes_ - kRingFooterBytes) {
            ++to_return_;
            if (corrupt) *corrupt = true;
            return false;
        }
        out->data = slot + ring_write_offset(slot_bytes_, out->footer.len);
        return true;
    }
    // The message next() returned has been delivered: its slot may be written again once the
    // sender hears so (never before the callback returned: it reads the slot in place).
    void release() { ++to_return_; }
    // Slots released since the last call, to give back to the sender (piggybacked or explicit).
    uint32_t take_to_return() {
        const uint32_t n = to_return_;
        to_return_ = 0;
        return n;
    }
    void restore_to_return(uint32_t n) { to_return_ += n; }
    uint32_t to_return() const { return to_return_; }
    uint32_t slots() const { return slots_; }
    uint64_t read() const { return position_; }
    size_t bytes() const { return size_t(slots_) * slot_bytes_; }

private:
    uint8_t *mem_ = nullptr;
    uint32_t slots_ = 0;
    size_t slot_bytes_ = 0;
    uint64_t position_ = 0;
    uint32_t to_return_ = 0;
};

}  // namespace plexus::btl_openib
