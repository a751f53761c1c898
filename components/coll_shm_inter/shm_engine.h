// The shared-memory collective engine of one node group: the processes of a communicator that
// share a node, a segment they all mapped (shm_layout.h) and a fan-in / fan-out tree over them
// (shm_tree.h). Everything moves as packed bytes: the MPI-level functions (shm_ops.cc) pack and
// unpack non-contiguous layouts around it.
//
// Every operation is a sequence of phases, numbered alike in every process of the group; phase g
// uses slot set g % 2. In a phase the writers write their slots and publish `posted = g`, the
// readers wait for the writers they read, read, and publish `done = g`; a process that reads
// nothing in the phase publishes `done` at once and leaves. Before writing a set in phase g a
// writer waits until every process is done with phase g - 2, the set's previous use. So a Bcast
// root, a Gather's non-roots, a Reduce's non-roots leave as soon as they have written: nobody
// waits for a process that only reads, except to reuse its set two phases later. Flags only grow,
// and are never reset.
//
// Waits go through a Waiter: the real one polls the progress engine, then sleeps on the flag until
// its writer wakes it (flag_wait.h; more processes than CPUs is normal), the unit tests' spins and
// yields. Every flag is written through publish_flag, which wakes its sleepers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "shm_layout.h"
#include "shm_tree.h"

namespace plexus::coll_shm_inter {

// Reductions of at most this many bytes take one phase (every process that wants the result
// combines all slots) instead of two (each combines a stripe, then the result is read).
constexpr size_t kDirectReduceBytes = 4096;

struct Waiter {
    // Returns once load_acquire(*word) >= target; sleepers: the count of processes asleep on the
    // word's writer's flags (its Control's), for a waiter that sleeps (flag_wait.h).
    void (*wait)(void *ctx, const uint64_t *word, uint64_t target, uint32_t *sleepers) = nullptr;
    void *ctx = nullptr;
};

// Reads bytes of another process of the node, or writes them there (Cross Memory Attach through
// the core's services); 0 on success. read == nullptr: no single copy. write == nullptr: the
// engine reads only (write-based paths then read instead).
struct SingleCopy {
    int (*read)(void *ctx, int32_t pid, uint64_t addr, void *dst, size_t len) = nullptr;
    void *ctx = nullptr;
    int (*write)(void *ctx, int32_t pid, uint64_t addr, const void *src, size_t len) = nullptr;
};

// inout[i] = in[i] op inout[i] for items items; 0 on success, else an MPI error class.
struct Combine {
    int (*apply)(void *ctx, const void *in, void *inout, size_t items) = nullptr;
    void *ctx = nullptr;
};

// A spinning, yielding Waiter for processes without the progress engine (the unit tests).
Waiter spin_waiter();

// The part [lo, hi) of n items that process r of p combines in a striped reduction.
std::pair<size_t, size_t> stripe(size_t n, int r, int p);

class Engine {
public:
    // flat_up_to: groups of up to this many processes use the flat barrier (below).
    Engine(uint8_t *base, const Layout &layout, int rank, Tree tree, Waiter waiter, SingleCopy copy,
           int flat_up_to = 0);

    int rank() const { return rank_; }
    int procs() const { return layout_.procs; }
    const Layout &layout() const { return layout_; }
    Control &control(int rank) const {
        return *reinterpret_cast<Control *>(base_ + layout_.control_offset(rank));
    }

    // Small groups: every process posts and waits for everyone's post (one hop, no relay: what a
    // group with more processes than CPUs needs). Larger: the tree's fan-in and fan-out (two
    // traversals of log depth).
    void barrier();
    bool flat() const { return flat_; }
    // The fan-in half and the fan-out half of a tree barrier, for the two-level and the
    // inter-communicator barriers: between them the tree's root alone runs.
    void fan_in();
    void fan_out();

    // root's bytes into everyone's data. With cma_from > 0 and bytes >= cma_from the root
    // publishes its buffer and the others read it by single copy; otherwise in chunks.
    int bcast(void *data, size_t bytes, int root, size_t cma_from);
    bool bcast_by_copy(size_t bytes, size_t cma_from) const {
        return cma_from > 0 && bytes >= cma_from && copy_.read != nullptr && layout_.procs > 1;
    }
    // This process's part of a bcast(bytes, rank(), cma_from) that takes single copy, with the
    // bytes in another process of the node (pid, addr): everyone, this process too, reads them
    // from there, and this process returns once all have (an inter-communicator Bcast whose
    // root shares the node: the group reads the root's buffer directly).
    int bcast_relay(void *data, size_t bytes, int32_t pid, uint64_t addr);

