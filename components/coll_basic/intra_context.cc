// The call context of the intra-communicator algorithms and the small helpers of basic_intra.h /
// basic_buffer.h.
#include <cstring>

#include "basic_intra.h"

namespace plexus::coll_basic {

Ctx make_ctx(plexus_coll_module_t *self, plexus_coll_comm_t *comm, int tag) {
    const Module &m = module_of(self);
    return Ctx{m.svc, comm, m.params, m.svc->comm_rank(comm), m.svc->comm_size(comm), tag};
}

int get_layout(const plexus_coll_services_t *svc, plexus_coll_dtype_t *type, Layout *out) {
    plexus_coll_dtype_info_t info{};
    info.struct_size = sizeof info;
    BASIC_TRY(svc->dtype_info(type, &info));
    out->type = type;
    out->extent = info.extent;
    out->true_lb = info.true_lb;
    out->true_extent = info.true_extent;
    out->size = info.size;
    out->contiguous = info.contiguous != 0;
    return 0;
}

bool Snapshot::take(const void *buf, const char **view) {
    if (empty_) {
        *view = static_cast<const char *>(buf);
        return true;
    }
    if (!copy_.allocate_bytes(static_cast<size_t>(hi_ - lo_))) return false;
    std::memcpy(copy_.data(), static_cast<const char *>(buf) + lo_, static_cast<size_t>(hi_ - lo_));
    *view = copy_.data() - lo_;
    return true;
}

}  // namespace plexus::coll_basic
