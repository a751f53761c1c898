// The node group's tree and order (shm_tree.h) over fake topologies of 1-16 processes, and the
// node groups made from the setup's records (shm_setup.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <plexus/topology.h>

#include "components/coll_shm_inter/shm_setup.h"
#include "components/coll_shm_inter/shm_tree.h"

using namespace plexus::coll_shm_inter;

namespace {

constexpr unsigned kMachine =
    PLEXUS_TOPO_SHARE_MACHINE | PLEXUS_TOPO_SHARE_PACKAGE | PLEXUS_TOPO_SHARE_NUMA;

// Processes whose group[i] is equal share an L2 (and everything above); the rest only the machine.
std::vector<unsigned> relation_of(const std::vector<int> &group) {
    const int n = static_cast<int>(group.size());
    std::vector<unsigned> rel(static_cast<size_t>(n) * n, kMachine);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            if (i != j && group[static_cast<size_t>(i)] == group[static_cast<size_t>(j)])
                rel[static_cast<size_t>(i) * n + j] |= PLEXUS_TOPO_SHARE_L2 | PLEXUS_TOPO_SHARE_L3;
    return rel;
}

// Every process is in the tree once, reachable from the root, parents and children agree.
void expect_valid_tree(const Tree &t, int n) {
    ASSERT_EQ(static_cast<int>(t.parent.size()), n);
    int roots = 0;
    for (int r = 0; r < n; ++r) {
        const int p = t.parent[static_cast<size_t>(r)];
        if (p < 0) {
            ++roots;
            EXPECT_EQ(r, t.root);
            continue;
        }
        const auto &kids = t.children[static_cast<size_t>(p)];
        EXPECT_EQ(std::count(kids.begin(), kids.end(), r), 1) << r << " under " << p;
        // Walking up ends at the root within n steps (no cycle).
        int up = r, steps = 0;
        while (up != t.root && steps <= n) up = t.parent[static_cast<size_t>(up)], ++steps;
        EXPECT_EQ(up, t.root) << "process " << r << " of " << n;
    }
    EXPECT_EQ(roots, n > 0 ? 1 : 0);
}

int depth(const Tree &t, int r) {
    int d = 0;
    while (t.parent[static_cast<size_t>(r)] >= 0) r = t.parent[static_cast<size_t>(r)], ++d;
    return d;
}

}  // namespace

TEST(ShmTree, ValidBinomialTreesFrom1To16Processes) {
    for (int n = 1; n <= 16; ++n) {
        // Three fake machines: flat, pairs interleaved (0 with n/2, ...), groups of four.
        std::vector<int> flat(static_cast<size_t>(n), 0), pairs(static_cast<size_t>(n)),
            quads(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) {
            pairs[static_cast<size_t>(i)] = i % std::max(1, n / 2);
            quads[static_cast<size_t>(i)] = i / 4;
        }
        for (const auto &g : {flat, pairs, quads}) {
            const std::vector<int> order = topology_order(n, relation_of(g));
            std::vector<int> sorted = order;
            std::sort(sorted.begin(), sorted.end());
            for (int i = 0; i < n; ++i)
                ASSERT_EQ(sorted[static_cast<size_t>(i)], i) << "order is a permutation";
            EXPECT_EQ(order.empty() ? 0 : order[0], 0);
            const Tree t = binomial_tree(order);
            expect_valid_tree(t, n);
            int deepest = 0;
            for (int r = 0; r < n; ++r) deepest = std::max(deepest, depth(t, r));
            int log2n = 0;
            while ((1 << log2n) < n) ++log2n;
            EXPECT_LE(deepest, log2n) << n << " processes";
        }
    }
}

TEST(ShmTree, ProcessesSharingACacheAreNeighboursInTheOrder) {
    // 8 processes, L2 pairs (0,4), (1,5), (2,6), (3,7): the order keeps each pair together, so
    // the binomial tree's first level (position 2k+1 under 2k) joins the two of a pair.
    std::vector<int> g = {0, 1, 2, 3, 0, 1, 2, 3};
    const std::vector<int> order = topology_order(8, relation_of(g));
    EXPECT_EQ(order, (std::vector<int>{0, 4, 1, 5, 2, 6, 3, 7}));
    const Tree t = binomial_tree(order);
    for (int r = 0; r < 8; ++r) {
        if (t.children[static_cast<size_t>(r)].empty()) continue;
        EXPECT_EQ(g[static_cast<size_t>(t.children[static_cast<size_t>(r)][0])],
                  g[static_cast<size_t>(r)])
            << "the first child of " << r << " shares its cache";
    }
    // Groups of four sharing an L3 stay contiguous too.
    std::vector<int> q = {0, 1, 0, 1, 0, 1, 0, 1};
    const std::vector<int> o2 = topology_order(8, relation_of(q));
    for (int i = 0; i < 4; ++i) EXPECT_EQ(q[static_cast<size_t>(o2[static_cast<size_t>(i)])], 0);
    for (int i = 4; i < 8; ++i) EXPECT_EQ(q[static_cast<size_t>(o2[static_cast<size_t>(i)])], 1);
}

TEST(ShmTree, CloserLevelsScoreHigher) {
    EXPECT_GT(closeness(PLEXUS_TOPO_SHARE_CORE | kMachine),
              closeness(PLEXUS_TOPO_SHARE_L2 | kMachine));
    EXPECT_GT(closeness(PLEXUS_TOPO_SHARE_L2), closeness(PLEXUS_TOPO_SHARE_L3));
    EXPECT_GT(closeness(PLEXUS_TOPO_SHARE_L3), closeness(PLEXUS_TOPO_SHARE_NUMA));
    EXPECT_GT(closeness(PLEXUS_TOPO_SHARE_MACHINE), closeness(0));
}

TEST(ShmSetup, NodeGroupsFollowTheNodeKeysInRankOrder) {
    std::vector<Record> r(6);
    const uint64_t keys[] = {7, 9, 7, 9, 9, 3};
    for (int i = 0; i < 6; ++i) r[static_cast<size_t>(i)].node = keys[i];
    const auto groups = node_groups(r);
    ASSERT_EQ(groups.size(), 3u);
    EXPECT_EQ(groups[0], (std::vector<int>{0, 2}));
    EXPECT_EQ(groups[1], (std::vector<int>{1, 3, 4}));
    EXPECT_EQ(groups[2], (std::vector<int>{5}));
}

TEST(ShmSetup, FakeNodesSplitConsecutiveRanks) {
    EXPECT_EQ(node_key(0, 0), node_key(5, 0));
    EXPECT_EQ(node_key(0, 2), node_key(1, 2));
    EXPECT_NE(node_key(1, 2), node_key(2, 2));
    EXPECT_NE(node_key(0, 2), node_key(0, 0));
}
