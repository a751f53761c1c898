#include "fastbox.h"

namespace plexus::btl_sm {

void box_format(void *mem, size_t ring_size) { std::memset(mem, 0, box_bytes(ring_size)); }

BoxWriter::BoxWriter(void *mem, size_t ring_size)
    : control_(static_cast<BoxControl *>(mem)),
      ring_(static_cast<uint8_t *>(mem) + sizeof(BoxControl)),
      size_(ring_size),
      mask_(ring_size - 1) {}

bool BoxWriter::refresh(uint64_t need) {
    read_cache_ = load_acquire(control_->read_pos);
    return pos_ + need - read_cache_ <= size_;
}

bool BoxWriter::drained() const { return load_acquire(control_->read_pos) == pos_; }

BoxReader::BoxReader(void *mem, size_t ring_size)
    : control_(static_cast<BoxControl *>(mem)),
      ring_(static_cast<uint8_t *>(mem) + sizeof(BoxControl)),
      mask_(ring_size - 1) {}

}  // namespace plexus::btl_sm
