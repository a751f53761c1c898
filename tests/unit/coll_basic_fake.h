// A fake MPI layer for coll_basic's unit tests: the services of coll.h over threads, one thread
// per rank, eager messages in per-rank mailboxes (matched by source and tag in order), datatypes
// that are k int32 at an offset inside a larger extent (so that extents, true lower bounds and
// non-contiguous layouts are exercised), and two operations: a commutative sum and a
// non-commutative, associative composition of affine maps (pairs of int32).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <plexus/coll.h>

#include "components/coll_basic/basic_context.h"

namespace coll_fake {


// An item: `ints` int32 values (or one byte when bytes) at `offset` inside `extent` bytes.
struct Type {
    int ints = 1;
    bool bytes = false;
    ptrdiff_t offset = 0;
    ptrdiff_t extent = 4;
    size_t item_size() const { return bytes ? 1 : 4 * static_cast<size_t>(ints); }
};

struct Op {
    bool commutative = true;
    bool affine = false;  // items are (m, c) pairs, composed mod 65521: in first, then inout
};

constexpr int32_t kMod = 65521;

struct Message {
    int src;
    int tag;
    std::vector<char> bytes;
};

struct World;

struct Comm {
    World *world;
    int rank;
};

struct Request {
    bool is_recv;
    void *buf;
    int count;
    const Type *type;
    int peer;
    int tag;
    Comm *comm;
};

struct World {
    int size;
    std::vector<std::deque<Message>> box;
    std::mutex mu;
    std::condition_variable cv;
    int failures = 0;  // truncations and unmatched waits

