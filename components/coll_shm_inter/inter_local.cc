#include "inter_local.h"

#include <unistd.h>

#include <string>

#include "shm_ops.h"
#include "shm_setup.h"
#include "shm_tags.h"

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

namespace {

// 1: this group comes first in the union, 0: second, -1: no order (never between two live
// processes; then neither side makes the union). The leaders swap (host, pid), each tells its
// group.
int union_order(Call &c, int *order) {
    struct Key {
        uint64_t node;
        int64_t pid;
    } mine{node_key(0, 0), static_cast<int64_t>(getpid())}, theirs{};
    if (c.leader()) {
        if (int rc = c.svc->sendrecv(&mine, sizeof mine, c.svc->byte_type, kLeader, &theirs,
                                     sizeof theirs, c.svc->byte_type, kLeader, kTagUnionOrder,
                                     c.comm))
            return rc;
        *order = mine.node != theirs.node ? (mine.node < theirs.node ? 1 : 0)
                 : mine.pid != theirs.pid ? (mine.pid < theirs.pid ? 1 : 0)
                                          : -1;
        for (int r = 1; r < c.size; ++r)
            if (int rc = c.svc->send(order, sizeof *order, c.svc->byte_type, r, kTagUnionOrder,
                                     c.local))
                return rc;
        return PLEXUS_COLL_SUCCESS;
    }
    return c.svc->recv(order, sizeof *order, c.svc->byte_type, kLeader, kTagUnionOrder, c.local);
}

}  // namespace

TwoLevel *union_two(Call &c, int *rc) {
    *rc = PLEXUS_COLL_SUCCESS;
    Module &m = *c.m;
    if (m.both_tried) return m.both.get();
    m.both_tried = true;
    if (!m.env.params->inter_union) return nullptr;
    int order = -1;
    if ((*rc = union_order(c, &order)) || order < 0) return nullptr;
    Peers peers;
    peers.svc = c.svc;
    peers.size = c.size + c.remote_size;
    if (order == 1) {
        peers.low = c.local, peers.high = c.comm, peers.split = c.size;
        m.both_lo = 0, m.other_lo = c.size;
    } else {
        peers.low = c.comm, peers.high = c.local, peers.split = c.remote_size;
        m.both_lo = c.remote_size, m.other_lo = 0;
    }
    peers.rank = m.both_lo + c.rank;
    std::string why;
    const int made = TwoLevel::create_on_one_node(m.env, peers, &m.both, &why);
    if (made == PLEXUS_ERR_NOT_AVAILABLE) {
        if (m.env.host && m.env.self)
            m.env.host->log(m.env.self, PLEXUS_LOG_DECISION,
                            "inter-communicator's two groups: %s; a local phase in each group "
                            "and the leaders' exchange serve it",
                            why.c_str());
    } else if (made != PLEXUS_SUCCESS) {
        *rc = made;
    } else if (peers.rank == 0 && m.env.host && m.env.self) {
        m.env.host->log(m.env.self, PLEXUS_LOG_DECISION,
                        "inter-communicator's two groups (%d + %d processes) share one node: one "
                        "segment over both",
                        peers.split, peers.size - peers.split);
    }
    return m.both.get();
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
