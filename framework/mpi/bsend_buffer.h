// The buffer of MPI_Buffer_attach: an allocator inside the user's memory for the copies that
// buffered sends travel from. Blocks carry a header (MPI_BSEND_OVERHEAD covers it and the
// alignment), are found first-fit in address order and merge with free neighbours when
// released. A block belongs to the request sending from it until that request completes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpi.h"
#include "mpi/request.h"

namespace plexus::mpi {

class BsendBuffer {
public:
    static constexpr size_t kAlign = 16;

    bool attached() const { return user_buf_ != nullptr; }
    // The caller checked that nothing is attached.
    void attach(void *buf, size_t size);
    // What attach was given; the caller has drained every block first.
    void detach(void **buf, size_t *size);

    // A region of bytes bytes sent by owner, or nullptr when no free block is large enough.
    void *allocate(size_t bytes, Request *owner);
    void release(void *region);

    // Releases the block of every owner that has completed and hands that owner to done.
    template <class Done>
    size_t reap(Done &&done);
    // Waits with wait_until(predicate) until every block is released, reaping as owners complete.
    template <class WaitUntil, class Done>
    void drain(WaitUntil &&wait_until, Done &&done) {
        wait_until([&] {
            reap(done);
            return used_blocks_ == 0;
        });
    }

    size_t capacity() const { return user_size_; }
    size_t used_blocks() const { return used_blocks_; }
    size_t used_bytes() const { return used_bytes_; }  // headers included
    size_t largest_free() const;                       // the biggest message that fits now

private:
    struct Header {
        size_t size;       // the whole block, header included
        size_t prev_size;  // the block before it (0 for the first): for merging backwards
        Request *owner;    // nullptr when free
    };
    static constexpr size_t kHeader = (sizeof(Header) + kAlign - 1) / kAlign * kAlign;
    static constexpr size_t kMinBlock = kHeader + kAlign;
    // A user who sized the buffer as the sum of (message + MPI_BSEND_OVERHEAD) always fits:
    // the header, the rounding of the message and the alignment of the buffer's start.
    static_assert(kHeader + 2 * (kAlign - 1) <= MPI_BSEND_OVERHEAD, "MPI_BSEND_OVERHEAD too small");

    Header *first() const { return reinterpret_cast<Header *>(base_); }
    Header *next(Header *h) const;  // nullptr after the last
    Header *prev(Header *h) const;  // nullptr before the first
    Header *release_block(Header *h);  // returns the free block now holding h's space

    char *base_ = nullptr;  // aligned start of the blocks
    size_t size_ = 0;       // bytes of blocks
    void *user_buf_ = nullptr;
    size_t user_size_ = 0;
    size_t used_blocks_ = 0;
    size_t used_bytes_ = 0;
};

template <class Done>
size_t BsendBuffer::reap(Done &&done) {
    size_t reaped = 0;
    for (Header *h = size_ ? first() : nullptr; h; h = next(h)) {
        if (!h->owner || !h->owner->complete) continue;
        Request *owner = h->owner;
        h = release_block(h);
        done(owner);
        ++reaped;
    }
    return reaped;
}

}  // namespace plexus::mpi
