// Where each process of a communicator runs, as far as reordering a topology needs it: its node,
// and for each level of the node's hardware (package, NUMA node, L3, L2, core) the group of
// processes that share one object of that level. gather_locality (locality_gather.cc) fills it
// collectively; the mapping (grid_map.h) only compares it.
#pragma once

#include <cstdint>
#include <vector>

namespace plexus::mpi::topo {

// Coarse to fine.
enum Level { kPackage, kNuma, kL3, kL2, kCore, kLevels };

struct Locality {
    uint32_t node = 0;
    // Per level: the lowest rank of the processes sharing one object of that level with this one
    // (itself when it shares none: an unbound process is alone at the finer levels).
    int32_t group[kLevels] = {};

    bool operator==(const Locality &) const = default;
};

// How far apart two processes are: 0 on one core, 1 sharing an L2, 2 an L3, 3 a NUMA node, 4 a
// package, 5 only the node, 10 on different nodes (a message then leaves shared memory).
int distance(const Locality &a, const Locality &b);

}  // namespace plexus::mpi::topo
