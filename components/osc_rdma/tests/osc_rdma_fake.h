// A fake job for osc_rdma's window tests, with no MPI: n "processes" as threads of one test
// program, each with a fake BTL (sends queued into the peer's inbox, put/get performed only when
// the origin polls, so that a completion message sent before the local completion of a put
// would overtake its data, as the paper warns), fake services (collectives on a shared board,
// datatypes: bytes, int32, double and strided int32 vectors, operations SUM, MAX and REPLACE) and
// a fake host whose progress_wait polls the thread's inbox and progress callbacks.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdarg>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <plexus/osc.h>

#include "components/osc_rdma/rdma_module.h"

namespace osc_fake {

// ------------------------------------------------------------------ datatypes and operations
struct Dtype {
    size_t esize;  // bytes of one element
    int basic;     // 0 byte, 1 int32, 2 double
    int blocks = 1, blocklen = 1, stride = 1;  // in elements
    size_t size() const { return esize * size_t(blocks * blocklen); }
    ptrdiff_t extent() const { return ptrdiff_t(esize) * ((blocks - 1) * stride + blocklen); }
    bool contiguous() const { return blocks == 1 || stride == blocklen; }
};
inline Dtype kByte{1, 0}, kInt{4, 1}, kDouble{8, 2};
inline Dtype vector_int(int blocks, int blocklen, int stride) { return Dtype{4, 1, blocks, blocklen, stride}; }
inline plexus_coll_dtype_t *h(Dtype &d) { return reinterpret_cast<plexus_coll_dtype_t *>(&d); }
inline Dtype &d(plexus_coll_dtype_t *t) { return *reinterpret_cast<Dtype *>(t); }

enum OpId { kSum = 0, kMax = 1, kReplace = 2 };
inline int g_ops[3] = {kSum, kMax, kReplace};
inline plexus_coll_op_t *op(int id) { return reinterpret_cast<plexus_coll_op_t *>(&g_ops[id]); }

// Byte offsets of every element of (count, type), in packed order.
inline std::vector<size_t> elements(int count, const Dtype &t) {
    std::vector<size_t> out;
    for (int i = 0; i < count; ++i)
        for (int b = 0; b < t.blocks; ++b)
            for (int e = 0; e < t.blocklen; ++e) out.push_back(size_t(i * t.extent()) + size_t(b * t.stride + e) * t.esize);
    return out;
}

// ------------------------------------------------------------------ processes
struct World;

struct RmaOp {
    void *dst;
    const void *src;
    size_t len;
    plexus_btl_rdma_done_fn_t done;
    void *ctx;
};

struct Proc {
    World *world = nullptr;
    int rank = 0;
    plexus_btl_module_t btl{};
    std::mutex inbox_mutex;
    std::deque<std::pair<int, std::vector<uint8_t>>> inbox;
    std::deque<RmaOp> rma;
    plexus_btl_recv_fn_t recv_fn = nullptr;
    void *recv_ctx = nullptr;
    std::vector<std::pair<plexus_progress_fn_t, void *>> progress_fns;
    plexus_coll_functions_t dispatch{};
    plexus_coll_services_t coll{};
    plexus_osc_services_t svc{};
    plexus_host_api_t host{};
    std::string last_error;
    uint64_t sends = 0, puts = 0, gets = 0;
    uint64_t collectives = 0;  // calls of the coll dispatch (the tests' own barriers included)
    int again_every = 0;  // > 0: every n-th send, put or get answers PLEXUS_ERR_AGAIN (back-pressure)
    int attempts = 0;
    uint64_t refused = 0;
    std::chrono::steady_clock::time_point refuse_until{};  // every send refused until then
    // A send sleeps after it until then: a process descheduled right after a message left.
    std::chrono::steady_clock::time_point stall_until{};
    void run_progress() {
        for (auto &f : std::vector<std::pair<plexus_progress_fn_t, void *>>(progress_fns)) f.first(f.second);
    }
    bool refuse_now() {
        if (std::chrono::steady_clock::now() < refuse_until) {
            ++refused;
            return true;
        }
        if (again_every <= 0 || ++attempts % again_every != 0) return false;
        ++refused;
        return true;
    }

