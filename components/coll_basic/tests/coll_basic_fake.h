// A fake MPI layer for coll_basic's unit tests: the services of coll.h over threads, one thread
// per rank, eager messages in per-rank mailboxes (matched by source and tag in order), datatypes
// that are k int32 at an offset inside a larger extent (so that extents, true lower bounds and
// non-contiguous layouts are exercised), and two operations: a commutative sum and a
// non-commutative, associative composition of affine maps (pairs of int32).
//
// run() gives every rank an intra-communicator; run_inter() gives every process of two groups an
// inter-communicator whose comm_local is its group's intra-communicator, and services->dispatch
// serves that one with coll_basic's intra functions, so the inter algorithms' local phases run the
// real intra code. The end of the file holds the data and the checks the tests share.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

#include <plexus/coll.h>

#include "components/coll_basic/basic_context.h"
#include "components/coll_basic/basic_functions.h"

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

// One process's handle for a communicator: its matching context (world) and where its group and its
// peers lie among the world's mailboxes. An intra-communicator's peers are its own group; an
// inter-communicator's world holds both groups' mailboxes and its peers are the other group's
// ranks, as in MPI. Only the other group sends to an inter-communicator mailbox (the local phases
// have a world of their own), so the sender's local rank names the source without ambiguity.
struct Comm {
    World *world;
    int rank;
    int size;                                // of the local group
    int remote_size = 0;                     // 0: an intra-communicator
    int first = 0;                           // the mailbox of local rank 0
    int remote_first = 0;                    // the mailbox of peer 0 (intra: first)
    Comm *local = nullptr;                   // services->comm_local
    plexus_coll_module_t *module = nullptr;  // what services->dispatch serves this one with

    int peers() const { return remote_size ? remote_size : size; }
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

// A matching context: one mailbox per process.
struct World {
    std::vector<std::deque<Message>> box;
    std::mutex mu;
    std::condition_variable cv;
    int failures = 0;  // truncations and unmatched waits

