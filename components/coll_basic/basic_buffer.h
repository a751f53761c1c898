// Datatype-aware buffers for coll_basic: the layout of a datatype (from the services), addresses of
// item i of a buffer, and temporaries big enough for n items of any datatype (true_extent +
// (n - 1) * extent bytes, addressed true_lb bytes before their storage, as MPI lays them out).
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>

#include <plexus/coll.h>

namespace plexus::coll_basic {

// The layout of one datatype, as the algorithms need it.
struct Layout {
    plexus_coll_dtype_t *type = nullptr;
    ptrdiff_t extent = 0;
    ptrdiff_t true_lb = 0;
    ptrdiff_t true_extent = 0;
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

// A temporary for n items of a layout. data() is the address to give the services (its first item);
// it is null when n is 0 (then nothing may be read or written through it anyway).
class TempBuffer {
public:
    TempBuffer() = default;
    // false when the memory could not be allocated.
    bool allocate(const Layout &layout, long n) {
        const size_t bytes = layout.span(n);
        if (bytes == 0) {
            storage_.reset();
            data_ = nullptr;
            return true;
        }
        storage_.reset(new (std::nothrow) char[bytes]);
        if (!storage_) return false;
        data_ = storage_.get() - layout.true_lb;
        return true;
    }
    // Raw bytes (no datatype shift).
    bool allocate_bytes(size_t bytes) {
        storage_.reset(bytes ? new (std::nothrow) char[bytes] : nullptr);
        data_ = storage_.get();
        return bytes == 0 || storage_ != nullptr;
    }
    char *data() const { return data_; }

private:
    std::unique_ptr<char[]> storage_;
    char *data_ = nullptr;
};

}  // namespace plexus::coll_basic