    explicit World(int n) : size(n), box(n) {}
};

inline const Type *T(plexus_coll_dtype_t *t) { return reinterpret_cast<const Type *>(t); }
inline plexus_coll_dtype_t *H(const Type *t) {
    return reinterpret_cast<plexus_coll_dtype_t *>(const_cast<Type *>(t));
}
inline Comm *C(plexus_coll_comm_t *c) { return reinterpret_cast<Comm *>(c); }

inline std::vector<char> pack(const void *buf, int count, const Type *t) {
    std::vector<char> out(t->item_size() * static_cast<size_t>(count));
    for (int i = 0; i < count; ++i)
        std::memcpy(out.data() + i * t->item_size(), static_cast<const char *>(buf) + i * t->extent + t->offset,
                    t->item_size());
    return out;
}

inline int unpack(const std::vector<char> &in, void *buf, int count, const Type *t) {
    if (in.size() > t->item_size() * static_cast<size_t>(count)) return PLEXUS_COLL_ERR_TRUNCATE;
    const int n = static_cast<int>(in.size() / t->item_size());
    for (int i = 0; i < n; ++i)
        std::memcpy(static_cast<char *>(buf) + i * t->extent + t->offset, in.data() + i * t->item_size(),
                    t->item_size());
    return 0;
}

inline int f_rank(plexus_coll_comm_t *c) { return C(c)->rank; }
inline int f_size(plexus_coll_comm_t *c) { return C(c)->world->size; }
inline int f_zero(plexus_coll_comm_t *) { return 0; }
inline plexus_coll_comm_t *f_local(plexus_coll_comm_t *) { return nullptr; }

inline int f_send(const void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag, plexus_coll_comm_t *comm) {
    World *w = C(comm)->world;
    if (peer < 0 || peer >= w->size || tag < 0 || tag > PLEXUS_COLL_TAG_MAX) return PLEXUS_COLL_ERR_INTERN;
    Message m{C(comm)->rank, tag, pack(buf, count, T(type))};
    std::lock_guard<std::mutex> g(w->mu);
    w->box[peer].push_back(std::move(m));
    w->cv.notify_all();
    return 0;
}

inline int f_recv(void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag, plexus_coll_comm_t *comm) {
    World *w = C(comm)->world;
    if (peer < 0 || peer >= w->size) return PLEXUS_COLL_ERR_INTERN;
    std::unique_lock<std::mutex> g(w->mu);
    auto &box = w->box[C(comm)->rank];
    for (;;) {
        for (auto it = box.begin(); it != box.end(); ++it) {
            if (it->src != peer || it->tag != tag) continue;
            std::vector<char> bytes = std::move(it->bytes);
            box.erase(it);
            g.unlock();
            const int rc = unpack(bytes, buf, count, T(type));
            if (rc) ++w->failures;
            return rc;
        }
        if (w->cv.wait_for(g, std::chrono::seconds(20)) == std::cv_status::timeout) {
            ++w->failures;
            return PLEXUS_COLL_ERR_INTERN;  // a message that never comes: a schedule bug
        }
    }
}

inline int f_isend(const void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag, plexus_coll_comm_t *comm,
                   plexus_coll_request_t **req) {
    *req = reinterpret_cast<plexus_coll_request_t *>(new Request{false, nullptr, 0, nullptr, peer, tag, C(comm)});
    return f_send(buf, count, type, peer, tag, comm);  // eager: done at once
}

inline int f_irecv(void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag, plexus_coll_comm_t *comm,
                   plexus_coll_request_t **req) {
    *req = reinterpret_cast<plexus_coll_request_t *>(new Request{true, buf, count, T(type), peer, tag, C(comm)});
    return 0;
}

inline int f_wait(plexus_coll_request_t **req) {
    auto *r = reinterpret_cast<Request *>(*req);
    int rc = 0;
    if (r && r->is_recv)
        rc = f_recv(r->buf, r->count, H(r->type), r->peer, r->tag, reinterpret_cast<plexus_coll_comm_t *>(r->comm));
    delete r;
    *req = nullptr;
    return rc;
}

inline int f_waitall(int n, plexus_coll_request_t *reqs[]) {
    int rc = 0;
    for (int i = 0; i < n; ++i)
        if (int e = f_wait(&reqs[i]); e && !rc) rc = e;
    return rc;
}

inline int f_sendrecv(const void *sbuf, int sn, plexus_coll_dtype_t *st, int dst, void *rbuf, int rn,
                      plexus_coll_dtype_t *rt, int src, int tag, plexus_coll_comm_t *comm) {
    if (int rc = f_send(sbuf, sn, st, dst, tag, comm)) return rc;
    return f_recv(rbuf, rn, rt, src, tag, comm);
}

inline int f_dtype_info(plexus_coll_dtype_t *type, plexus_coll_dtype_info_t *out) {
    const Type *t = T(type);
    out->size = t->item_size();
    out->lb = 0;
    out->extent = t->extent;
    out->true_lb = t->offset;
    out->true_extent = static_cast<ptrdiff_t>(t->item_size());
    out->contiguous = t->offset == 0 && t->extent == static_cast<ptrdiff_t>(t->item_size());
    return 0;
}

inline int f_copy(const void *src, int sc, plexus_coll_dtype_t *st, void *dst, int dc, plexus_coll_dtype_t *dt) {
    return unpack(pack(src, sc, T(st)), dst, dc, T(dt));
}

inline int32_t *item(void *buf, int i, const Type *t) {
    return reinterpret_cast<int32_t *>(static_cast<char *>(buf) + i * t->extent + t->offset);
}

// inout = in op inout.
inline void apply(const Op &op, const int32_t *in, int32_t *inout, int ints) {
    if (!op.affine) {
        for (int k = 0; k < ints; ++k) inout[k] += in[k];
        return;
    }
    // x -> m1 x + c1 then x -> m2 x + c2: (m1 m2, m2 c1 + c2)
    const int64_t m1 = in[0], c1 = in[1], m2 = inout[0], c2 = inout[1];
    inout[0] = static_cast<int32_t>(m1 * m2 % kMod);
    inout[1] = static_cast<int32_t>((m2 * c1 + c2) % kMod);
}

inline int f_op_apply(plexus_coll_op_t *op, const void *in, void *inout, int count, plexus_coll_dtype_t *type) {
    const Op &o = *reinterpret_cast<const Op *>(op);
    const Type *t = T(type);
    for (int i = 0; i < count; ++i)
        apply(o, item(const_cast<void *>(in), i, t), item(inout, i, t), t->ints);
    return 0;
}

inline int f_op_commutative(plexus_coll_op_t *op) { return reinterpret_cast<const Op *>(op)->commutative; }

inline const Type kByte{1, true, 0, 1};

inline const plexus_coll_services_t *services() {
    static const plexus_coll_services_t s = [] {
        plexus_coll_services_t v{};
        v.struct_size = sizeof v;
        v.major = PLEXUS_COLL_SERVICES_MAJOR;
        v.minor = PLEXUS_COLL_SERVICES_MINOR;
        v.comm_rank = f_rank;
        v.comm_size = f_size;
        v.comm_remote_size = f_zero;
        v.comm_is_inter = f_zero;
        v.comm_local = f_local;
        v.isend = f_isend;
        v.irecv = f_irecv;
        v.wait = f_wait;
        v.waitall = f_waitall;
        v.send = f_send;
        v.recv = f_recv;
        v.sendrecv = f_sendrecv;
        v.byte_type = H(&kByte);
        v.dtype_info = f_dtype_info;
        v.copy = f_copy;
        v.op_apply = f_op_apply;
        v.op_commutative = f_op_commutative;
        return v;
    }();
    return &s;
}

// Runs body(rank, module, comm) on n threads; returns the number of ranks whose body returned
// nonzero plus the world's failures.
inline int run(int n, const plexus::coll_basic::Params &params,
               const std::function<int(int, plexus_coll_module_t *, plexus_coll_comm_t *)> &body) {
    World w(n);
    std::vector<Comm> comms(n);
    std::vector<plexus::coll_basic::Module> modules(n);
    std::vector<int> rcs(n, 0);
    std::vector<std::thread> threads;
    for (int r = 0; r < n; ++r) {
        comms[r] = Comm{&w, r};
        modules[r].svc = services();
        modules[r].params = &params;
        threads.emplace_back([&, r] {
            rcs[r] = body(r, &modules[r].base, reinterpret_cast<plexus_coll_comm_t *>(&comms[r]));
        });
    }
    for (auto &t : threads) t.join();
    int bad = w.failures;
    for (int rc : rcs) bad += rc != 0;
    for (auto &b : w.box) bad += static_cast<int>(b.size());  // messages nobody received
    return bad;
}

}  // namespace coll_fake
