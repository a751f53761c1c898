// The bytes of one node group's segment: a control line per process (its flags and what it
// publishes for single copy) and two sets of data slots, one slot of chunk bytes per process in
// each. Plain data at fixed offsets, so every process of the group computes the same layout from
// (processes, chunk) alone and nothing in the segment is a pointer.
#pragma once

#include <cstddef>
#include <cstdint>

namespace plexus::coll_shm_inter {

// Two cache lines per process: its own flags never share a line with a neighbour's (the second
// holds only the count of processes asleep on them, against the adjacent-line prefetcher).
constexpr size_t kControlBytes = 128;
constexpr size_t kSlotAlign = 64;
constexpr int kSets = 2;

// What a process writes in its control line; the others only read it.
struct Control {
    uint64_t posted;   // the last phase whose data this process wrote (or, in a tree barrier, whose
                       // subtree arrived)
    uint64_t done;     // the last phase this process finished reading: its set may be written again
    uint64_t release;  // the last tree barrier this process was let out of
    uint64_t cma_addr;   // a buffer of this process others may read by single copy (0: none)
    uint64_t cma_bytes;  // its length
    int32_t pid;         // for single copy
    int32_t ready;       // 1 once attached (setup)
    uint64_t out_addr;   // a result buffer others may write by single copy (0: none)
    int32_t cma_pid;     // whose memory cma_addr is in (a relayed Bcast: another group's root)
    // Processes asleep on one of the flags above (flag_wait.h): the one word others write, in the
    // second line, so that it moves only when somebody goes to sleep, never with the flags.
    alignas(64) uint32_t sleepers;
};
static_assert(sizeof(Control) <= kControlBytes, "a control line holds the flags");

struct Layout {
    int procs = 0;
    size_t chunk = 0;  // bytes of one slot

    size_t control_offset(int rank) const { return static_cast<size_t>(rank) * kControlBytes; }
    size_t data_offset() const { return static_cast<size_t>(procs) * kControlBytes; }
    size_t set_bytes() const { return static_cast<size_t>(procs) * chunk; }
    size_t slot_offset(int set, int rank) const {
        return data_offset() + static_cast<size_t>(set) * set_bytes() +
               static_cast<size_t>(rank) * chunk;
    }
    size_t total_bytes() const { return data_offset() + kSets * set_bytes(); }
};

// The layout for procs processes with slots of at least chunk bytes (rounded up to whole lines).
inline Layout make_layout(int procs, size_t chunk) {
    Layout l;
    l.procs = procs;
    l.chunk = (chunk + kSlotAlign - 1) / kSlotAlign * kSlotAlign;
    if (l.chunk == 0) l.chunk = kSlotAlign;
    return l;
}

}  // namespace plexus::coll_shm_inter
