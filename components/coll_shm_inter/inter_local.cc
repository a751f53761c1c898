#include "inter_local.h"

#include <string>

#include "shm_ops.h"

namespace plexus::coll_shm_inter::inter {

Call call_of(plexus_coll_module_t *self, plexus_coll_comm_t *comm) {
    Module &m = module_of(self);
    const plexus_coll_services_t *svc = m.env.svc;
    return Call{&m,
                svc,
                comm,
                svc->comm_local(comm),
                svc->comm_rank(comm),
                svc->comm_size(comm),
                svc->comm_remote_size(comm)};
}

int Temp::init(const plexus_coll_services_t *svc, plexus_coll_dtype_t *type, long n) {
    plexus_coll_dtype_info_t info{};
    info.struct_size = sizeof info;
    if (int rc = svc->dtype_info(type, &info)) return rc;
    if (n <= 0) return PLEXUS_COLL_SUCCESS;
    const ptrdiff_t span = info.true_extent + (n - 1) * info.extent;
    try {
        if (store_.size() < static_cast<size_t>(span > 0 ? span : 1))
            store_.resize(static_cast<size_t>(span > 0 ? span : 1));
    } catch (...) {
        return PLEXUS_COLL_ERR_NO_MEM;
    }
    ptr_ = store_.data() - info.true_lb;
    return PLEXUS_COLL_SUCCESS;
}

int bytes_of(const plexus_coll_services_t *svc, plexus_coll_dtype_t *type, long count,
             size_t *out) {
    plexus_coll_dtype_info_t info{};
    info.struct_size = sizeof info;
    if (int rc = svc->dtype_info(type, &info)) return rc;
    *out = info.size * static_cast<size_t>(count);
    return PLEXUS_COLL_SUCCESS;
}

TwoLevel *local_two(Call &c, int *rc) {
    *rc = PLEXUS_COLL_SUCCESS;
    Module &m = *c.m;
    if (!m.local_tried) {
        m.local_tried = true;
        std::string why;
        const int made = TwoLevel::create(m.env, c.local, &m.two, &why);
        if (made == PLEXUS_ERR_NOT_AVAILABLE) {
            if (m.env.host && m.env.self)
                m.env.host->log(m.env.self, PLEXUS_LOG_DECISION,
                                "inter-communicator's local group: %s; its local phases go through "
                                "its own chain",
                                why.c_str());
        } else if (made != PLEXUS_SUCCESS) {
            *rc = made;
        }
    }
    return m.two.get();
}

int local_barrier(Call &c) {
    int rc = PLEXUS_COLL_SUCCESS;
    if (TwoLevel *two = local_two(c, &rc)) return two->barrier();
    return rc ? rc : c.svc->dispatch->barrier(nullptr, c.local);
}

int local_bcast(Call &c, void *buf, int count, plexus_coll_dtype_t *type) {
    int rc = PLEXUS_COLL_SUCCESS;
    if (TwoLevel *two = local_two(c, &rc))
        if (rc = ops::bcast(c.m->env, *two, buf, count, type, kLeader); rc != PLEXUS_COLL_DECLINE)
            return rc;
    return rc > 0 ? rc : c.svc->dispatch->bcast(nullptr, buf, count, type, kLeader, c.local);
}

int local_reduce(Call &c, const void *sendbuf, void *recvbuf, int count, plexus_coll_dtype_t *type,
                 plexus_coll_op_t *op) {
    int rc = PLEXUS_COLL_SUCCESS;
    if (TwoLevel *two = local_two(c, &rc))
        if (rc = ops::reduce(c.m->env, *two, sendbuf, recvbuf, count, type, op, kLeader);
            rc != PLEXUS_COLL_DECLINE)
            return rc;
    return rc > 0 ? rc
                  : c.svc->dispatch->reduce(nullptr, sendbuf, recvbuf, count, type, op, kLeader,
                                            c.local);
}

int local_gather(Call &c, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                 void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype) {
    int rc = PLEXUS_COLL_SUCCESS;
    if (TwoLevel *two = local_two(c, &rc))
        if (rc = ops::gather(c.m->env, *two, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                             recvtype, kLeader);
            rc != PLEXUS_COLL_DECLINE)
            return rc;
    return rc > 0 ? rc
                  : c.svc->dispatch->gather(nullptr, sendbuf, sendcount, sendtype, recvbuf,
                                            recvcount, recvtype, kLeader, c.local);
}

int local_scatter(Call &c, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                  void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype) {
    int rc = PLEXUS_COLL_SUCCESS;
    if (TwoLevel *two = local_two(c, &rc))
        if (rc = ops::scatter(c.m->env, *two, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                              recvtype, kLeader);
            rc != PLEXUS_COLL_DECLINE)
            return rc;
    return rc > 0 ? rc
                  : c.svc->dispatch->scatter(nullptr, sendbuf, sendcount, sendtype, recvbuf,
                                             recvcount, recvtype, kLeader, c.local);
}

}  // namespace plexus::coll_shm_inter::inter
