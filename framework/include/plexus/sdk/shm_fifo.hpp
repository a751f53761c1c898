// A bounded, lock-free multi-producer single-consumer queue of 64-bit words (encoded RelPtrs,
// rel_ptr.hpp) living in shared memory: the receive FIFO of a process. Header-only, so that the
// data path of btl_sm or coll_shm_inter inlines it.
//
// Algorithm (Vyukov's bounded queue, one consumer): every slot carries a sequence number. A
// producer claims position p with a CAS on the shared tail when slot p % capacity reads
// sequence p (free for this lap), writes the value, then publishes it by storing sequence p + 1
// with release. The consumer, alone at its private head h, takes the slot when its sequence is
// h + 1 (acquire) and hands it to the next lap by storing h + capacity. A full queue is seen
// (sequence still h - capacity + 1 behind) and reported, never waited for; a producer that has
// claimed but not yet published only delays the consumer, which then reports "empty".
//
// One slot per cache line, so that the consumer freeing one slot and a producer filling the
// next never fight over a line; the tail has a line of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

#include <plexus/sdk/shared_word.hpp>

namespace plexus::sdk {

struct alignas(kCacheLine) FifoSlot {
    uint64_t seq;
    uint64_t value;
};

struct alignas(kCacheLine) FifoHeader {
    uint64_t tail;      // next position a producer claims (CAS)
    uint32_t capacity;  // slots, a power of two
    uint32_t reserved;
};

// Bytes a FIFO of capacity slots occupies (header + slots).
constexpr size_t fifo_bytes(uint32_t capacity) {
    return sizeof(FifoHeader) + static_cast<size_t>(capacity) * sizeof(FifoSlot);
}

// Formats a FIFO at mem (cache-line aligned, fifo_bytes(capacity) long) before anyone uses it.
// capacity must be a power of two.
inline void fifo_format(void *mem, uint32_t capacity) {
    auto *header = new (mem) FifoHeader{};
    header->tail = 0;
    header->capacity = capacity;
    auto *slots = reinterpret_cast<FifoSlot *>(header + 1);
    for (uint32_t i = 0; i < capacity; ++i) {
        new (&slots[i]) FifoSlot{};
        slots[i].seq = i;  // slot i is free for position i
    }
}

// A sending process's view of a FIFO. Stateless apart from the mapping: any number of them.
class FifoProducer {
public:
    FifoProducer() = default;
    explicit FifoProducer(void *mem)
        : header_(static_cast<FifoHeader *>(mem)),
          slots_(reinterpret_cast<FifoSlot *>(header_ + 1)),
          mask_(header_->capacity - 1) {}

    // false: the FIFO is full right now (nothing was written).
    bool push(uint64_t value) {
        uint64_t pos = load_relaxed(header_->tail);
        for (;;) {
            FifoSlot &slot = slots_[pos & mask_];
            const uint64_t seq = load_acquire(slot.seq);
            const int64_t diff = static_cast<int64_t>(seq - pos);
            if (diff == 0) {
                // Claim position pos; on failure pos holds the tail another producer moved to.
                if (cas_weak_relaxed(header_->tail, &pos, pos + 1)) {
                    slot.value = value;
                    store_release(slot.seq, pos + 1);
                    return true;
                }
            } else if (diff < 0) {
                return false;  // the consumer has not freed this slot of the previous lap: full
            } else {
                pos = load_relaxed(header_->tail);  // another producer got there first
            }
        }
    }
    bool valid() const { return header_ != nullptr; }

private:
    FifoHeader *header_ = nullptr;
    FifoSlot *slots_ = nullptr;
    uint64_t mask_ = 0;
};

// The receiving process's view: the only one that pops.
class FifoConsumer {
public:
    FifoConsumer() = default;
    explicit FifoConsumer(void *mem) {
        auto *header = static_cast<FifoHeader *>(mem);
        slots_ = reinterpret_cast<FifoSlot *>(header + 1);
        capacity_ = header->capacity;
        mask_ = capacity_ - 1;
    }

    // false: nothing published at the head (the common, idle case: one load).
    bool pop(uint64_t *value) {
        FifoSlot &slot = slots_[head_ & mask_];
        if (load_acquire(slot.seq) != head_ + 1) return false;
        *value = slot.value;
        store_release(slot.seq, head_ + capacity_);
        ++head_;
        return true;
    }
    bool valid() const { return slots_ != nullptr; }

private:
    FifoSlot *slots_ = nullptr;
    uint64_t mask_ = 0;
    uint64_t capacity_ = 0;
    uint64_t head_ = 0;
};

}  // namespace plexus::sdk
