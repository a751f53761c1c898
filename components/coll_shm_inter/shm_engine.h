// The shared-memory collective engine of one node group: the processes of a communicator that
// share a node, a segment they all mapped (shm_layout.h) and a fan-in / fan-out tree over them
// (shm_tree.h). Everything moves as packed bytes: the MPI-level functions (intra_*.cc) pack and
// unpack non-contiguous layouts around it.
//
// Every operation is a sequence of phases "write into the current set of slots, barrier, read
// from it"; the barrier flips the set. A process writes a set again only after the next barrier,
// which every process entered after its reads of that set: no other synchronisation is needed,
// across calls too. Flags are generations (the barrier count), never reset.
//
// Waits go through a Waiter: the real one polls the progress engine with its back-off (more
// processes than CPUs is normal), the unit tests' spins and yields.
#pragma once

#include <cstddef>
#include <cstdint>

#include "shm_layout.h"
#include "shm_tree.h"

namespace plexus::coll_shm_inter {

struct Waiter {
    // Returns once load_acquire(*word) >= target.
    void (*wait)(void *ctx, const uint64_t *word, uint64_t target) = nullptr;
    void *ctx = nullptr;
};

// Reads bytes of another process of the node (Cross Memory Attach through the core's services);
// 0 on success. read == nullptr: no single copy.
struct SingleCopy {
    int (*read)(void *ctx, int32_t pid, uint64_t addr, void *dst, size_t len) = nullptr;
    void *ctx = nullptr;
};

// inout[i] = in[i] op inout[i] for items items; 0 on success, else an MPI error class.
struct Combine {
    int (*apply)(void *ctx, const void *in, void *inout, size_t items) = nullptr;
    void *ctx = nullptr;
};

// A spinning, yielding Waiter for processes without the progress engine (the unit tests).
Waiter spin_waiter();

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

    // Small groups: every process publishes its arrival and waits for everyone else's (one hop,
    // no relay: what a group with more processes than CPUs needs). Larger: the tree's fan-in and
    // fan-out (two traversals of log depth).
    void barrier();
    bool flat() const { return flat_; }
    // The fan-in half and the fan-out half of a barrier, for the two-level barrier: between
    // them the tree's root alone runs (it talks to the other nodes).
    void fan_in();
    void fan_out();

    // root's bytes into everyone's data. With cma_from > 0 and bytes >= cma_from the root
    // publishes its buffer and the others read it by single copy; otherwise in chunks.
    int bcast(void *data, size_t bytes, int root, size_t cma_from);
    // Reduction of items items of item_bytes each, in rank order (x0 op x1 op ...), so any
    // operation works; the result lands in out at root (every process when root < 0). Each
    // process combines a stripe of every chunk. item_bytes <= layout().chunk.
    int reduce(const void *in, void *out, size_t items, size_t item_bytes, Combine combine, int root);
    // block bytes from every process into out (procs() blocks in rank order) at root (every
    // process when root < 0).
    int gather(const void *in, size_t block, void *out, int root);
    // root's procs() blocks of block bytes, block r to process r.
    int scatter(const void *in, size_t block, void *out, int root);
    // The same with blocks of their own lengths (bytes[r], known to every process), packed one
    // after the other in rank order at the root.
    int scatterv(const void *in, const size_t *bytes, void *out, int root);

private:
    uint8_t *slot(int set, int rank) const { return base_ + layout_.slot_offset(set, rank); }
    int current_set() const { return static_cast<int>(gen_ & 1u); }
    void wait(const uint64_t *word, uint64_t target) const { waiter_.wait(waiter_.ctx, word, target); }
    int bcast_by_single_copy(void *data, size_t bytes, int root);

    uint8_t *base_;
    Layout layout_;
    int rank_;
    Tree tree_;
    Waiter waiter_;
    SingleCopy copy_;
    bool flat_ = false;
    uint64_t gen_ = 0;  // barriers so far: the same count in every process of the group
};

}  // namespace plexus::coll_shm_inter
