// The size table as one answer per call: which path serves a call of so many bytes, decided from
// the parameters and from what every process of the communicator knows alike (sizes, whether all
// may use single copy), so that every process takes the same path or every process declines and
// the next component serves the call. Pure functions, so that the table is tested without a
// communicator (tests/test_coll_shm_inter_decide.cc).
#pragma once

#include <cstddef>

#include "shm_params.h"

namespace plexus::coll_shm_inter {

enum class Path {
    Decline,       // the next component in the chain serves the call
    Segment,       // chunks through the node group's segment
    SingleCopy,    // the users' buffers moved directly (shm_single_copy.cc)
    RootCombines,  // Reduce: every vector written into the root by single copy, combined there
};

const char *path_name(Path path);

// bytes: the whole message. everyone_copies: every process of the communicator may use single
// copy (TwoLevel::single_copy).
Path decide_bcast(const Params &p, size_t bytes, bool everyone_copies);
// bytes: the vector; all: Allreduce (else Reduce); item_fits_slot: one item fits a segment slot
// (the segment's path combines items in place in its slots); procs: the communicator's size.
// Reduce only: RootCombines from reduce_root_copy_from, below the striped single copy's
// threshold, with more than kRootCombinesFrom - 1 processes.
Path decide_reduce(const Params &p, size_t bytes, bool all, bool everyone_copies,
                   bool item_fits_slot, int procs);
// At 2 processes the root combining one written vector lost to coll_basic's one message at every
// size from 16 KiB to 1 MiB (README, "The size table"): the saving is in the others' phases, and
// a pair has one other.
constexpr int kRootCombinesFrom = 3;
// block: one process's block; all: Allgather (else Gather).
Path decide_gather(const Params &p, size_t block, bool all, bool everyone_copies);
Path decide_scatter(const Params &p, size_t block, bool everyone_copies);

// The union of an inter-communicator's two groups on one node (inter_local.h, union_two).
// Allreduce, Allgather, Alltoall: one phase in which every process writes what it sends into
// its slot and reads the other group's slots, when the larger of the two sides' contributions
// fits a slot (both groups see the same two sizes); else the local phases and the leaders.
inline bool union_exchange_fits(const Params &p, size_t mine, size_t theirs) {
    return (mine > theirs ? mine : theirs) <= p.chunk;
}
// Bcast and Reduce over the union (inter_union_rooted.cc), from what the root and the other group
// know alike (the bytes, whether all may use single copy): a message that fits a slot goes
// through the root's slot (Bcast) or the writers' slots (Reduce) in one phase; a larger Bcast is
// read in place from the root's buffer, in one phase too, when everyone may use single copy;
// the rest goes to the local phases and the leaders (Decline), as does every call with
// coll_shm_inter_inter_union_rooted 0 (for A/B runs against the leaders with the same Barrier).
// Not by size beyond that: the A/B runs so far (README, "Bcast and Reduce over the union") were
// too loaded to show a size at which the leaders win.
Path decide_union_bcast(const Params &p, size_t bytes, bool everyone_copies);
Path decide_union_reduce(const Params &p, size_t bytes);

}  // namespace plexus::coll_shm_inter
