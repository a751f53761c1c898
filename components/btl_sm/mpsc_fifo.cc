#include "mpsc_fifo.h"

#include <new>

namespace plexus::btl_sm {

void fifo_format(void *mem, uint32_t capacity) {
    auto *header = new (mem) FifoHeader{};
    header->tail = 0;
    header->capacity = capacity;
    auto *slots = reinterpret_cast<FifoSlot *>(header + 1);
    for (uint32_t i = 0; i < capacity; ++i) {
        new (&slots[i]) FifoSlot{};
        slots[i].seq = i;  // slot i is free for position i
    }
}

FifoProducer::FifoProducer(void *mem)
    : header_(static_cast<FifoHeader *>(mem)),
      slots_(reinterpret_cast<FifoSlot *>(header_ + 1)),
      mask_(header_->capacity - 1) {}

bool FifoProducer::push(uint64_t value) {
    std::atomic_ref<uint64_t> tail(header_->tail);
    uint64_t pos = tail.load(std::memory_order_relaxed);
    for (;;) {
        FifoSlot &slot = slots_[pos & mask_];
        const uint64_t seq = load_acquire(slot.seq);
        const int64_t diff = static_cast<int64_t>(seq - pos);
        if (diff == 0) {
            // Claim position pos; on failure pos holds the tail another producer moved to.
            if (tail.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) {
                slot.value = value;
                store_release(slot.seq, pos + 1);
                return true;
            }
        } else if (diff < 0) {
            return false;  // the consumer has not freed this slot of the previous lap: full
        } else {
            pos = tail.load(std::memory_order_relaxed);  // another producer got there first
        }
    }
}

FifoConsumer::FifoConsumer(void *mem) {
    auto *header = static_cast<FifoHeader *>(mem);
    slots_ = reinterpret_cast<FifoSlot *>(header + 1);
    capacity_ = header->capacity;
    mask_ = capacity_ - 1;
}

}  // namespace plexus::btl_sm
