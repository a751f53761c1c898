// The shared pieces of the inter-communicator collectives (inter_support.h).
#include "inter_support.h"

#include <climits>
#include <new>

#include "basic_context.h"

namespace plexus::coll_basic::inter {

Call call_of(plexus_coll_module_t *self, plexus_coll_comm_t *comm) {
    const plexus_coll_services_t *svc = module_of(self).svc;
    return Call{svc,
                comm,
                svc->comm_local(comm),
                svc->dispatch,
                svc->comm_rank(comm),
                svc->comm_size(comm),
                svc->comm_remote_size(comm)};
}

int to_count(long long n, int *out) {
    if (n < 0 || n > INT_MAX) return PLEXUS_COLL_ERR_UNSUPPORTED;
    *out = static_cast<int>(n);
    return PLEXUS_COLL_SUCCESS;
}

int layout_and_temp(const plexus_coll_services_t *svc, plexus_coll_dtype_t *type, long n, bool want,
                    Layout *layout, TempBuffer *buf) {
    if (int rc = get_layout(svc, type, layout); rc != PLEXUS_COLL_SUCCESS) return rc;
    if (want && !buf->allocate(*layout, n)) return PLEXUS_COLL_ERR_NO_MEM;
    return PLEXUS_COLL_SUCCESS;
}

int Requests::reserve(int n) {
    if (n <= capacity_) return PLEXUS_COLL_SUCCESS;
    wait_all();
    list_.reset(new (std::nothrow) plexus_coll_request_t *[static_cast<size_t>(n)]);
    capacity_ = list_ ? n : 0;
    return list_ ? PLEXUS_COLL_SUCCESS : PLEXUS_COLL_ERR_NO_MEM;
}

int Requests::post_result(int rc) {
    if (rc == PLEXUS_COLL_SUCCESS) {
        ++posted_;
    } else if (error_ == PLEXUS_COLL_SUCCESS) {
        error_ = rc;
    }
    return rc;
}

int Requests::isend(const void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag) {
    if (posted_ == capacity_) return post_result(PLEXUS_COLL_ERR_INTERN);
    list_[posted_] = nullptr;
    return post_result(svc_->isend(buf, count, type, peer, tag, comm_, &list_[posted_]));
}

int Requests::irecv(void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag) {
    if (posted_ == capacity_) return post_result(PLEXUS_COLL_ERR_INTERN);
    list_[posted_] = nullptr;
    return post_result(svc_->irecv(buf, count, type, peer, tag, comm_, &list_[posted_]));
}

int Requests::wait_all() {
    if (posted_ > 0) {
        int rc = svc_->waitall(posted_, list_.get());
        if (rc != PLEXUS_COLL_SUCCESS && error_ == PLEXUS_COLL_SUCCESS) error_ = rc;
        posted_ = 0;
    }
    int rc = error_;
    error_ = PLEXUS_COLL_SUCCESS;
    return rc;
}

}  // namespace plexus::coll_basic::inter
