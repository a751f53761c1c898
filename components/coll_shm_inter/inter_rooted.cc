// The rooted collectives on an inter-communicator (MPI-2.2 5.2.2): the root (MPI_ROOT) talks to
// the other group's leader only, by point-to-point, and that group runs the local phase rooted
// at its leader on shared memory; the rest of the root's group (MPI_PROC_NULL) takes no part.
// Data from the root's side: Bcast, Scatter; to it: Reduce (the other group's rank order kept by
// the local reduction), Gather.
//
// Bcast and Reduce go over the union of both groups first, where there is one (inter_local.h,
// union_two): the root gives to the other group, or takes from it, in one phase of flags in the
// union's segment, with no leaders' message and no local phase. Every process of both groups
// counts that phase, the rest of the root's group (MPI_PROC_NULL, which the MPI layer hands down
// for this) and calls that move nothing by Engine::pass; a call the union does not serve
// (shm_decide.h, decide_union_*) passes too and goes on to the leaders.
#include <cstring>

#include "inter_link.h"
#include "inter_local.h"
#include "shm_buffer.h"
#include "shm_decide.h"
#include "shm_functions.h"
#include "shm_tags.h"

namespace plexus::coll_shm_inter {

using namespace inter;

namespace {

// Bytes, lb 0, no gaps: a slot holds the vector as the operation reads it.
bool plain(const plexus_coll_dtype_info_t &info) {
    return info.contiguous && info.lb == 0 && info.true_lb == 0;
}

// The root's union rank as the other group sees it (root: its rank in the root's group).
int root_in_union(const Call &c, int root) {
    return union_other(c) + root;
}

// A root that failed before giving still ends the phase, so that no reader waits for ever: it
// lends nothing, which a single-copy reader fails to read and a slot reader reads as garbage;
// the error itself is the root's.
int fail_to_give(Call &c, Engine &e, int rc) {
    const int lo = union_other(c);
    e.lend(nullptr, 0, lo, lo + c.remote_size);
    return rc;
}

int give(Call &c, Engine &e, const Packed &data, Path path) {
    if (int rc = data.pack()) return fail_to_give(c, e, rc);
    const int lo = union_other(c), hi = lo + c.remote_size;
    if (path == Path::SingleCopy) {
        e.lend(data.data(), data.bytes(), lo, hi);
        return PLEXUS_COLL_SUCCESS;
    }
    return e.exchange(data.data(), data.bytes(), 0, 0, [](auto) { return PLEXUS_COLL_SUCCESS; });
}

int receive(Engine &e, int from, const Packed &data, Path path) {
    int rc = path == Path::SingleCopy ? e.borrow(from, data.data(), data.bytes())
                                      : e.exchange(nullptr, 0, from, from + 1, [&](auto slot_of) {
                                            std::memcpy(data.data(), slot_of(from), data.bytes());
                                            return PLEXUS_COLL_SUCCESS;
                                        });
    return rc ? rc : data.unpack();
}

// The other group's vectors, x_lo op (x_lo+1 op (...)), into recvbuf: straight from the slots
// when the root's type is plain, else each unpacked into its layout first.
template <class SlotOf>
int combine_into(Call &c, plexus_coll_op_t *op, plexus_coll_dtype_t *type, int count,
                 const plexus_coll_dtype_info_t &info, size_t bytes, void *recvbuf, int lo, int hi,
                 SlotOf slot_of) {
    const auto *svc = c.svc;
    const int packed = static_cast<int>(bytes);
    if (plain(info)) {
        std::memcpy(recvbuf, slot_of(hi - 1), bytes);
        for (int i = hi - 2; i >= lo; --i)
            if (int rc = svc->op_apply(op, slot_of(i), recvbuf, count, type)) return rc;
        return PLEXUS_COLL_SUCCESS;
    }
    if (int rc = svc->copy(slot_of(hi - 1), packed, svc->byte_type, recvbuf, count, type))
        return rc;
    Temp piece(c.m->temps[1]);
    if (int rc = piece.init(svc, type, count)) return rc;
    for (int i = hi - 2; i >= lo; --i) {
        if (int rc = svc->copy(slot_of(i), packed, svc->byte_type, piece.data(), count, type))
            return rc;
        if (int rc = svc->op_apply(op, piece.data(), recvbuf, count, type)) return rc;
    }
    return PLEXUS_COLL_SUCCESS;
}

int union_bcast(Call &c, TwoLevel &both, void *buf, int count, plexus_coll_dtype_t *type,
                int root) {
    Engine &e = both.engine();
    if (root == PLEXUS_COLL_PROC_NULL) {
        e.pass();
        return PLEXUS_COLL_SUCCESS;
    }
    Packed data;
    if (int rc = data.init(c.svc, buf, count, type))
        return root == PLEXUS_COLL_ROOT ? fail_to_give(c, e, rc) : (e.pass(), rc);
    const Path path = decide_union_bcast(*c.m->env.params, data.bytes(), both.single_copy());
    if (data.bytes() == 0 || path == Path::Decline) {
        e.pass();
        return data.bytes() ? PLEXUS_COLL_DECLINE : PLEXUS_COLL_SUCCESS;
    }
    if (root == PLEXUS_COLL_ROOT) return give(c, e, data, path);
    return receive(e, root_in_union(c, root), data, path);
}

int union_reduce(Call &c, TwoLevel &both, const void *sendbuf, void *recvbuf, int count,
                 plexus_coll_dtype_t *type, plexus_coll_op_t *op, int root) {
    Engine &e = both.engine();
    if (root == PLEXUS_COLL_PROC_NULL || count == 0) {
        e.pass();
        return PLEXUS_COLL_SUCCESS;
    }
    plexus_coll_dtype_info_t info{};
    info.struct_size = sizeof info;
    if (int rc = c.svc->dtype_info(type, &info)) {
        // A writer still posts (the root waits for it), the root has nobody waiting for it.
        if (root == PLEXUS_COLL_ROOT)
            e.pass();
        else
            e.exchange(nullptr, 0, 0, 0, [](auto) { return PLEXUS_COLL_SUCCESS; });
        return rc;
    }
    const size_t bytes = info.size * static_cast<size_t>(count);
    if (decide_union_reduce(*c.m->env.params, bytes) == Path::Decline) {
        e.pass();
        return PLEXUS_COLL_DECLINE;
    }
    if (root == PLEXUS_COLL_ROOT) {
        const int lo = union_other(c), hi = lo + c.remote_size;
        return e.exchange(nullptr, 0, lo, hi, [&](auto slot_of) {
            return combine_into(c, op, type, count, info, bytes, recvbuf, lo, hi, slot_of);
        });
    }
    // The other group writes its vectors packed: the root alone decides how to combine them.
    Packed mine;
    int rc = mine.init(c.svc, sendbuf, count, type);
    if (rc == PLEXUS_COLL_SUCCESS) rc = mine.pack();
    const int written = e.exchange(rc ? nullptr : mine.data(), rc ? 0 : bytes, 0, 0,
                                   [](auto) { return PLEXUS_COLL_SUCCESS; });
    return rc ? rc : written;
}

}  // namespace

int inter_bcast(plexus_coll_module_t *self, void *buf, int count, plexus_coll_dtype_t *type,
                int root, plexus_coll_comm_t *comm) {
    Call c = call_of(self, comm);
    int made = PLEXUS_COLL_SUCCESS;
    if (TwoLevel *both = union_two(c, &made))
        if (int rc = union_bcast(c, *both, buf, count, type, root); rc != PLEXUS_COLL_DECLINE)
            return rc;
    if (made) return made;
    if (root == PLEXUS_COLL_PROC_NULL) return PLEXUS_COLL_SUCCESS;
    // Processes may describe an empty message with different counts: bytes decide, alike
    // everywhere.
    size_t bytes = 0;
    if (int rc = bytes_of(c.svc, type, count, &bytes)) return rc;
    if (bytes == 0) return PLEXUS_COLL_SUCCESS;
    if (root == PLEXUS_COLL_ROOT) return link_send(c, buf, count, type, kLeader, kTagInterBcast);
    bool relayed = false;  // the leader's group read the root's buffer itself: phase done
    if (c.leader())
        if (int rc = link_bcast_recv(c, buf, count, type, root, kTagInterBcast, &relayed))
            return rc;
    return relayed ? PLEXUS_COLL_SUCCESS : local_bcast(c, buf, count, type);
}

int inter_reduce(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                 plexus_coll_dtype_t *type, plexus_coll_op_t *op, int root,
                 plexus_coll_comm_t *comm) {
    Call c = call_of(self, comm);
    int made = PLEXUS_COLL_SUCCESS;
    if (TwoLevel *both = union_two(c, &made))
        if (int rc = union_reduce(c, *both, sendbuf, recvbuf, count, type, op, root);
            rc != PLEXUS_COLL_DECLINE)
            return rc;
    if (made) return made;
    if (root == PLEXUS_COLL_PROC_NULL || count == 0) return PLEXUS_COLL_SUCCESS;
    if (root == PLEXUS_COLL_ROOT)
        return link_recv(c, recvbuf, count, type, kLeader, kTagInterReduce);
    Temp partial(c.m->temps[0]);  // the group's reduction, at the leader (recvbuf means nothing
                                  // outside the root)
    if (c.leader())
        if (int rc = partial.init(c.svc, type, count)) return rc;
    if (int rc = local_reduce(c, sendbuf, partial.data(), count, type, op)) return rc;
    return c.leader() ? link_send(c, partial.data(), count, type, root, kTagInterReduce)
                      : PLEXUS_COLL_SUCCESS;
}

int inter_gather(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                 plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                 plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm) {
    if (root == PLEXUS_COLL_PROC_NULL) return PLEXUS_COLL_SUCCESS;
    Call c = call_of(self, comm);
    if (root == PLEXUS_COLL_ROOT) {
        const long total = static_cast<long>(c.remote_size) * recvcount;
        if (total > INT_MAX) return PLEXUS_COLL_ERR_UNSUPPORTED;
        return link_recv(c, recvbuf, static_cast<int>(total), recvtype, kLeader, kTagInterGather);
    }
    const long total = static_cast<long>(c.size) * sendcount;
    if (total > INT_MAX) return PLEXUS_COLL_ERR_UNSUPPORTED;
    Temp group(c.m->temps[0]);  // the group's blocks in rank order, as sendtype items (they travel
                                // as such)
    if (c.leader())
        if (int rc = group.init(c.svc, sendtype, total)) return rc;
    size_t bytes = 0;
    if (int rc = bytes_of(c.svc, sendtype, sendcount, &bytes)) return rc;
    if (bytes)
        if (int rc =
                local_gather(c, sendbuf, sendcount, sendtype, group.data(), sendcount, sendtype))
            return rc;
    if (!c.leader()) return PLEXUS_COLL_SUCCESS;
    return link_send(c, group.data(), static_cast<int>(total), sendtype, root, kTagInterGather);
}

int inter_scatter(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                  plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                  plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm) {
    if (root == PLEXUS_COLL_PROC_NULL) return PLEXUS_COLL_SUCCESS;
    Call c = call_of(self, comm);
    if (root == PLEXUS_COLL_ROOT) {
        const long total = static_cast<long>(c.remote_size) * sendcount;
        if (total > INT_MAX) return PLEXUS_COLL_ERR_UNSUPPORTED;
        return link_send(c, sendbuf, static_cast<int>(total), sendtype, kLeader, kTagInterScatter);
    }
    const long total = static_cast<long>(c.size) * recvcount;
    if (total > INT_MAX) return PLEXUS_COLL_ERR_UNSUPPORTED;
    Temp group(c.m->temps[0]);  // every block of the group, at the leader, as recvtype items
    if (c.leader()) {
        if (int rc = group.init(c.svc, recvtype, total)) return rc;
        if (int rc = link_recv(c, group.data(), static_cast<int>(total), recvtype, root,
                               kTagInterScatter))
            return rc;
    }
    size_t bytes = 0;
    if (int rc = bytes_of(c.svc, recvtype, recvcount, &bytes)) return rc;
    if (!bytes) return PLEXUS_COLL_SUCCESS;
    return local_scatter(c, group.data(), recvcount, recvtype, recvbuf, recvcount, recvtype);
}

}  // namespace plexus::coll_shm_inter
