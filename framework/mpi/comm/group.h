// The library side of MPI_Group: an ordered list of proc ids (rank -> proc id, see
// proc_table.h) and this process's rank in it. Groups are immutable once made, so the MPI layer
// hands out references: MPI_Comm_group makes a new object, MPI_Group_free drops one reference.
// MPI_GROUP_EMPTY is a predefined object that is never deleted; operations whose result is
// empty return it, as Open MPI and MPICH do (programs compare against the handle).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mpi.h"

struct plexus_mpi_group_s {
    static constexpr uint32_t kMagic = 0x47525550;  // "GRUP"
    uint32_t magic = kMagic;
    int references = 1;
    bool predefined = false;
    int rank = MPI_UNDEFINED;     // this process's rank, MPI_UNDEFINED when it is not a member
    std::vector<uint32_t> procs;  // rank -> proc id

    int size() const { return static_cast<int>(procs.size()); }
};

namespace plexus::mpi {

using Group = ::plexus_mpi_group_s;

inline bool group_valid(const Group *g) { return g && g->magic == Group::kMagic; }

// A group of procs (in rank order) as seen by the process whose proc id is self: a new object
// with one reference, or MPI_GROUP_EMPTY when procs is empty.
Group *make_group(std::vector<uint32_t> procs, uint32_t self);

// The rank of proc in procs, or MPI_UNDEFINED.
int rank_of(const std::vector<uint32_t> &procs, uint32_t proc);

// One more / one less reference; the last release deletes a non-predefined group.
void group_retain(Group *g);
void group_release(Group *g);

// MPI_Finalize: deletes the groups the program did not free (their handles die with MPI anyway),
// so that a program's forgotten MPI_Group_free does not show as a leak of the library.
void release_all_groups();
// Groups alive (not predefined): for tests.
size_t live_groups();
// Whether a live group has proc as a member (its id cannot name another process meanwhile).
bool group_names(uint32_t proc);

}  // namespace plexus::mpi