    explicit World(int n) : box(n) {}
    // The failures plus the messages nobody received (after the threads are joined).
    int bad() const {
        int n = failures;
        for (const auto &b : box) n += static_cast<int>(b.size());
        return n;
    }
};

inline const Type *T(plexus_coll_dtype_t *t) { return reinterpret_cast<const Type *>(t); }
inline plexus_coll_dtype_t *H(const Type *t) {
    return reinterpret_cast<plexus_coll_dtype_t *>(const_cast<Type *>(t));
}
inline Comm *C(plexus_coll_comm_t *c) { return reinterpret_cast<Comm *>(c); }
inline plexus_coll_comm_t *CH(Comm *c) { return reinterpret_cast<plexus_coll_comm_t *>(c); }

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
inline int f_size(plexus_coll_comm_t *c) { return C(c)->size; }
inline int f_remote_size(plexus_coll_comm_t *c) { return C(c)->remote_size; }
inline int f_is_inter(plexus_coll_comm_t *c) { return C(c)->remote_size > 0; }
inline plexus_coll_comm_t *f_local(plexus_coll_comm_t *c) { return CH(C(c)->local); }

inline int f_send(const void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag, plexus_coll_comm_t *comm) {
    const Comm *c = C(comm);
    World *w = c->world;
    if (peer < 0 || peer >= c->peers() || tag < 0 || tag > PLEXUS_COLL_TAG_MAX) return PLEXUS_COLL_ERR_INTERN;
    Message m{c->rank, tag, pack(buf, count, T(type))};
    std::lock_guard<std::mutex> g(w->mu);
    w->box[c->remote_first + peer].push_back(std::move(m));
    w->cv.notify_all();
    return 0;
}

inline int f_recv(void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag, plexus_coll_comm_t *comm) {
    const Comm *c = C(comm);
    World *w = c->world;
    if (peer < 0 || peer >= c->peers()) return PLEXUS_COLL_ERR_INTERN;
    std::unique_lock<std::mutex> g(w->mu);
    auto &box = w->box[c->first + c->rank];
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

// services->dispatch: F (an intra function of coll_basic) called with the module of the
// communicator it is given (every collective's last argument), since callers pass self NULL.
template <auto F>
struct Dispatch;
template <typename... A, int (*F)(plexus_coll_module_t *, A...)>
struct Dispatch<F> {
    static int call(plexus_coll_module_t *, A... a) {
        return F(C(std::get<sizeof...(A) - 1>(std::tie(a...)))->module, a...);
    }
};

inline const plexus_coll_functions_t *dispatch() {
    namespace cb = plexus::coll_basic;
    static const plexus_coll_functions_t f = {
        Dispatch<cb::intra_barrier>::call,   Dispatch<cb::intra_bcast>::call,
        Dispatch<cb::intra_reduce>::call,    Dispatch<cb::intra_allreduce>::call,
        Dispatch<cb::intra_gather>::call,    Dispatch<cb::intra_gatherv>::call,
        Dispatch<cb::intra_scatter>::call,   Dispatch<cb::intra_scatterv>::call,
        Dispatch<cb::intra_allgather>::call, Dispatch<cb::intra_allgatherv>::call,
        Dispatch<cb::intra_alltoall>::call,  Dispatch<cb::intra_alltoallv>::call,
        Dispatch<cb::intra_alltoallw>::call, Dispatch<cb::intra_reduce_scatter>::call,
        Dispatch<cb::intra_reduce_scatter_block>::call,
        Dispatch<cb::intra_scan>::call,      Dispatch<cb::intra_exscan>::call};
    return &f;
}

inline const plexus_coll_services_t *services() {
    static const plexus_coll_services_t s = [] {
        plexus_coll_services_t v{};
        v.struct_size = sizeof v;
        v.major = PLEXUS_COLL_SERVICES_MAJOR;
        v.minor = PLEXUS_COLL_SERVICES_MINOR;
        v.comm_rank = f_rank;
        v.comm_size = f_size;
        v.comm_remote_size = f_remote_size;
        v.comm_is_inter = f_is_inter;
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
        v.dispatch = dispatch();
        return v;
    }();
    return &s;
}

inline plexus::coll_basic::Module make_module(const plexus::coll_basic::Params &params) {
    plexus::coll_basic::Module m{};
    m.svc = services();
    m.params = &params;
    return m;
}

// Threads kept for the whole program: the tests run thousands of small collectives, and creating
// their threads each time was most of the time (under the sanitizers, two thirds of it in the
// kernel). Worker i runs body(i) of each round it takes part in.
class ThreadPool {
public:
    ~ThreadPool() {
        {
            std::lock_guard<std::mutex> g(mu_);
            stop_ = true;
        }
        start_.notify_all();
        for (auto &t : workers_) t.join();
    }
    // body(i) for i in [0, n), each on its own thread; returns once every one returned.
    void run(int n, const std::function<void(int)> &body) {
        std::unique_lock<std::mutex> g(mu_);
        while (static_cast<int>(workers_.size()) < n) {
            const int id = static_cast<int>(workers_.size());
            workers_.emplace_back([this, id] { work(id); });
        }
        body_ = &body;
        members_ = n;
        running_ = n;
        ++round_;
        start_.notify_all();
        done_.wait(g, [&] { return running_ == 0; });
        body_ = nullptr;
    }

private:
    void work(int id) {
        uint64_t seen = 0;
        std::unique_lock<std::mutex> g(mu_);
        for (;;) {
            start_.wait(g, [&] { return stop_ || (round_ != seen && id < members_); });
            if (stop_) return;
            seen = round_;
            const std::function<void(int)> *body = body_;
            g.unlock();
            (*body)(id);
            g.lock();
            if (--running_ == 0) done_.notify_one();
        }
    }

    std::mutex mu_;
    std::condition_variable start_, done_;
    std::vector<std::thread> workers_;
    const std::function<void(int)> *body_ = nullptr;
    uint64_t round_ = 0;
    int members_ = 0, running_ = 0;
    bool stop_ = false;
};

// Runs body(i) for i in [0, n), one thread each, and waits for them.
inline void on_threads(int n, const std::function<void(int)> &body) {
    static ThreadPool pool;
    pool.run(n, body);
}

inline int nonzero(const std::vector<int> &rcs) {
    int n = 0;
    for (int rc : rcs) n += rc != 0;
    return n;
}

// Runs body(rank, module, comm) on n threads; returns the number of ranks whose body returned
// nonzero plus the world's failures.
inline int run(int n, const plexus::coll_basic::Params &params,
               const std::function<int(int, plexus_coll_module_t *, plexus_coll_comm_t *)> &body) {
    World w(n);
    std::vector<Comm> comms(n);
    std::vector<plexus::coll_basic::Module> modules(n, make_module(params));
    std::vector<int> rcs(n, 0);
    for (int r = 0; r < n; ++r) comms[r] = Comm{&w, r, n, 0, 0, 0, nullptr, &modules[r].base};
    on_threads(n, [&](int r) { rcs[r] = body(r, &modules[r].base, CH(&comms[r])); });
    return w.bad() + nonzero(rcs);
}

// One process of an inter-communicator between group 0 (a processes) and group 1 (b). id numbers
// the processes of both groups in one sequence, group 0 first, so that tests can give each its
// own data and name the other group's processes (remote_id).
struct Member {
    int group;
    int rank;
    int size;
    int remote_size;
    int first;         // id of local rank 0
    int remote_first;  // id of remote rank 0

    int id() const { return first + rank; }
    int remote_id(int q) const { return remote_first + q; }
};

// Runs body(member, module, inter-communicator) on a + b threads and returns as run() does. The
// inter-communicator and each group's intra-communicator (its comm_local) are separate worlds,
// each process with a module for each; the ids are the inter world's mailboxes.
inline int run_inter(int a, int b, const plexus::coll_basic::Params &params,
                     const std::function<int(const Member &, plexus_coll_module_t *, plexus_coll_comm_t *)> &body) {
    const int n = a + b;
    World inter(n), local[2] = {World(a), World(b)};
    std::vector<Member> members(n);
    std::vector<Comm> inters(n), locals(n);
    std::vector<plexus::coll_basic::Module> modules(2 * n, make_module(params));  // inter ones first
    std::vector<int> rcs(n, 0);
    for (int p = 0; p < n; ++p) {
        const int g = p < a ? 0 : 1;
        const Member m = g == 0 ? Member{0, p, a, b, 0, a} : Member{1, p - a, b, a, a, 0};
        members[p] = m;
        locals[p] = Comm{&local[g], m.rank, m.size, 0, 0, 0, nullptr, &modules[n + p].base};
        inters[p] = Comm{&inter, m.rank, m.size, m.remote_size, m.first, m.remote_first, &locals[p], &modules[p].base};
    }
    on_threads(n, [&](int p) { rcs[p] = body(members[p], &modules[p].base, CH(&inters[p])); });
    return inter.bad() + local[0].bad() + local[1].bad() + nonzero(rcs);
}

// ---- the data and the expectations the coll_basic tests share ----

inline const Type kInt{1, false, 0, 4};
inline const Type kStrided{1, false, 4, 12};  // one int at offset 4 of 12 bytes
inline const Type kPair{2, false, 0, 8};
inline const Type kPairGap{2, false, 8, 20};
inline const Op kSum{true, false};
inline const Op kAffine{false, true};

inline plexus_coll_op_t *OpH(const Op &op) { return reinterpret_cast<plexus_coll_op_t *>(const_cast<Op *>(&op)); }

// The value of item i (int k) of rank r's input (seed tells collectives apart).
inline int32_t input(int r, int i, int k, bool affine) {
    if (affine) return k == 0 ? (r + 2 + i) % kMod : (r * 31 + i * 17 + 5 + k) % kMod;
    return r * 1000 + i * 7 + k;
}

// A buffer of items of a type, poisoned (0x5a bytes) where nothing was written.
struct Buf {
    static constexpr char kPoison = 0x5a;
    std::vector<char> bytes;
    const Type *t;
    Buf(const Type &type, long items) : bytes(static_cast<size_t>(items * type.extent + 8), kPoison), t(&type) {}
    void *data() { return bytes.data(); }
    int32_t *at(int i) { return item(bytes.data(), i, t); }
    void fill(int r, int first, int n, bool affine, int value_offset = 0) {
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < t->ints; ++k) at(first + i)[k] = input(r, value_offset + i, k, affine);
    }
    bool untouched() const {
        for (char c : bytes)
            if (c != kPoison) return false;
        return true;
    }
};

// The reduction of items i of ranks [lo, hi) in rank order.
inline std::vector<int32_t> reduced(const Op &op, int ints, int lo, int hi, int i) {
    std::vector<int32_t> acc(ints);
    for (int k = 0; k < ints; ++k) acc[k] = input(hi - 1, i, k, op.affine);
    for (int r = hi - 2; r >= lo; --r) {
        std::vector<int32_t> in(ints);
        for (int k = 0; k < ints; ++k) in[k] = input(r, i, k, op.affine);
        apply(op, in.data(), acc.data(), ints);
    }
    return acc;
}

struct ReduceCase {
    const Op *op;
    const Type *type;
};
inline const ReduceCase kReduceCases[] = {{&kSum, &kInt}, {&kSum, &kStrided}, {&kAffine, &kPair}, {&kAffine, &kPairGap}};

// Rank r's item i of the block for rank q.
inline int32_t a2a(int r, int q, int i) { return r * 10000 + q * 100 + i; }

}  // namespace coll_fake
