// Unit tests of the Cartesian reordering (framework/mpi/topo/grid_map.h) on made-up machines:
// nodes filled round-robin or in blocks, ranks bound two to a core, uneven nodes, random
// localities. The placement is always a permutation, never costs more than the identity, keeps
// the identity where nothing differs, and puts each node's processes into one compact block
// where the identity strings them along rows or columns.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>

#include "mpi/topo/grid_map.h"

using namespace plexus::mpi::topo;

namespace {

// Processes on nodes node_of(r), otherwise alike (one package, NUMA node, L3; each its own core).
std::vector<Locality> on_nodes(int n, int (*node_of)(int)) {
    std::vector<Locality> procs(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
        Locality &l = procs[static_cast<size_t>(r)];
        l.node = static_cast<uint32_t>(node_of(r));
        int first = r;  // lowest rank on the same node names the node's groups
        for (int q = 0; q < r; ++q)
            if (node_of(q) == node_of(r)) {
                first = q;
                break;
            }
        l.group[kPackage] = l.group[kNuma] = l.group[kL3] = first;
        l.group[kL2] = l.group[kCore] = r;
    }
    return procs;
}

bool is_permutation_of_first(const std::vector<int> &p) {
    std::vector<int> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); ++i)
        if (sorted[i] != static_cast<int>(i)) return false;
    return true;
}

std::vector<int> identity(size_t n) {
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), 0);
    return v;
}

// The nodes of the processes at grid ranks [first, first + count).
std::set<uint32_t> nodes_at(const std::vector<Locality> &procs, const std::vector<int> &placement, int first,
                            int count) {
    std::set<uint32_t> s;
    for (int r = first; r < first + count; ++r) s.insert(procs[static_cast<size_t>(placement[static_cast<size_t>(r)])].node);
    return s;
}

}  // namespace

TEST(MpiGridMap, AllAlikeKeepsTheIdentity) {
    const auto procs = on_nodes(12, [](int) { return 0; });
    for (const std::vector<int> &dims : {std::vector<int>{12}, {4, 3}, {3, 2, 2}, {2, 3}})
        for (int periodic = 0; periodic <= 1; ++periodic)
            EXPECT_EQ(grid_map(dims, std::vector<int>(dims.size(), periodic), procs), identity(static_cast<size_t>(
                          std::accumulate(dims.begin(), dims.end(), 1, std::multiplies<int>()))));
}

TEST(MpiGridMap, RoundRobinNodesBecomeBlocks) {
    // 8 ranks alternating between 2 nodes on a 4 x 2 grid: the identity puts one node in each
    // column (4 edges between nodes); two 2 x 2 blocks have 2.
    const auto procs = on_nodes(8, [](int r) { return r % 2; });
    const std::vector<int> dims{4, 2}, periods{0, 0};
    const std::vector<int> p = grid_map(dims, periods, procs);
    ASSERT_TRUE(is_permutation_of_first(p));
    EXPECT_LT(placement_cost(dims, periods, procs, p), placement_cost(dims, periods, procs, identity(8)));
    EXPECT_EQ(nodes_at(procs, p, 0, 4).size(), 1u);  // rows 0-1: one node
    EXPECT_EQ(nodes_at(procs, p, 4, 4).size(), 1u);  // rows 2-3: the other
}

TEST(MpiGridMap, NodeRowsBecomeSquares) {
    // 16 ranks, 4 per node in blocks, on 4 x 4 (not periodic): rows cut 12 edges, 2 x 2 squares 8.
    const auto procs = on_nodes(16, [](int r) { return r / 4; });
    const std::vector<int> dims{4, 4}, periods{0, 0};
    const std::vector<int> p = grid_map(dims, periods, procs);
    ASSERT_TRUE(is_permutation_of_first(p));
    EXPECT_EQ(placement_cost(dims, periods, procs, identity(16)), 12 * 10 + 12 * 2);
    EXPECT_EQ(placement_cost(dims, periods, procs, p), 8 * 10 + 16 * 2);
    for (int top = 0; top < 4; top += 2)  // each 2 x 2 quadrant holds one node
        for (int left = 0; left < 4; left += 2) {
            std::set<uint32_t> s;
            for (int r : {top * 4 + left, top * 4 + left + 1, (top + 1) * 4 + left, (top + 1) * 4 + left + 1})
                s.insert(procs[static_cast<size_t>(p[static_cast<size_t>(r)])].node);
            EXPECT_EQ(s.size(), 1u) << "quadrant at row " << top << ", column " << left;
        }
}

TEST(MpiGridMap, CoreSharingPairsBecomeNeighbours) {
    // plexrun --bind-to core with 8 ranks on 4 cores: ranks r and r + 4 share core r % 4. On a 4 x 2
    // grid the identity makes no core pair neighbours; the placement makes all four.
    std::vector<Locality> procs(8);
    for (int r = 0; r < 8; ++r) {
        Locality &l = procs[static_cast<size_t>(r)];
        l.group[kPackage] = l.group[kNuma] = l.group[kL3] = 0;
        l.group[kL2] = l.group[kCore] = r % 4;
    }
    const std::vector<int> dims{4, 2}, periods{1, 0};
    const std::vector<int> p = grid_map(dims, periods, procs);
    ASSERT_TRUE(is_permutation_of_first(p));
    EXPECT_LT(placement_cost(dims, periods, procs, p), placement_cost(dims, periods, procs, identity(8)));
    int pairs = 0;
    for (int row = 0; row < 4; ++row)
        pairs += procs[static_cast<size_t>(p[static_cast<size_t>(2 * row)])].group[kCore] ==
                 procs[static_cast<size_t>(p[static_cast<size_t>(2 * row + 1)])].group[kCore];
    EXPECT_EQ(pairs, 4);
}

TEST(MpiGridMap, SmallerGridUsesTheFirstProcesses) {
    const auto procs = on_nodes(10, [](int r) { return r % 2; });
    const std::vector<int> dims{3, 2}, periods{0, 1};
    const std::vector<int> p = grid_map(dims, periods, procs);
    ASSERT_EQ(p.size(), 6u);
    EXPECT_TRUE(is_permutation_of_first(p));
}

TEST(MpiGridMap, RandomMachinesNeverCostMore) {
    std::mt19937 rng(17);
    for (int round = 0; round < 400; ++round) {
        const int ndims = 1 + round % 3;
        std::vector<int> dims, periods;
        int n = 1;
        for (int d = 0; d < ndims; ++d) {
            dims.push_back(std::uniform_int_distribution<int>(1, 4)(rng));
            periods.push_back(std::uniform_int_distribution<int>(0, 1)(rng));
            n *= dims.back();
        }
        std::vector<Locality> procs(static_cast<size_t>(n + round % 3));
        for (size_t r = 0; r < procs.size(); ++r) {
            procs[r].node = static_cast<uint32_t>(std::uniform_int_distribution<int>(0, 2)(rng));
            // Groups named by small numbers per node keep the equivalence honest enough here.
            for (int level = 0; level < kLevels; ++level)
                procs[r].group[level] = std::uniform_int_distribution<int>(0, level + 1)(rng);
        }
        const std::vector<int> p = grid_map(dims, periods, procs);
        ASSERT_EQ(static_cast<int>(p.size()), n);
        ASSERT_TRUE(is_permutation_of_first(p));
        EXPECT_LE(placement_cost(dims, periods, procs, p), placement_cost(dims, periods, procs, identity(p.size())));
    }
}
