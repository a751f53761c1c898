#include "shm_engine.h"

#include <sched.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include <plexus/sdk/shared_word.hpp>

namespace plexus::coll_shm_inter {
namespace {

using sdk::load_acquire;
using sdk::store_release;

void spin_then_yield(void *, const uint64_t *word, uint64_t target) {
    for (unsigned i = 0; load_acquire(*const_cast<uint64_t *>(word)) < target; ++i)
        if (i >= 64) sched_yield();
}

// The part [lo, hi) of n items that process r of p combines.
std::pair<size_t, size_t> stripe(size_t n, int r, int p) {
    const size_t q = n / static_cast<size_t>(p), rem = n % static_cast<size_t>(p);
    const size_t ur = static_cast<size_t>(r);
    const size_t lo = ur * q + std::min(ur, rem);
    return {lo, lo + q + (ur < rem ? 1 : 0)};
}

}  // namespace

Waiter spin_waiter() { return Waiter{spin_then_yield, nullptr}; }

Engine::Engine(uint8_t *base, const Layout &layout, int rank, Tree tree, Waiter waiter, SingleCopy copy,
               int flat_up_to)
    : base_(base), layout_(layout), rank_(rank), tree_(std::move(tree)), waiter_(waiter), copy_(copy),
      flat_(layout.procs <= flat_up_to) {}

void Engine::fan_in() {
    const uint64_t g = gen_ + 1;
    for (int c : tree_.children[static_cast<size_t>(rank_)]) wait(&control(c).arrive, g);
    if (rank_ != tree_.root) store_release(control(rank_).arrive, g);
}

void Engine::fan_out() {
    const uint64_t g = ++gen_;
    Control &me = control(rank_);
    if (rank_ != tree_.root) wait(&control(tree_.parent[static_cast<size_t>(rank_)]).release, g);
    // Leaves have nobody reading their release flag; writing it anyway keeps every line's
    // meaning simple (the last barrier this process left).
    store_release(me.release, g);
}

// Both forms write `arrive` with the barrier's generation and wait for ">= it": generations only
// grow, so the two forms mix freely (the split barrier of an inter-communicator uses the tree).
void Engine::barrier() {
    if (layout_.procs <= 1) {
        ++gen_;
        return;
    }
    if (!flat_) {
        fan_in();
        fan_out();
        return;
    }
    const uint64_t g = ++gen_;
    store_release(control(rank_).arrive, g);
    for (int i = 1; i < layout_.procs; ++i) {
        // Start with the next process: they do not all poll the same line first.
        const int peer = (rank_ + i) % layout_.procs;
        wait(&control(peer).arrive, g);
    }
}

int Engine::bcast(void *data, size_t bytes, int root, size_t cma_from) {
    if (bytes == 0) return 0;
    auto *buf = static_cast<uint8_t *>(data);
    const bool by_copy = cma_from > 0 && bytes >= cma_from && copy_.read != nullptr && layout_.procs > 1;
    if (by_copy) return bcast_by_single_copy(data, bytes, root);
    const size_t step = layout_.set_bytes();
    for (size_t off = 0; off < bytes; off += step) {
        const size_t n = std::min(step, bytes - off);
        const int s = current_set();
        if (rank_ == root) std::memcpy(slot(s, 0), buf + off, n);
        barrier();
        if (rank_ != root) std::memcpy(buf + off, slot(s, 0), n);
    }
    return 0;
}

// Two barriers whatever the size: the root publishes its buffer, every other process reads it
// in one pass, and the root leaves only once all have read it.
int Engine::bcast_by_single_copy(void *data, size_t bytes, int root) {
    Control &r = control(root);
    if (rank_ == root) {
        r.cma_addr = reinterpret_cast<uint64_t>(data);
        r.cma_bytes = bytes;
    }
    barrier();
    int rc = 0;
    if (rank_ != root) rc = copy_.read(copy_.ctx, r.pid, r.cma_addr, data, bytes);
    barrier();
    return rc;
}

int Engine::reduce(const void *in, void *out, size_t items, size_t item_bytes, Combine combine, int root) {
    const auto *src = static_cast<const uint8_t *>(in);
    auto *dst = static_cast<uint8_t *>(out);
    const size_t per_chunk = std::max<size_t>(1, layout_.chunk / item_bytes);
    const int p = layout_.procs;
    int rc = 0;
    for (size_t first = 0; first < items; first += per_chunk) {
        const size_t k = std::min(per_chunk, items - first);
        const int s = current_set();
        std::memcpy(slot(s, rank_), src + first * item_bytes, k * item_bytes);
        barrier();
        // My stripe, combined right to left so that x_i is always the left operand.
        const auto [lo, hi] = stripe(k, rank_, p);
        uint8_t *acc = slot(s ^ 1, 0) + lo * item_bytes;
        if (hi > lo) {
            std::memcpy(acc, slot(s, p - 1) + lo * item_bytes, (hi - lo) * item_bytes);
            for (int i = p - 2; i >= 0 && rc == 0; --i)
                rc = combine.apply(combine.ctx, slot(s, i) + lo * item_bytes, acc, hi - lo);
        }
        barrier();
        if (root < 0 || rank_ == root) std::memcpy(dst + first * item_bytes, slot(s ^ 1, 0), k * item_bytes);
    }
    return rc;
}

int Engine::gather(const void *in, size_t block, void *out, int root) {
    const auto *src = static_cast<const uint8_t *>(in);
    auto *dst = static_cast<uint8_t *>(out);
    for (size_t off = 0; off < block; off += layout_.chunk) {
        const size_t n = std::min(layout_.chunk, block - off);
        const int s = current_set();
        std::memcpy(slot(s, rank_), src + off, n);
        barrier();
        if (root < 0 || rank_ == root)
            for (int i = 0; i < layout_.procs; ++i) std::memcpy(dst + static_cast<size_t>(i) * block + off, slot(s, i), n);
    }
    return 0;
}

int Engine::scatter(const void *in, size_t block, void *out, int root) {
    const auto *src = static_cast<const uint8_t *>(in);
    auto *dst = static_cast<uint8_t *>(out);
    for (size_t off = 0; off < block; off += layout_.chunk) {
        const size_t n = std::min(layout_.chunk, block - off);
        const int s = current_set();
        if (rank_ == root)
            for (int i = 0; i < layout_.procs; ++i) std::memcpy(slot(s, i), src + static_cast<size_t>(i) * block + off, n);
        barrier();
        std::memcpy(dst + off, slot(s, rank_), n);
    }
    return 0;
}

int Engine::scatterv(const void *in, const size_t *bytes, void *out, int root) {
    const auto *src = static_cast<const uint8_t *>(in);
    auto *dst = static_cast<uint8_t *>(out);
    const int p = layout_.procs;
    size_t longest = 0;
    for (int i = 0; i < p; ++i) longest = std::max(longest, bytes[i]);
    for (size_t off = 0; off < longest; off += layout_.chunk) {
        const int s = current_set();
        if (rank_ == root) {
            size_t at = 0;
            for (int i = 0; i < p; ++i) {
                if (bytes[i] > off) std::memcpy(slot(s, i), src + at + off, std::min(layout_.chunk, bytes[i] - off));
                at += bytes[i];
            }
        }
        barrier();
        const size_t mine = bytes[rank_];
        if (mine > off) std::memcpy(dst + off, slot(s, rank_), std::min(layout_.chunk, mine - off));
    }
    return 0;
}

}  // namespace plexus::coll_shm_inter
