#include "shm_engine.h"

#include <sched.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include <plexus/sdk/shared_word.hpp>

#include "flag_wait.h"

namespace plexus::coll_shm_inter {
namespace {

using sdk::load_acquire;

void spin_then_yield(void *, const uint64_t *word, uint64_t target, uint32_t *) {
    for (unsigned i = 0; load_acquire(*const_cast<uint64_t *>(word)) < target; ++i)
        if (i >= 64) sched_yield();
}

}  // namespace

std::pair<size_t, size_t> stripe(size_t n, int r, int p) {
    const size_t q = n / static_cast<size_t>(p), rem = n % static_cast<size_t>(p);
    const size_t ur = static_cast<size_t>(r);
    const size_t lo = ur * q + std::min(ur, rem);
    return {lo, lo + q + (ur < rem ? 1 : 0)};
}

Waiter spin_waiter() {
    return Waiter{spin_then_yield, nullptr};
}

Engine::Engine(uint8_t *base, const Layout &layout, int rank, Tree tree, Waiter waiter,
               SingleCopy copy, int flat_up_to)
    : base_(base),
      layout_(layout),
      rank_(rank),
      tree_(std::move(tree)),
      waiter_(waiter),
      copy_(copy),
      flat_(layout.procs <= flat_up_to) {}

// ---- the flags

void Engine::may_write(uint64_t phase) {
    if (phase > 2) wait_all_done(phase - 2);
}

void Engine::post(uint64_t phase) {
    publish_flag(&control(rank_).posted, phase, &control(rank_).sleepers);
}
void Engine::done(uint64_t phase) {
    publish_flag(&control(rank_).done, phase, &control(rank_).sleepers);
}

// Starting with the next process, so that they do not all poll the same line first.
void Engine::wait_all_posted(uint64_t phase) const {
    for (int i = 1; i < layout_.procs; ++i) wait_posted((rank_ + i) % layout_.procs, phase);
}

void Engine::wait_all_done(uint64_t phase) const {
    for (int i = 1; i < layout_.procs; ++i) {
        const int r = (rank_ + i) % layout_.procs;
        wait(r, &control(r).done, phase);
    }
}

// ---- barriers

void Engine::fan_in() {
    const uint64_t g = gen_ + 1;
    for (int c : tree_.children[static_cast<size_t>(rank_)]) wait_posted(c, g);
    post(g);
}

void Engine::fan_out() {
    const uint64_t g = next_phase();
    if (rank_ != tree_.root) {
        const int parent = tree_.parent[static_cast<size_t>(rank_)];
        wait(parent, &control(parent).release, g);
    }
    publish_flag(&control(rank_).release, g, &control(rank_).sleepers);
    done(g);
}

void Engine::barrier() {
    if (!flat_) {
        fan_in();
        fan_out();
        return;
    }
    const uint64_t g = next_phase();
    post(g);
    wait_all_posted(g);
    done(g);
}

// ---- data

int Engine::bcast(void *data, size_t bytes, int root, size_t cma_from) {
    if (bytes == 0) return 0;
    auto *buf = static_cast<uint8_t *>(data);
    if (bcast_by_copy(bytes, cma_from)) return bcast_by_single_copy(data, bytes, root);
    const size_t step = layout_.set_bytes();
    for (size_t off = 0; off < bytes; off += step) {
        const size_t n = std::min(step, bytes - off);
        const uint64_t g = next_phase();
        if (rank_ == root) {
            may_write(g);
            std::memcpy(slot(g, 0), buf + off, n);
            post(g);
        } else {
            wait_posted(root, g);
            std::memcpy(buf + off, slot(g, 0), n);
        }
        done(g);
    }
    return 0;
}

// One phase whatever the size: the root publishes its buffer, every other process reads it in
// one pass, and the root leaves only once all have read it (its buffer is theirs until then).
int Engine::bcast_by_single_copy(void *data, size_t bytes, int root) {
    const uint64_t g = next_phase();
    Control &r = control(root);
    int rc = 0;
    if (rank_ == root) {
        r.cma_pid = r.pid;
        r.cma_addr = reinterpret_cast<uint64_t>(data);
        r.cma_bytes = bytes;
        post(g);
        wait_all_done(g);
    } else {
        wait_posted(root, g);
        rc = copy_.read(copy_.ctx, r.cma_pid, r.cma_addr, data, bytes);
    }
    done(g);
    return rc;
}

int Engine::bcast_relay(void *data, size_t bytes, int32_t pid, uint64_t addr) {
    const uint64_t g = next_phase();
    Control &me = control(rank_);
    me.cma_pid = pid;
    me.cma_addr = addr;
    me.cma_bytes = bytes;
    post(g);
    const int rc = copy_.read(copy_.ctx, pid, addr, data, bytes);
    wait_all_done(g);
    done(g);
    return rc;
}

// Vectors of one chunk up to kDirectReduceBytes: one phase, in which every process that wants
// the result combines all the slots itself (right to left, straight into out); the others leave
// once they have written.
int Engine::reduce_direct(const void *in, void *out, size_t items, size_t item_bytes,
                          Combine combine, int root) {
    const int p = layout_.procs;
    const size_t bytes = items * item_bytes;
    const uint64_t g = next_phase();
    may_write(g);
    std::memcpy(slot(g, rank_), in, bytes);
    post(g);
    int rc = 0;
    if (root < 0 || rank_ == root) {
        wait_all_posted(g);
        std::memcpy(out, slot(g, p - 1), bytes);
        for (int i = p - 2; i >= 0 && rc == 0; --i)
            rc = combine.apply(combine.ctx, slot(g, i), out, items);
    }
    done(g);
    return rc;
}

// Larger: per chunk two phases. In the first every process writes its chunk, then combines its
// stripe of all of them (right to left: x_i stays the left operand) into the next phase's set;
// in the second the root (or everyone) reads the combined chunk.
int Engine::reduce(const void *in, void *out, size_t items, size_t item_bytes, Combine combine,
                   int root) {
    const auto *src = static_cast<const uint8_t *>(in);
    auto *dst = static_cast<uint8_t *>(out);
    const size_t per_chunk = std::max<size_t>(1, layout_.chunk / item_bytes);
    const int p = layout_.procs;
    if (items <= per_chunk && items * item_bytes <= kDirectReduceBytes)
        return reduce_direct(in, out, items, item_bytes, combine, root);
    int rc = 0;
    for (size_t first = 0; first < items; first += per_chunk) {
        const size_t k = std::min(per_chunk, items - first);
        const uint64_t g = next_phase(), h = next_phase();
        may_write(g);
        std::memcpy(slot(g, rank_), src + first * item_bytes, k * item_bytes);
        post(g);
        wait_all_posted(g);
        const auto [lo, hi] = stripe(k, rank_, p);
        may_write(h);
        uint8_t *acc = slot(h, 0) + lo * item_bytes;
        if (hi > lo) {
            std::memcpy(acc, slot(g, p - 1) + lo * item_bytes, (hi - lo) * item_bytes);
            for (int i = p - 2; i >= 0 && rc == 0; --i)
                rc = combine.apply(combine.ctx, slot(g, i) + lo * item_bytes, acc, hi - lo);
        }
        done(g);
        post(h);
        if (root < 0 || rank_ == root) {
            wait_all_posted(h);
            std::memcpy(dst + first * item_bytes, slot(h, 0), k * item_bytes);
        }
        done(h);
    }
    return rc;
}

int Engine::gather(const void *in, size_t block, void *out, int root) {
    const auto *src = static_cast<const uint8_t *>(in);
    auto *dst = static_cast<uint8_t *>(out);
    for (size_t off = 0; off < block; off += layout_.chunk) {
        const size_t n = std::min(layout_.chunk, block - off);
        const uint64_t g = next_phase();
        may_write(g);
        std::memcpy(slot(g, rank_), src + off, n);
        post(g);
        if (root < 0 || rank_ == root) {
            wait_all_posted(g);
            for (int i = 0; i < layout_.procs; ++i)
                std::memcpy(dst + static_cast<size_t>(i) * block + off, slot(g, i), n);
        }
        done(g);
    }
    return 0;
}

int Engine::scatter(const void *in, size_t block, void *out, int root) {
    const auto *src = static_cast<const uint8_t *>(in);
    auto *dst = static_cast<uint8_t *>(out);
    for (size_t off = 0; off < block; off += layout_.chunk) {
        const size_t n = std::min(layout_.chunk, block - off);
        const uint64_t g = next_phase();
        if (rank_ == root) {
            may_write(g);
            for (int i = 0; i < layout_.procs; ++i)
                std::memcpy(slot(g, i), src + static_cast<size_t>(i) * block + off, n);
            post(g);
        } else {
            wait_posted(root, g);
        }
        std::memcpy(dst + off, slot(g, rank_), n);
        done(g);
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
        const uint64_t g = next_phase();
        if (rank_ == root) {
            may_write(g);
            size_t at = 0;
            for (int i = 0; i < p; ++i) {
                if (bytes[i] > off)
                    std::memcpy(slot(g, i), src + at + off,
                                std::min(layout_.chunk, bytes[i] - off));
                at += bytes[i];
            }
            post(g);
        } else {
            wait_posted(root, g);
        }
        const size_t mine = bytes[rank_];
        if (mine > off) std::memcpy(dst + off, slot(g, rank_), std::min(layout_.chunk, mine - off));
        done(g);
    }
    return 0;
}

}  // namespace plexus::coll_shm_inter