    // One phase: this process writes bytes (<= layout().chunk) into its slot and posts; once
    // processes [lo, hi) have posted, use(slot_of) reads theirs (slot_of(i): process i's slot)
    // and returns 0 or an error class. What an inter-communicator's Allreduce, Allgather and
    // Alltoall of small messages need over the union of both groups: each side reads the other's.
    template <class Use>
    int exchange(const void *in, size_t bytes, int lo, int hi, Use use) {
        const uint64_t g = next_phase();
        may_write(g);
        if (bytes) std::memcpy(slot(g, rank_), in, bytes);
        post(g);
        for (int i = lo; i < hi; ++i)
            if (i != rank_) wait_posted(i, g);
        const int rc = use([this, g](int i) -> const uint8_t * { return slot(g, i); });
        done(g);
        return rc;
    }
    // The rooted calls over the union of an inter-communicator's two groups, where the root of one
    // group gives to (Bcast) or takes from (Reduce) the other group and the rest of its group
    // (MPI_PROC_NULL) has no part: every such call is one phase whatever its size, so that every
    // process counts it alike, a process without a part, or whose call moves nothing, by pass().
    // Small messages go through exchange(); these are the rest.
    void pass() { done(next_phase()); }
    // The root publishes bytes at data for single copy and leaves once readers [lo, hi) are done
    // with them (the rest of the group need not have reached the call).
    void lend(const void *data, size_t bytes, int lo, int hi);
    // A reader's side of lend(): bytes of root's buffer into out; done even when the read fails,
    // so that the root is never left waiting.
    int borrow(int root, void *out, size_t bytes);

    // Reduction of items items of item_bytes each, in rank order (x0 op x1 op ...), so any
    // operation works; the result lands in out at root (every process when root < 0).
    // item_bytes <= layout().chunk.
    int reduce(const void *in, void *out, size_t items, size_t item_bytes, Combine combine,
               int root);
    // block bytes from every process into out (procs() blocks in rank order) at root (every
    // process when root < 0).
    int gather(const void *in, size_t block, void *out, int root);
    // root's procs() blocks of block bytes, block r to process r.
    int scatter(const void *in, size_t block, void *out, int root);
    // The same with blocks of their own lengths (bytes[r], known to every process), packed one
    // after the other in rank order at the root.
    int scatterv(const void *in, const size_t *bytes, void *out, int root);

    // Large messages by single copy (shm_single_copy.cc): no slots, a phase or two whatever the
    // size, each process moving its own part straight between the users' buffers. Only when
    // single_copy() (a group of one needs no copy and always may).
    bool single_copy() const {
        return layout_.procs == 1 || (copy_.read != nullptr && copy_.write != nullptr);
    }
    // Reduce-scatter by reads (process r combines stripe r of every input, right to left), then
    // the stripes written into the root's out (root < 0: everyone's).
    int reduce_by_single_copy(const void *in, void *out, size_t items, size_t item_bytes,
                              Combine combine, int root);
    // Reduce to root >= 0 in one phase: every other process writes its vector into a scratch
    // area the root publishes and leaves at once; the root combines them all, right to left.
    int reduce_at_root_by_single_copy(const void *in, void *out, size_t items, size_t item_bytes,
                                      Combine combine, int root);
    // Gather: every process writes its block into the root's out; Allgather (root < 0): every
    // process reads every block.
    int gather_by_single_copy(const void *in, size_t block, void *out, int root);
    // Every process reads its block of the root's buffer.
    int scatter_by_single_copy(const void *in, size_t block, void *out, int root);

private:
    uint8_t *slot(uint64_t phase, int rank) const {
        return base_ + layout_.slot_offset(static_cast<int>(phase & 1u), rank);
    }
    // Waits for flag `word` of process `rank` to reach target.
    void wait(int rank, const uint64_t *word, uint64_t target) const {
        waiter_.wait(waiter_.ctx, word, target, &control(rank).sleepers);
    }
    uint64_t next_phase() { return ++gen_; }
    void may_write(uint64_t phase);  // every process done with phase - 2
    void post(uint64_t phase);
    void done(uint64_t phase);
    void wait_posted(int rank, uint64_t phase) const { wait(rank, &control(rank).posted, phase); }
    void wait_all_posted(uint64_t phase) const;
    void wait_all_done(uint64_t phase) const;
    int bcast_by_single_copy(void *data, size_t bytes, int root);
    int reduce_direct(const void *in, void *out, size_t items, size_t item_bytes, Combine combine,
                      int root);
    int read_from(int rank, uint64_t addr, void *dst, size_t len) const;
    int write_to(int rank, uint64_t addr, const void *src, size_t len) const;
    int combine_stripe(const void *in, size_t lo, size_t hi, size_t item_bytes, Combine combine,
                       uint8_t *acc);

    uint8_t *base_;
    Layout layout_;
    int rank_;
    Tree tree_;
    Waiter waiter_;
    SingleCopy copy_;
    bool flat_ = false;
    uint64_t gen_ = 0;  // phases so far: the same count in every process of the group
    // The single-copy reductions' stripe and the peer piece being combined, kept between calls
    // (touching fresh megabytes every call costs a page fault per 4 KiB).
    std::vector<uint8_t> acc_, piece_;
    std::vector<uint8_t> gathered_;  // a root's scratch: every process's vector, in rank order
};

}  // namespace plexus::coll_shm_inter
