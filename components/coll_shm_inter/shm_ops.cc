#include "shm_ops.h"

#include <vector>

#include "shm_buffer.h"

namespace plexus::coll_shm_inter::ops {
namespace {

bool within(const Env &env, size_t bytes, size_t table_max) {
    return env.params->force || bytes <= table_max;
}

// The large-message half of the size table: single copy from sc_from bytes (0: never), when
// every process of the communicator may use it (an answer the same everywhere).
bool by_single_copy(const TwoLevel &two, size_t bytes, size_t sc_from) {
    return sc_from > 0 && bytes >= sc_from && two.single_copy();
}

int info_of(const plexus_coll_services_t *svc, plexus_coll_dtype_t *type,
            plexus_coll_dtype_info_t *info) {
    *info = plexus_coll_dtype_info_t{};
    info->struct_size = sizeof *info;
    return svc->dtype_info(type, info);
}

void *at(void *buf, size_t bytes) {
    return static_cast<char *>(buf) + bytes;
}

}  // namespace

int barrier(const Env &, TwoLevel &two) {
    return two.barrier();
}

int bcast(const Env &env, TwoLevel &two, void *buf, int count, plexus_coll_dtype_t *type,
          int root) {
    Packed data;
    if (int rc = data.init(env.svc, buf, count, type)) return rc;
    // The engine itself takes single copy from single_copy_from (shm_engine.cc).
    const bool served = within(env, data.bytes(), env.params->bcast_max) ||
                        by_single_copy(two, data.bytes(), env.params->single_copy_from);
    if (!served || !fits_int(data.bytes())) return PLEXUS_COLL_DECLINE;
    if (data.bytes() == 0) return PLEXUS_COLL_SUCCESS;
    const bool root_here = two.rank() == root;
    if (root_here)
        if (int rc = data.pack()) return rc;
    if (int rc = two.bcast(data.data(), data.bytes(), root)) return rc;
    return root_here ? PLEXUS_COLL_SUCCESS : data.unpack();
}

int reduce(const Env &env, TwoLevel &two, const void *sendbuf, void *recvbuf, int count,
           plexus_coll_dtype_t *type, plexus_coll_op_t *op, int root) {
    plexus_coll_dtype_info_t info;
    if (int rc = info_of(env.svc, type, &info)) return rc;
    // The engine combines items in place in its slots: they must be plain runs of bytes.
    if (!info.contiguous || info.lb != 0 || info.true_lb != 0 || info.extent <= 0)
        return PLEXUS_COLL_DECLINE;
    const size_t item = static_cast<size_t>(info.extent), bytes = item * static_cast<size_t>(count);
    const size_t table = root < 0 ? env.params->allreduce_max : env.params->reduce_max;
    const bool by_copy = by_single_copy(
        two, bytes,
        root < 0 ? env.params->allreduce_single_copy_from : env.params->reduce_single_copy_from);
    // The segment's path combines items in its slots; single copy in pieces of any size.
    const bool fits_slot = item <= two.engine().layout().chunk;
    if (!(by_copy || (within(env, bytes, table) && fits_slot)) || !fits_int(bytes))
        return PLEXUS_COLL_DECLINE;
    if (!two.single_node() && !env.svc->op_commutative(op)) return PLEXUS_COLL_DECLINE;
    if (count == 0) return PLEXUS_COLL_SUCCESS;
    const void *in = sendbuf == PLEXUS_COLL_IN_PLACE ? recvbuf : sendbuf;
    OpCall call{env.svc, op, type};
    const bool gets = root < 0 || two.rank() == root;
    return two.reduce(in, gets ? recvbuf : nullptr, static_cast<size_t>(count), item,
                      combine_of(&call), root, by_copy);
}

int gather(const Env &env, TwoLevel &two, const void *sendbuf, int sendcount,
           plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
           plexus_coll_dtype_t *recvtype, int root) {
    if (!two.single_node()) return PLEXUS_COLL_DECLINE;
    const int p = two.size(), me = two.rank();
    const bool gets = root < 0 || me == root;
    Packed mine;
    if (sendbuf == PLEXUS_COLL_IN_PLACE) {
        plexus_coll_dtype_info_t rinfo;
        if (int rc = info_of(env.svc, recvtype, &rinfo)) return rc;
        const size_t at_bytes = static_cast<size_t>(me) * static_cast<size_t>(recvcount) *
                                static_cast<size_t>(rinfo.extent);
        if (int rc = mine.init(env.svc, at(recvbuf, at_bytes), recvcount, recvtype)) return rc;
    } else if (int rc = mine.init(env.svc, sendbuf, sendcount, sendtype)) {
        return rc;
    }
    const size_t block = mine.bytes();
    const bool by_copy = by_single_copy(
        two, block,
        root < 0 ? env.params->allgather_single_copy_from : env.params->gather_single_copy_from);
    const bool served =
        by_copy ||
        within(env, block, root < 0 ? env.params->allgather_max : env.params->gather_max);
    if (!served || !fits_int(block * static_cast<size_t>(p))) return PLEXUS_COLL_DECLINE;
    if (block == 0) return PLEXUS_COLL_SUCCESS;
    Packed all;
    if (gets)
        if (int rc = all.init(env.svc, recvbuf, static_cast<long>(recvcount) * p, recvtype))
            return rc;
    if (int rc = mine.pack()) return rc;
    if (int rc = two.gather(mine.data(), block, gets ? all.data() : nullptr, root, by_copy))
        return rc;
    return gets ? all.unpack() : PLEXUS_COLL_SUCCESS;
}

int scatter(const Env &env, TwoLevel &two, const void *sendbuf, int sendcount,
            plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
            plexus_coll_dtype_t *recvtype, int root) {
    if (!two.single_node()) return PLEXUS_COLL_DECLINE;
    const int p = two.size(), me = two.rank();
    Packed all, mine;
    std::vector<uint8_t> discard;  // the root's own block when it keeps it in place
    size_t block = 0;
    if (me == root) {
        if (int rc = all.init(env.svc, sendbuf, static_cast<long>(sendcount) * p, sendtype))
            return rc;
        block = all.bytes() / static_cast<size_t>(p);
    }
    if (recvbuf != PLEXUS_COLL_IN_PLACE) {
        if (int rc = mine.init(env.svc, recvbuf, recvcount, recvtype)) return rc;
        if (me != root) block = mine.bytes();
    }
    const bool by_copy = by_single_copy(two, block, env.params->gather_single_copy_from);
    if (!(by_copy || within(env, block, env.params->gather_max)) ||
        !fits_int(block * static_cast<size_t>(p)))
        return PLEXUS_COLL_DECLINE;
    if (block == 0) return PLEXUS_COLL_SUCCESS;
    if (me == root)
        if (int rc = all.pack()) return rc;
    uint8_t *out = mine.data();
    if (recvbuf == PLEXUS_COLL_IN_PLACE) {
        discard.resize(block);
        out = discard.data();
    }
    if (int rc = two.scatter(all.data(), block, out, root, by_copy)) return rc;
    return recvbuf == PLEXUS_COLL_IN_PLACE ? PLEXUS_COLL_SUCCESS : mine.unpack();
}

}  // namespace plexus::coll_shm_inter::ops
