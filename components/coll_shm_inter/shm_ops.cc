#include "shm_ops.h"

#include <vector>

#include "shm_buffer.h"
#include "shm_decide.h"

namespace plexus::coll_shm_inter::ops {
namespace {

// coll_base_verbose 50 and up: each call's path, so that a hand-over to the next component shows.
void trace(const Env &env, const char *fn, size_t bytes, Path path) {
    if (env.verbosity >= PLEXUS_LOG_TRACE)
        env.host->log(env.self, PLEXUS_LOG_TRACE, "%s of %zu bytes: %s", fn, bytes,
                      path_name(path));
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
    const Path path = decide_bcast(*env.params, data.bytes(), two.single_copy());
    trace(env, "bcast", data.bytes(), path);
    if (path == Path::Decline || !fits_int(data.bytes())) return PLEXUS_COLL_DECLINE;
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
    // The segment's path combines items in its slots; single copy in pieces of any size.
    const Path path = decide_reduce(*env.params, bytes, root < 0, two.single_copy(),
                                    item <= two.engine().layout().chunk, two.size());
    trace(env, root < 0 ? "allreduce" : "reduce", bytes, path);
    if (path == Path::Decline || !fits_int(bytes)) return PLEXUS_COLL_DECLINE;
    if (!two.single_node() && !env.svc->op_commutative(op)) return PLEXUS_COLL_DECLINE;
    if (count == 0) return PLEXUS_COLL_SUCCESS;
    const void *in = sendbuf == PLEXUS_COLL_IN_PLACE ? recvbuf : sendbuf;
    OpCall call{env.svc, op, type};
    const bool gets = root < 0 || two.rank() == root;
    return two.reduce(in, gets ? recvbuf : nullptr, static_cast<size_t>(count), item,
                      combine_of(&call), root, path);
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
    const Path path = decide_gather(*env.params, block, root < 0, two.single_copy());
    trace(env, root < 0 ? "allgather" : "gather", block, path);
    if (path == Path::Decline || !fits_int(block * static_cast<size_t>(p)))
        return PLEXUS_COLL_DECLINE;
    const bool by_copy = path == Path::SingleCopy;
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
    const Path path = decide_scatter(*env.params, block, two.single_copy());
    trace(env, "scatter", block, path);
    if (path == Path::Decline || !fits_int(block * static_cast<size_t>(p)))
        return PLEXUS_COLL_DECLINE;
    const bool by_copy = path == Path::SingleCopy;
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
