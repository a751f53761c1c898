// The engine's large-message paths by single copy (Cross Memory Attach, through the core's
// services): the users' buffers are published in the control lines and every process moves its
// own part straight between them. Chunks through the segment cost two copies per byte and a flag
// round per chunk in which every process of the group must get a CPU; here one or two phases
// carry the whole message, and a process that has moved its part does not wait for a descheduled
// peer to move its own (what 8 processes on 2 CPUs need).
//
// The rule that keeps a buffer alive while others use it: a process leaves only once every
// process that reads or writes its buffers said it is done with them (a posted or done phase).
#include <algorithm>
#include <cstring>

#include <plexus/coll.h>

#include "shm_engine.h"

namespace plexus::coll_shm_inter {
namespace {

// Peers' inputs are combined in pieces of this many bytes, so that the piece and the part of the
// stripe it meets stay in cache.
constexpr size_t kPieceBytes = 64 * 1024;
// An MPI error class, as every engine result: -1 would read as "declined" after data moved.
constexpr int kNoMemory = PLEXUS_COLL_ERR_NO_MEM;

uint64_t addr_of(const void *p) {
    return reinterpret_cast<uint64_t>(p);
}

bool grow(std::vector<uint8_t> &v, size_t n) {
    try {
        if (v.size() < n) v.resize(n);
    } catch (...) {
        return false;
    }
    return true;
}

}  // namespace

int Engine::read_from(int rank, uint64_t addr, void *dst, size_t len) const {
    return len ? copy_.read(copy_.ctx, control(rank).pid, addr, dst, len) : 0;
}

int Engine::write_to(int rank, uint64_t addr, const void *src, size_t len) const {
    return len ? copy_.write(copy_.ctx, control(rank).pid, addr, src, len) : 0;
}

// Items [lo, hi) of every process's input (published in cma_addr) combined into acc, right to
// left so that x_i stays the left operand: acc = x0 op (x1 op (... op x(p-1))).
int Engine::combine_stripe(const void *in, size_t lo, size_t hi, size_t item_bytes, Combine combine,
                           uint8_t *acc) {
    const int p = layout_.procs;
    const auto *mine = static_cast<const uint8_t *>(in);
    const size_t per_piece = std::max<size_t>(1, kPieceBytes / item_bytes);
    for (size_t a = lo; a < hi; a += per_piece) {
        const size_t k = std::min(per_piece, hi - a), n = k * item_bytes, at = a * item_bytes;
        uint8_t *dst = acc + (a - lo) * item_bytes;
        int rc = p - 1 == rank_ ? (std::memcpy(dst, mine + at, n), 0)
                                : read_from(p - 1, control(p - 1).cma_addr + at, dst, n);
        for (int i = p - 2; i >= 0 && rc == 0; --i) {
            const uint8_t *x = mine + at;
            if (i != rank_) {
                rc = read_from(i, control(i).cma_addr + at, piece_.data(), n);
                x = piece_.data();
            }
            if (rc == 0) rc = combine.apply(combine.ctx, x, dst, k);
        }
        if (rc) return rc;
    }
    return 0;
}

// Phase g: everyone publishes its input and output; once all have, each combines its stripe of
// all inputs (reads) and writes it into the output of the root (or of everyone). Phase h: posted
// when a process has read and written all it will, so that after every post of h nobody touches
// anybody's buffers any more. A process writes stripe r of another's output only after it read
// stripe r of every input, and only it reads stripe r: an in-place root's input is safe.
int Engine::reduce_by_single_copy(const void *in, void *out, size_t items, size_t item_bytes,
                                  Combine combine, int root) {
    const int p = layout_.procs;
    auto *res = static_cast<uint8_t *>(out);
    const bool gets = root < 0 || rank_ == root;
    if (p == 1) {
        if (gets && res != in) std::memcpy(res, in, items * item_bytes);
        return 0;
    }
    const uint64_t g = next_phase(), h = next_phase();
    Control &me = control(rank_);
    me.cma_addr = addr_of(in);
    me.out_addr = gets ? addr_of(out) : 0;
    post(g);
    wait_all_posted(g);
    const auto [lo, hi] = stripe(items, rank_, p);
    const size_t n = (hi - lo) * item_bytes;
    int rc = 0;
    // The stripe straight into this process's result, unless that is its input (in place).
    uint8_t *acc = gets && res != in ? res + lo * item_bytes : nullptr;
    if (n > 0) {
        if (!grow(piece_, std::min(n, std::max(kPieceBytes, item_bytes))) ||
            (!acc && !grow(acc_, n)))
            rc = kNoMemory;
        if (!acc) acc = acc_.data();
        if (rc == 0) rc = combine_stripe(in, lo, hi, item_bytes, combine, acc);
    }
    done(g);
    for (int i = 0; i < p && rc == 0 && n > 0; ++i) {
        const int j = (rank_ + i) % p;
        if (root >= 0 && j != root) continue;
        if (j != rank_)
            rc = write_to(j, control(j).out_addr + lo * item_bytes, acc, n);
        else if (acc != res + lo * item_bytes)
            std::memcpy(res + lo * item_bytes, acc, n);
    }
    post(h);
    wait_all_posted(h);
    done(h);
    return rc;
}

// Phase g: the root publishes its scratch area (out_addr; 0 when it has no memory for it) and
// posts; every other process writes its vector into its place there and says done, which is
// all it waits for: one write, where the striped reduction keeps every process for two phases
// (each costing a turn of the scheduler on a node with more processes than CPUs). The root
// combines x0 op (x1 op ...) once all are done, its own input read in place, so an in-place
// root is safe: its result is written only after the last combination.
int Engine::reduce_at_root_by_single_copy(const void *in, void *out, size_t items,
                                          size_t item_bytes, Combine combine, int root) {
    const int p = layout_.procs;
    const size_t bytes = items * item_bytes;
    if (bytes == 0) return 0;
    if (p == 1) {
        if (out != in) std::memcpy(out, in, bytes);
        return 0;
    }
    const uint64_t g = next_phase();
    if (rank_ != root) {
        wait_posted(root, g);
        const uint64_t area = control(root).out_addr;
        const int rc =
            area ? write_to(root, area + static_cast<size_t>(rank_) * bytes, in, bytes) : kNoMemory;
        done(g);
        return rc;
    }
    const bool room = grow(gathered_, bytes * static_cast<size_t>(p));
    control(rank_).out_addr = room ? addr_of(gathered_.data()) : 0;
    post(g);
    wait_all_done(g);
    done(g);
    if (!room) return kNoMemory;
    const auto x = [&](int i) -> const uint8_t * {
        return i == rank_ ? static_cast<const uint8_t *>(in)
                          : gathered_.data() + static_cast<size_t>(i) * bytes;
    };
    // The accumulator: the last process's place (the root's own input must stay unwritten
    // until the end when it is also the result).
    uint8_t *acc = gathered_.data() + static_cast<size_t>(p - 1) * bytes;
    if (p - 1 == rank_) std::memcpy(acc, in, bytes);
    int rc = 0;
    for (int i = p - 2; i >= 0 && rc == 0; --i) rc = combine.apply(combine.ctx, x(i), acc, items);
    if (rc == 0) std::memcpy(out, acc, bytes);
    return rc;
}

int Engine::gather_by_single_copy(const void *in, size_t block, void *out, int root) {
    const int p = layout_.procs;
    auto *all = static_cast<uint8_t *>(out);
    const auto copy_own = [&] {
        uint8_t *dst = all + static_cast<size_t>(rank_) * block;
        if (dst != in) std::memcpy(dst, in, block);
    };
    if (p == 1) {
        copy_own();
        return 0;
    }
    const uint64_t g = next_phase();
    Control &me = control(rank_);
    int rc = 0;
    if (root >= 0) {
        // Gather: the others write their blocks into the root's result and leave at once.
        if (rank_ == root) {
            me.out_addr = addr_of(out);
            post(g);
            copy_own();
            wait_all_done(g);
        } else {
            wait_posted(root, g);
            rc = write_to(root, control(root).out_addr + static_cast<size_t>(rank_) * block, in,
                          block);
        }
        done(g);
        return rc;
    }
    // Allgather: everyone reads every block; a block's owner leaves once all have read it.
    me.cma_addr = addr_of(in);
    post(g);
    copy_own();
    for (int i = 1; i < p && rc == 0; ++i) {
        const int j = (rank_ + i) % p;
        wait_posted(j, g);
        rc = read_from(j, control(j).cma_addr, all + static_cast<size_t>(j) * block, block);
    }
    done(g);
    wait_all_done(g);
    return rc;
}

int Engine::scatter_by_single_copy(const void *in, size_t block, void *out, int root) {
    const auto *all = static_cast<const uint8_t *>(in);
    const size_t at = static_cast<size_t>(rank_) * block;
    if (layout_.procs == 1) {
        std::memcpy(out, all + at, block);
        return 0;
    }
    const uint64_t g = next_phase();
    int rc = 0;
    if (rank_ == root) {
        control(rank_).cma_addr = addr_of(in);
        post(g);
        std::memcpy(out, all + at, block);
        wait_all_done(g);
    } else {
        wait_posted(root, g);
        rc = read_from(root, control(root).cma_addr + at, out, block);
    }
    done(g);
    return rc;
}

// ---- the union's rooted calls (shm_engine.h): one phase, the root's buffer read in place

void Engine::lend(const void *data, size_t bytes, int lo, int hi) {
    const uint64_t g = next_phase();
    Control &me = control(rank_);
    me.cma_pid = me.pid;
    me.cma_addr = addr_of(data);
    me.cma_bytes = bytes;
    post(g);
    for (int i = lo; i < hi; ++i)
        if (i != rank_) wait(i, &control(i).done, g);
    done(g);
}

int Engine::borrow(int root, void *out, size_t bytes) {
    const uint64_t g = next_phase();
    wait_posted(root, g);
    const Control &r = control(root);
    const int rc = bytes ? copy_.read(copy_.ctx, r.cma_pid, r.cma_addr, out, bytes) : 0;
    done(g);
    return rc;
}

}  // namespace plexus::coll_shm_inter
