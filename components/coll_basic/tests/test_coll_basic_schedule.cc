// Unit tests of coll_basic's schedule arithmetic (basic_schedule.h): folding onto a power of two,
// block partitions, binomial trees and Bruck's slot rotation, checked against their definitions.
#include <gtest/gtest.h>

#include <numeric>
#include <set>
#include <vector>

#include "components/coll_basic/basic_schedule.h"

using namespace plexus::coll_basic;

TEST(CollBasicSchedule, PowersOfTwo) {
    EXPECT_EQ(pof2_floor(1), 1);
    EXPECT_EQ(pof2_floor(7), 4);
    EXPECT_EQ(pof2_floor(8), 8);
    EXPECT_EQ(ceil_log2(1), 0);
    EXPECT_EQ(ceil_log2(5), 3);
    EXPECT_EQ(ceil_log2(8), 3);
}

TEST(CollBasicSchedule, FoldIsAnOrderKeepingBijectionOntoThePowerOfTwo) {
    for (int n = 1; n <= 40; ++n) {
        const Fold f(n);
        ASSERT_EQ(f.pof2 + f.rem, n);
        int sitting_out = 0, last = -1;
        for (int r = 0; r < n; ++r) {
            const int nr = f.new_rank(r);
            if (nr < 0) {
                ++sitting_out;
                EXPECT_TRUE(r < 2 * f.rem && r % 2 == 0) << "n=" << n << " r=" << r;
                continue;
            }
            EXPECT_EQ(nr, last + 1) << "n=" << n << " r=" << r;  // consecutive, in rank order
            EXPECT_EQ(f.old_rank(nr), r);
            last = nr;
        }
        EXPECT_EQ(sitting_out, f.rem);
        EXPECT_EQ(last, f.pof2 - 1);
    }
}

TEST(CollBasicSchedule, EvenPartitionCoversTheVectorInOrder) {
    for (int count : {0, 1, 7, 64, 1001})
        for (int n = 1; n <= 16; ++n) {
            const Partition p = even_partition(count, n);
            ASSERT_EQ(p.blocks(), n);
            int at = 0;
            for (int i = 0; i < n; ++i) {
                EXPECT_EQ(p.disp[i], at);
                EXPECT_TRUE(p.count[i] == count / n || p.count[i] == count / n + 1);
                if (i > 0) {
                    EXPECT_LE(p.count[i], p.count[i - 1]);  // the larger blocks first
                }
                at += p.count[i];
            }
            EXPECT_EQ(at, count);
            EXPECT_EQ(p.span_count(0, n), count);
            EXPECT_EQ(p.span_count(n / 2, n / 2), 0);
        }
}

TEST(CollBasicSchedule, FoldedPartitionJoinsTheBlocksOfFoldedPairs) {
    for (int n = 1; n <= 13; ++n) {
        std::vector<int> counts(n);
        for (int r = 0; r < n; ++r) counts[r] = (r * 5) % 4;  // some empty blocks
        const Fold f(n);
        const Partition p = folded_partition(f, counts.data());
        ASSERT_EQ(p.blocks(), f.pof2);
        int at = 0;
        for (int r = 0; r < n; ++r) {
            const int nr = f.new_rank(r);
            if (nr < 0) {  // the even rank's block starts its partner's
                EXPECT_EQ(p.disp[f.new_rank(r + 1)], at);
            } else if (r >= 2 * f.rem) {
                EXPECT_EQ(p.disp[nr], at);
                EXPECT_EQ(p.count[nr], counts[r]);
            } else {
                EXPECT_EQ(p.count[nr], counts[r - 1] + counts[r]);
            }
            at += counts[r];
        }
        EXPECT_EQ(p.span_count(0, f.pof2), at);
    }
}

TEST(CollBasicSchedule, BinomialTreeReachesEveryRankOnceWithConsecutiveSubtrees) {
    for (int n = 1; n <= 33; ++n) {
        std::vector<int> covered(n, 0);
        for (int r = 1; r < n; ++r) {
            const int parent = binomial_parent(r);
            ASSERT_LT(parent, r);
            // r is inside its parent's subtree and its own subtree is [r, r + size).
            EXPECT_LE(r + binomial_subtree_size(r, n), parent + binomial_subtree_size(parent, n));
            for (int k = r; k < r + binomial_subtree_size(r, n); ++k) ++covered[k];
        }
        EXPECT_EQ(binomial_subtree_size(0, n), n);
        // Every rank > 0 lies in the subtrees of exactly as many ranks as it has ancestors other than 0.
        for (int k = 1; k < n; ++k) EXPECT_EQ(covered[k], __builtin_popcount(k)) << "n=" << n << " k=" << k;
    }
}

TEST(CollBasicSchedule, BruckRoundsDeliverEveryBlockToItsDestination) {
    for (int n = 1; n <= 20; ++n) {
        // Simulate: holder[r][slot] = (source, destination) of the block at that slot.
        std::vector<std::vector<std::pair<int, int>>> at(n, std::vector<std::pair<int, int>>(n));
        for (int r = 0; r < n; ++r)
            for (int i = 0; i < n; ++i) at[r][i] = {r, bruck_send_slot_peer(r, i, n)};
        for (int bit = 0; (1 << bit) < n; ++bit) {
            auto next = at;
            for (int r = 0; r < n; ++r)
                for (int slot : bruck_round_slots(n, bit)) next[(r + (1 << bit)) % n][slot] = at[r][slot];
            at = next;
        }
        for (int r = 0; r < n; ++r)
            for (int i = 0; i < n; ++i) {
                EXPECT_EQ(at[r][i].second, r) << "n=" << n;
                EXPECT_EQ(at[r][i].first, bruck_recv_slot_source(r, i, n)) << "n=" << n;
            }
    }
}

TEST(CollBasicSchedule, ChainsReachEveryRankOnceAndStayShort) {
    for (int fanout = 1; fanout <= 4; ++fanout)
        for (int n = 1; n <= 20; ++n) {
            const int len = chain_length(n, fanout);
            std::vector<int> reached(n, 0);
            int heads = 0;
            for (int r = 1; r < n; ++r) {
                const int parent = chain_parent(r, n, fanout);
                ASSERT_GE(parent, 0) << n << " " << r;
                ASSERT_LT(parent, r) << n << " " << r;  // parents come first: no cycles
                if (parent == 0) ++heads;
                else EXPECT_EQ(chain_child(parent, n, fanout), r) << n << " " << r;  // the parent sends to it
                int depth = 1;
                for (int p = parent; p != 0; p = chain_parent(p, n, fanout)) ++depth;
                EXPECT_LE(depth, len) << n << " " << r;
                ++reached[r];
            }
            EXPECT_EQ(chain_parent(0, n, fanout), -1);
            EXPECT_LE(heads, fanout) << n;
            for (int r = 1; r < n; ++r) {
                EXPECT_EQ(reached[r], 1) << n << " " << r;
                const int child = chain_child(r, n, fanout);
                if (child >= 0) {
                    EXPECT_EQ(chain_parent(child, n, fanout), r) << n << " " << r;
                }
            }
        }
}