    void poll();
};

inline thread_local Proc *tl_me = nullptr;

struct World {
    int n;
    std::vector<std::unique_ptr<Proc>> procs;
    std::mutex m;
    std::condition_variable cv;
    int arrived = 0;
    unsigned generation = 0;
    std::vector<std::vector<uint8_t>> board, result;

    World(int size, uint32_t caps, size_t eager);
    // Runs body on every process, each on its own thread, and waits for them.
    void run(const std::function<void(Proc &)> &body);
    // Every process's bytes, in rank order (a collective: every process calls it).
    std::vector<std::vector<uint8_t>> exchange(const void *mine, size_t len);
};

inline void Proc::poll() {
    std::deque<std::pair<int, std::vector<uint8_t>>> got;
    {
        std::lock_guard<std::mutex> lock(inbox_mutex);
        got.swap(inbox);
    }
    for (auto &m : got) {
        plexus_btl_recv_desc_t desc{};
        desc.src = uint32_t(m.first);
        desc.tag = PLEXUS_BTL_TAG_OSC_FIRST;
        desc.data = m.second.data();
        desc.len = m.second.size();
        if (recv_fn) recv_fn(recv_ctx, &desc);
    }
    std::deque<RmaOp> done;
    done.swap(rma);
    for (RmaOp &r : done) {
        std::memcpy(r.dst, r.src, r.len);
        r.done(r.ctx, PLEXUS_SUCCESS);
    }
}

inline std::vector<std::vector<uint8_t>> World::exchange(const void *mine, size_t len) {
    std::unique_lock<std::mutex> lock(m);
    board[size_t(tl_me->rank)].assign(static_cast<const uint8_t *>(mine), static_cast<const uint8_t *>(mine) + len);
    const unsigned gen = generation;
    if (++arrived == n) {
        result = board;
        arrived = 0;
        ++generation;
        cv.notify_all();
    }
    while (generation == gen) {  // a process in a collective still answers its peers
        lock.unlock();
        tl_me->poll();
        tl_me->run_progress();
        lock.lock();
        cv.wait_for(lock, std::chrono::microseconds(200));
    }
    return result;
}

// ------------------------------------------------------------------ the fake BTL
inline plexus_btl_endpoint_t *ep_of(int rank) { return reinterpret_cast<plexus_btl_endpoint_t *>(intptr_t(rank + 1)); }
inline int rank_of_ep(plexus_btl_endpoint_t *ep) { return int(reinterpret_cast<intptr_t>(ep)) - 1; }

inline int btl_send(plexus_btl_module_t *, plexus_btl_endpoint_t *ep, uint8_t, const void *hdr, size_t hdr_len,
                    const void *payload, size_t len) {
    if (tl_me->refuse_now()) return PLEXUS_ERR_AGAIN;
    Proc *dst = tl_me->world->procs[size_t(rank_of_ep(ep))].get();
    std::vector<uint8_t> msg(static_cast<const uint8_t *>(hdr), static_cast<const uint8_t *>(hdr) + hdr_len);
    if (len) msg.insert(msg.end(), static_cast<const uint8_t *>(payload), static_cast<const uint8_t *>(payload) + len);
    EXPECT_LE(msg.size(), tl_me->btl.max_send_size);
    {
        std::lock_guard<std::mutex> lock(dst->inbox_mutex);
        dst->inbox.emplace_back(tl_me->rank, std::move(msg));
    }
    ++tl_me->sends;
    std::this_thread::sleep_until(tl_me->stall_until);
    return PLEXUS_SUCCESS;
}

struct Region {
    uint64_t magic, base, len;
};
constexpr uint64_t kMagic = 0x05c4d3a;

inline int btl_register(plexus_btl_module_t *, void *base, size_t len, plexus_btl_mem_handle_t *out) {
    Region r{kMagic, uint64_t(uintptr_t(base)), len};
    out->len = sizeof r;
    std::memcpy(out->data, &r, sizeof r);
    return PLEXUS_SUCCESS;
}
inline int btl_deregister(plexus_btl_module_t *, plexus_btl_mem_handle_t *) { return PLEXUS_SUCCESS; }

inline bool in_region(const plexus_btl_mem_handle_t *h, uint64_t addr, size_t len) {
    Region r;
    std::memcpy(&r, h->data, sizeof r);
    return r.magic == kMagic && addr >= r.base && addr + len <= r.base + r.len;
}

inline int btl_put(plexus_btl_module_t *, plexus_btl_endpoint_t *, const void *local, size_t len,
                   const plexus_btl_mem_handle_t *remote, uint64_t addr, plexus_btl_rdma_done_fn_t done, void *ctx) {
    if (!in_region(remote, addr, len)) return PLEXUS_ERR_BAD_PARAM;
    if (tl_me->refuse_now()) return PLEXUS_ERR_AGAIN;
    tl_me->rma.push_back(RmaOp{reinterpret_cast<void *>(uintptr_t(addr)), local, len, done, ctx});
    ++tl_me->puts;
    return PLEXUS_SUCCESS;
}
inline int btl_get(plexus_btl_module_t *, plexus_btl_endpoint_t *, void *local, size_t len,
                   const plexus_btl_mem_handle_t *remote, uint64_t addr, plexus_btl_rdma_done_fn_t done, void *ctx) {
    if (!in_region(remote, addr, len)) return PLEXUS_ERR_BAD_PARAM;
    if (tl_me->refuse_now()) return PLEXUS_ERR_AGAIN;
    tl_me->rma.push_back(RmaOp{local, reinterpret_cast<const void *>(uintptr_t(addr)), len, done, ctx});
    ++tl_me->gets;
    return PLEXUS_SUCCESS;
}

// ------------------------------------------------------------------ services
inline int dtype_info(plexus_coll_dtype_t *t, plexus_coll_dtype_info_t *out) {
    const Dtype &x = d(t);
    out->contiguous = x.contiguous();
    out->size = x.size();
    out->lb = out->true_lb = 0;
    out->extent = out->true_extent = x.extent();
    return 0;
}

inline int pack(const void *buf, int count, plexus_coll_dtype_t *t, size_t offset, void *out, size_t len) {
    std::vector<uint8_t> all;
    for (size_t e : elements(count, d(t)))
        all.insert(all.end(), static_cast<const uint8_t *>(buf) + e, static_cast<const uint8_t *>(buf) + e + d(t).esize);
    if (offset + len > all.size()) return PLEXUS_OSC_ERR_OTHER;
    std::memcpy(out, all.data() + offset, len);
    return 0;
}

inline int unpack(void *buf, int count, plexus_coll_dtype_t *t, size_t offset, const void *in, size_t len) {
    const std::vector<size_t> els = elements(count, d(t));
    const size_t es = d(t).esize;
    for (size_t b = 0; b < len; ++b) {
        const size_t pos = offset + b;
        if (pos / es >= els.size()) return PLEXUS_OSC_ERR_OTHER;
        static_cast<uint8_t *>(buf)[els[pos / es] + pos % es] = static_cast<const uint8_t *>(in)[b];
    }
    return 0;
}

template <class T>
void combine(int id, const T *in, T *inout) {
    if (id == kSum) *inout = T(*inout + *in);
    if (id == kMax) *inout = std::max(*inout, *in);
    if (id == kReplace) *inout = *in;
}

inline int op_apply(plexus_coll_op_t *o, const void *in, void *inout, int count, plexus_coll_dtype_t *t) {
    const int id = *reinterpret_cast<int *>(o);
    for (size_t e : elements(count, d(t))) {
        const auto *i = static_cast<const uint8_t *>(in) + e;
        auto *io = static_cast<uint8_t *>(inout) + e;
        if (d(t).basic == 1) combine(id, reinterpret_cast<const int32_t *>(i), reinterpret_cast<int32_t *>(io));
        else if (d(t).basic == 2) combine(id, reinterpret_cast<const double *>(i), reinterpret_cast<double *>(io));
        else return PLEXUS_OSC_ERR_OTHER;
    }
    return 0;
}

inline size_t type_bytes(plexus_coll_dtype_t *t, int count) { return d(t).size() * size_t(count); }

inline int allgather(plexus_coll_module_t *, const void *s, int sc, plexus_coll_dtype_t *st, void *r, int, plexus_coll_dtype_t *,
                     plexus_coll_comm_t *) {
    ++tl_me->collectives;
    const size_t n = type_bytes(st, sc);
    auto all = tl_me->world->exchange(s, n);
    for (size_t i = 0; i < all.size(); ++i) std::memcpy(static_cast<uint8_t *>(r) + i * n, all[i].data(), n);
    return 0;
}
inline int alltoall(plexus_coll_module_t *, const void *s, int sc, plexus_coll_dtype_t *st, void *r, int, plexus_coll_dtype_t *,
                    plexus_coll_comm_t *) {
    ++tl_me->collectives;
    const size_t n = type_bytes(st, sc);
    auto all = tl_me->world->exchange(s, n * size_t(tl_me->world->n));
    for (size_t i = 0; i < all.size(); ++i)
        std::memcpy(static_cast<uint8_t *>(r) + i * n, all[i].data() + size_t(tl_me->rank) * n, n);
    return 0;
}
inline int barrier(plexus_coll_module_t *, plexus_coll_comm_t *) {
    ++tl_me->collectives;
    tl_me->world->exchange(nullptr, 0);
    return 0;
}
// Sums of int32 (the fence's counts: services int_type and op_sum).
inline int reduce_scatter_block(plexus_coll_module_t *, const void *s, void *r, int rc, plexus_coll_dtype_t *,
                                plexus_coll_op_t *, plexus_coll_comm_t *) {
    ++tl_me->collectives;
    const size_t n = size_t(tl_me->world->n);
    auto all = tl_me->world->exchange(s, n * size_t(rc) * 4);
    for (size_t j = 0; j < size_t(rc); ++j) {
        int32_t sum = 0;
        for (const auto &row : all) {
            int32_t x = 0;
            std::memcpy(&x, row.data() + (size_t(tl_me->rank) * size_t(rc) + j) * 4, 4);
            sum += x;
        }
        std::memcpy(static_cast<uint8_t *>(r) + j * 4, &sum, 4);
    }
    return 0;
}

inline void set_error(plexus_osc_win_t *, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tl_me->last_error = buf;
}

inline int progress_wait(plexus_done_fn_t done, void *ctx, int) {
    while (!done(ctx)) {
        tl_me->poll();
        tl_me->run_progress();
        std::this_thread::yield();
    }
    return PLEXUS_SUCCESS;
}

inline World::World(int size, uint32_t caps, size_t eager) : n(size), board(size_t(size)) {
    for (int r = 0; r < n; ++r) {
        auto p = std::make_unique<Proc>();
        p->world = this;
        p->rank = r;
        plexus_btl_module_t &b = p->btl;
        b.struct_size = sizeof b;
        b.major = PLEXUS_BTL_MAJOR;
        b.minor = PLEXUS_BTL_MINOR;
        b.name = "fake";
        b.caps = caps;
        b.eager_limit = eager;
        b.max_send_size = 64 * 1024;
        b.rdma_threshold = 1;  // put/get pay at every size (auto's rule asks)
        b.rdma_limit = 0;
        b.send = btl_send;
        b.register_mem = btl_register;
        b.deregister_mem = btl_deregister;
        b.put = btl_put;
        b.get = btl_get;
        plexus_coll_services_t &c = p->coll;
        c.struct_size = sizeof c;
        c.byte_type = h(kByte);
        c.dtype_info = dtype_info;
        c.op_apply = op_apply;
        c.dispatch = &p->dispatch;
        p->dispatch.allgather = allgather;
        p->dispatch.alltoall = alltoall;
        p->dispatch.barrier = barrier;
        p->dispatch.reduce_scatter_block = reduce_scatter_block;
        plexus_osc_services_t &s = p->svc;
        s.struct_size = sizeof s;
        s.major = PLEXUS_OSC_SERVICES_MAJOR;
        s.coll = &p->coll;
        s.int_type = h(kInt);
        s.op_sum = op(kSum);
        s.proc_of = [](plexus_osc_win_t *, int r) { return uint32_t(r); };
        s.rank_of = [](plexus_osc_win_t *, uint32_t proc) { return int(proc); };
        s.paths = [](plexus_osc_win_t *, int r, plexus_osc_path_t out[], int) {
            out[0] = plexus_osc_path_t{&tl_me->btl, ep_of(r)};
            return 1;
        };
        s.register_recv = [](uint8_t, plexus_btl_recv_fn_t fn, void *ctx) {
            tl_me->recv_fn = fn;
            tl_me->recv_ctx = ctx;
            return 0;
        };
        s.pack = pack;
        s.unpack = unpack;
        s.dtype_encode = [](plexus_coll_dtype_t *t, void *buf, size_t *len) {
            if (*len < sizeof(Dtype)) {
                *len = sizeof(Dtype);
                return PLEXUS_OSC_ERR_NO_MEM;
            }
            std::memcpy(buf, t, sizeof(Dtype));
            *len = sizeof(Dtype);
            return 0;
        };
        s.dtype_decode = [](const void *buf, size_t len, plexus_coll_dtype_t **t) {
            if (len != sizeof(Dtype)) return PLEXUS_OSC_ERR_OTHER;
            auto *x = new Dtype;
            std::memcpy(x, buf, sizeof *x);
            *t = h(*x);
            return 0;
        };
        s.dtype_release = [](plexus_coll_dtype_t *t) { delete &d(t); };
        s.op_id = [](plexus_coll_op_t *o) { return *reinterpret_cast<int *>(o); };
        s.op_by_id = [](int id) { return id >= 0 && id < 3 ? op(id) : nullptr; };
        s.alloc_mem = [](size_t n) { return std::malloc(n); };
        s.free_mem = [](void *b) {
            std::free(b);
            return 0;
        };
        s.set_error = set_error;
        plexus_host_api_t &hst = p->host;
        hst.struct_size = sizeof hst;
        hst.major = PLEXUS_HOST_API_MAJOR;
        hst.progress_wait = progress_wait;
        hst.progress_register = [](plexus_progress_fn_t fn, void *ctx) {
            tl_me->progress_fns.emplace_back(fn, ctx);
            return 0;
        };
        hst.progress_unregister = [](plexus_progress_fn_t fn, void *ctx) {
            auto &v = tl_me->progress_fns;
            for (size_t i = 0; i < v.size(); ++i)
                if (v[i].first == fn && v[i].second == ctx) v.erase(v.begin() + long(i));
            return 0;
        };
        procs.push_back(std::move(p));
    }
}

// A process that failed an ASSERT returns early and leaves the others waiting for it: the
// watchdog ends such a test with a message instead of letting it hang.
inline void World::run(const std::function<void(Proc &)> &body) {
    std::atomic<int> finished{0};
    std::thread watchdog([&] {
        for (int i = 0; i < 60000 && finished.load() < n; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        if (finished.load() < n) {
            std::fprintf(stderr, "osc_rdma fake job: %d of %d processes did not finish within 60 s\n", n - finished.load(), n);
            std::abort();
        }
    });
    std::vector<std::thread> threads;
    for (auto &p : procs)
        threads.emplace_back([&body, &finished, proc = p.get()] {
            tl_me = proc;
            body(*proc);
            ++finished;
        });
    for (auto &t : threads) t.join();
    watchdog.join();
}

// One window of `bytes` at `base` for the calling process.
struct Win {
    plexus::osc_rdma::ModuleHandle *m = nullptr;
    plexus_osc_module_t *mod = nullptr;
    Win(Proc &p, void *base, size_t bytes, int disp_unit, const plexus::osc_rdma::Config &cfg) {
        plexus_osc_scope_t s{};
        s.struct_size = sizeof s;
        s.size = bytes;
        s.disp_unit = disp_unit;
        s.comm_size = p.world->n;
        s.local_peers = p.world->n;
        s.flavor = PLEXUS_OSC_FLAVOR_CREATE;
        s.rank = p.rank;
        s.base = base;
        s.win = reinterpret_cast<plexus_osc_win_t *>(&p);
        s.comm = reinterpret_cast<plexus_coll_comm_t *>(&p);
        s.services = &p.svc;
        m = plexus::osc_rdma::create_module(s, cfg, &p.host);
        mod = &m->base;
        void *b = base;
        EXPECT_EQ(mod->win_init(mod, &b), 0) << p.last_error;
    }
    ~Win() {
        EXPECT_EQ(mod->win_free(mod), 0);
        mod->destroy(mod);
    }
    Win(const Win &) = delete;
    Win &operator=(const Win &) = delete;
    plexus::osc_rdma::Window *window() const { return m->window.get(); }
};

}  // namespace osc_fake
