// Owning handles for the libibverbs objects btl_openib holds: each is released by its own verbs
// call when its owner goes, in the reverse order of the members that hold them.
#pragma once

#include <infiniband/verbs.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace plexus::btl_openib {

template <typename T, int (*Free)(T *)>
struct VerbsDeleter {
    void operator()(T *p) const {
        if (p) (void)Free(p);
    }
};

struct DeviceListDeleter {
    void operator()(ibv_device **list) const {
        if (list) ibv_free_device_list(list);
    }
};

using DeviceListPtr = std::unique_ptr<ibv_device *, DeviceListDeleter>;
using ContextPtr = std::unique_ptr<ibv_context, VerbsDeleter<ibv_context, ibv_close_device>>;
using PdPtr = std::unique_ptr<ibv_pd, VerbsDeleter<ibv_pd, ibv_dealloc_pd>>;
using CqPtr = std::unique_ptr<ibv_cq, VerbsDeleter<ibv_cq, ibv_destroy_cq>>;
using QpPtr = std::unique_ptr<ibv_qp, VerbsDeleter<ibv_qp, ibv_destroy_qp>>;
using MrPtr = std::unique_ptr<ibv_mr, VerbsDeleter<ibv_mr, ibv_dereg_mr>>;

// Page-aligned memory for buffers the HCA reads and writes, with its registration; the MR goes
// before the memory.
class RegisteredSlab {
public:
    RegisteredSlab() = default;
    RegisteredSlab(const RegisteredSlab &) = delete;
    RegisteredSlab &operator=(const RegisteredSlab &) = delete;
    ~RegisteredSlab() {
        mr_.reset();
        std::free(mem_);
    }
    // bytes of zeroed memory registered in pd with access; false when either step fails (errno).
    bool allocate(ibv_pd *pd, size_t bytes, int access) {
        if (::posix_memalign(&mem_, 4096, bytes) != 0) {
            mem_ = nullptr;
            return false;
        }
        std::memset(mem_, 0, bytes);
        bytes_ = bytes;
        mr_.reset(ibv_reg_mr(pd, mem_, bytes, access));
        return mr_ != nullptr;
    }
    uint8_t *base() const { return static_cast<uint8_t *>(mem_); }
    size_t bytes() const { return bytes_; }
    uint32_t lkey() const { return mr_->lkey; }
    uint32_t rkey() const { return mr_->rkey; }

private:
    void *mem_ = nullptr;
    size_t bytes_ = 0;
    MrPtr mr_;
};

}  // namespace plexus::btl_openib
