// The attached buffer's allocator: first fit, split on allocation, merge on release.
#include "mpi/bsend_buffer.h"

#include <cstring>

namespace plexus::mpi {

void BsendBuffer::attach(void *buf, size_t size) {
    user_buf_ = buf;
    user_size_ = size;
    const auto addr = reinterpret_cast<uintptr_t>(buf);
    const size_t pad = (kAlign - addr % kAlign) % kAlign;
    base_ = static_cast<char *>(buf) + pad;
    size_ = size > pad ? (size - pad) / kAlign * kAlign : 0;
    if (size_ < kMinBlock) size_ = 0;  // too small for any message
    used_blocks_ = used_bytes_ = 0;
    if (size_) *first() = Header{size_, 0, nullptr};
}

void BsendBuffer::detach(void **buf, size_t *size) {
    *buf = user_buf_;
    *size = user_size_;
    user_buf_ = nullptr;
    base_ = nullptr;
    size_ = user_size_ = 0;
}

BsendBuffer::Header *BsendBuffer::next(Header *h) const {
    char *n = reinterpret_cast<char *>(h) + h->size;
    return n < base_ + size_ ? reinterpret_cast<Header *>(n) : nullptr;
}

BsendBuffer::Header *BsendBuffer::prev(Header *h) const {
    return h->prev_size ? reinterpret_cast<Header *>(reinterpret_cast<char *>(h) - h->prev_size) : nullptr;
}

void *BsendBuffer::allocate(size_t bytes, Request *owner) {
    if (!size_ || bytes > size_) return nullptr;
    const size_t need = kHeader + (bytes + kAlign - 1) / kAlign * kAlign;
    for (Header *h = first(); h; h = next(h)) {
        if (h->owner || h->size < need) continue;
        if (h->size - need >= kMinBlock) {  // split: the rest stays free
            auto *rest = reinterpret_cast<Header *>(reinterpret_cast<char *>(h) + need);
            *rest = Header{h->size - need, need, nullptr};
            if (Header *after = next(rest)) after->prev_size = rest->size;
            h->size = need;
        }
        h->owner = owner;
        ++used_blocks_;
        used_bytes_ += h->size;
        return reinterpret_cast<char *>(h) + kHeader;
    }
    return nullptr;
}

void BsendBuffer::release(void *region) {
    release_block(reinterpret_cast<Header *>(static_cast<char *>(region) - kHeader));
}

BsendBuffer::Header *BsendBuffer::release_block(Header *h) {
    h->owner = nullptr;
    --used_blocks_;
    used_bytes_ -= h->size;
    if (Header *n = next(h); n && !n->owner) h->size += n->size;
    if (Header *p = prev(h); p && !p->owner) {
        p->size += h->size;
        h = p;
    }
    if (Header *n = next(h)) n->prev_size = h->size;
    return h;
}

size_t BsendBuffer::largest_free() const {
    size_t best = 0;
    for (Header *h = size_ ? first() : nullptr; h; h = next(h))
        if (!h->owner && h->size - kHeader > best) best = h->size - kHeader;
    return best;
}

}  // namespace plexus::mpi
