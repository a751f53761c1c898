// A shared segment of the core's shm services (plexus/shm.h) owned by a C++ object: detached
// (and, when this process created it, its name removed) when the object goes. base(), size(),
// tag() and named() are kept here, so the data path reads them without calling into the core.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include <plexus/shm.h>

namespace plexus::sdk {

class ShmSegment {
public:
    ShmSegment() = default;
    ~ShmSegment() { reset(); }
    ShmSegment(ShmSegment &&other) noexcept { *this = std::move(other); }
    ShmSegment &operator=(ShmSegment &&other) noexcept {
        if (this != &other) {
            reset();
            svc_ = std::exchange(other.svc_, nullptr);
            seg_ = std::exchange(other.seg_, nullptr);
            base_ = std::exchange(other.base_, nullptr);
            size_ = std::exchange(other.size_, 0);
            tag_ = std::exchange(other.tag_, 0);
            named_ = std::exchange(other.named_, false);
        }
        return *this;
    }
    ShmSegment(const ShmSegment &) = delete;
    ShmSegment &operator=(const ShmSegment &) = delete;

    // PLEXUS_SUCCESS or the services' error with *why.
    static int create(const plexus_shm_services_t *svc, const plexus_shm_create_args_t &args, ShmSegment *out,
                      plexus_reason_t *why) {
        plexus_shm_segment_t *seg = nullptr;
        const int rc = svc->segment_create(&args, &seg, why);
        return rc == PLEXUS_SUCCESS ? out->adopt(svc, seg) : rc;
    }
    static int attach(const plexus_shm_services_t *svc, const plexus_shm_desc_t &desc, ShmSegment *out,
                      plexus_reason_t *why) {
        plexus_shm_segment_t *seg = nullptr;
        const int rc = svc->segment_attach(&desc, &seg, why);
        return rc == PLEXUS_SUCCESS ? out->adopt(svc, seg) : rc;
    }

    uint8_t *base() const { return base_; }
    size_t size() const { return size_; }
    uint64_t tag() const { return tag_; }  // unique per segment (plexus_shm_desc_t.tag)
    // This process's segment still has a name in /dev/shm (as far as this process knows).
    bool named() const { return named_; }
    explicit operator bool() const { return seg_ != nullptr; }

    plexus_shm_desc_t describe() const {
        plexus_shm_desc_t d{};
        if (seg_) svc_->segment_describe(seg_, &d);
        return d;
    }
    plexus_shm_segment_info_t info() const {
        plexus_shm_segment_info_t i{};
        i.struct_size = sizeof i;
        if (seg_) svc_->segment_info(seg_, &i);
        return i;
    }
    // Owned segments: the name goes now, or once every expected peer attached. true: no name.
    bool unlink(bool if_all_attached = false) {
        if (named_ && svc_->segment_unlink(seg_, if_all_attached ? 1 : 0) == 1) named_ = false;
        return !named_;
    }
    void reset() {
        if (seg_) svc_->segment_detach(seg_);
        seg_ = nullptr;
        base_ = nullptr;
        size_ = 0;
        tag_ = 0;
        named_ = false;
    }

private:
    int adopt(const plexus_shm_services_t *svc, plexus_shm_segment_t *seg) {
        reset();
        svc_ = svc;
        seg_ = seg;
        const plexus_shm_segment_info_t i = info();
        base_ = static_cast<uint8_t *>(i.base);
        size_ = static_cast<size_t>(i.size);
        named_ = i.owned && i.named;
        tag_ = describe().tag;
        return PLEXUS_SUCCESS;
    }

    const plexus_shm_services_t *svc_ = nullptr;
    plexus_shm_segment_t *seg_ = nullptr;
    uint8_t *base_ = nullptr;
    size_t size_ = 0;
    uint64_t tag_ = 0;
    bool named_ = false;
};

}  // namespace plexus::sdk
