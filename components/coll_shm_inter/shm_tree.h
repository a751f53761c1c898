// The fan-in / fan-out tree of a node group, shaped by the hardware: processes that share the
// most (a core, then an L2, an L3, a NUMA node, a package) are placed next to each other, and a
// binomial tree over that order makes its lowest levels (the edges crossed most often) join
// neighbours. Pure functions of the pairwise relations, so every process builds the same tree.
#pragma once

#include <cstdint>
#include <vector>

namespace plexus::coll_shm_inter {

// relation[i * n + j]: the PLEXUS_TOPO_SHARE_* bits processes i and j share (symmetric).
// Returns the processes in an order where each next one is the closest to the one before
// (greedy, starting from process 0, ties by the lower index): sharing groups end up contiguous.
std::vector<int> topology_order(int n, const std::vector<unsigned> &relation);

struct Tree {
    int root = 0;
    std::vector<int> parent;                 // -1 for the root
    std::vector<std::vector<int>> children;  // in the order a fan-in waits for them
};

// A binomial tree over order (order[0] the root): the process at position p has as parent the
// one at p with its lowest set bit cleared.
Tree binomial_tree(const std::vector<int> &order);

// How close two processes are, as one number (more shared levels: larger).
int closeness(unsigned share_bits);

}  // namespace plexus::coll_shm_inter
