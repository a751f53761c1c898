// Datatype-aware buffers for coll_basic: the layout of a datatype (from the services), addresses of
// item i of a buffer, and temporaries big enough for n items of any datatype (true_extent +
// (n - 1) * extent bytes, addressed true_lb bytes before their storage, as MPI lays them out).
#pragma once

#include <cstddef>
#include <cstring>

#include <plexus/coll.h>

#include "basic_scratch.h"

namespace plexus::coll_basic {

// The layout of one datatype, as the algorithms need it.
struct Layout {
    plexus_coll_dtype_t *type = nullptr;
    ptrdiff_t extent = 0;
    // In the opposite order to plexus_coll_dtype_info_t's: g++ would otherwise copy the pair with
    // one 16-byte load of the two 8-byte stores dtype_info just made, which the CPU cannot
    // forward from its store buffer (a stall on every call of a small collective).
    ptrdiff_t true_extent = 0;
    ptrdiff_t true_lb = 0;
    size_t size = 0;  // bytes of data per item
    bool contiguous = false;  // an item is `size` bytes in a row and items follow without gaps

    // Bytes a temporary for n items spans (0 for n == 0).
    size_t span(long n) const {
        return n <= 0 ? 0 : static_cast<size_t>(true_extent + (n - 1) * extent);
    }
    // Item i of a buffer laid out as this type.
    char *at(void *buf, long i) const { return static_cast<char *>(buf) + i * extent; }
    const char *at(const void *buf, long i) const { return static_cast<const char *>(buf) + i * extent; }
};

// Asks the services; rc is the error class on failure.
int get_layout(const plexus_coll_services_t *svc, plexus_coll_dtype_t *type, Layout *out);

// Whether n items of a layout carry data. MPI matches a block by its type signature, not its
// count: n items of a zero-size type are as empty as 0 items of MPI_INT, and the two sides of a
// transfer may describe one empty block either way. So every "send or not, receive or not"
// decision goes by this, never by the count alone (a count decision hangs or leaves a stray
// message when the sides differ).
inline bool carries_data(const Layout &l, long n) { return n > 0 && l.size > 0; }

// A temporary for n items of a layout, from the scratch cache (basic_scratch.h) and given back to
// it when the buffer goes; up to kInline bytes live in the object itself (the scratch cache's
// thread-local lookup costs a small collective more than its copy). data() is the address to give
// the services (its first item); it is null when n is 0 (then nothing may be read or written
// through it anyway).
class TempBuffer {
public:
    static constexpr size_t kInline = 256;
    // User-provided, so that a value-initialized one (std::vector<TempBuffer>(k)) does not clear
    // the inline bytes first.
    TempBuffer() {}
    ~TempBuffer() {
        if (block_.data) scratch_release(block_);
    }
    TempBuffer(const TempBuffer &) = delete;
    TempBuffer &operator=(const TempBuffer &) = delete;
    // false when the memory could not be allocated.
    bool allocate(const Layout &layout, long n) {
        if (!allocate_bytes(layout.span(n))) return false;
        if (data_) data_ -= layout.true_lb;
        return true;
    }
    // Raw bytes (no datatype shift).
    bool allocate_bytes(size_t bytes) {
        if (block_.data) scratch_release(block_);
        block_ = {};
        if (bytes <= kInline) {
            data_ = bytes ? inline_ : nullptr;
            return true;
        }
        block_ = scratch_acquire(bytes);
        data_ = block_.data;
        return data_ != nullptr;
    }
    char *data() const { return data_; }

private:
    ScratchBlock block_;
    char *data_ = nullptr;
    alignas(64) char inline_[kInline];
};

}  // namespace plexus::coll_basic
