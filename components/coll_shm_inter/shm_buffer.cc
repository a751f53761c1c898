#include "shm_buffer.h"

namespace plexus::coll_shm_inter {
namespace {

int apply(void *ctx, const void *in, void *inout, size_t items) {
    const auto *c = static_cast<const OpCall *>(ctx);
    return c->svc->op_apply(c->op, in, inout, static_cast<int>(items), c->type);
}

}  // namespace

int Packed::init(const plexus_coll_services_t *svc, const void *buf, long count,
                 plexus_coll_dtype_t *type) {
    svc_ = svc;
    buf_ = const_cast<void *>(buf);
    count_ = static_cast<int>(count);
    type_ = type;
    plexus_coll_dtype_info_t info{};
    info.struct_size = sizeof info;
    if (int rc = svc->dtype_info(type, &info)) return rc;
    bytes_ = info.size * static_cast<size_t>(count);
    direct_ = info.contiguous != 0 || bytes_ == 0;
    if (direct_) {
        data_ = static_cast<uint8_t *>(buf_) + (bytes_ ? info.true_lb : 0);
        return PLEXUS_COLL_SUCCESS;
    }
    try {
        temp_.resize(bytes_);
    } catch (...) {
        return PLEXUS_COLL_ERR_NO_MEM;
    }
    data_ = temp_.data();
    return PLEXUS_COLL_SUCCESS;
}

int Packed::pack() const {
    if (direct_) return PLEXUS_COLL_SUCCESS;
    return svc_->copy(buf_, count_, type_, data_, static_cast<int>(bytes_), svc_->byte_type);
}

int Packed::unpack() const {
    if (direct_) return PLEXUS_COLL_SUCCESS;
    return svc_->copy(data_, static_cast<int>(bytes_), svc_->byte_type, buf_, count_, type_);
}

Combine combine_of(OpCall *call) {
    return Combine{apply, call};
}

}  // namespace plexus::coll_shm_inter
