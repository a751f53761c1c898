// Unit tests of what communicator construction computes without processes: MPI_Comm_split's
// ordering and MPI_Comm_compare's verdicts.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "mpi/comm/comm_compare.h"
#include "mpi/comm/split_order.h"

using namespace plexus::mpi;

TEST(MpiCommSplit, MembersByKeyThenOldRank) {
    const std::vector<ColorKey> all = {{0, 5}, {1, 0}, {0, 5}, {0, -3}, {MPI_UNDEFINED, 0}, {1, 0}, {0, 9}};
    EXPECT_EQ(split_members(all, 0), (std::vector<int>{3, 0, 2, 6}));
    EXPECT_EQ(split_members(all, 1), (std::vector<int>{1, 5}));
    EXPECT_TRUE(split_members(all, MPI_UNDEFINED).empty());
    EXPECT_TRUE(split_members(all, 7).empty());
}

TEST(MpiCommSplit, RandomColorsMatchTheModel) {
    std::mt19937 rng(9);
    for (int round = 0; round < 300; ++round) {
        std::vector<ColorKey> all(1 + round % 17);
        for (auto &ck : all) ck = {std::uniform_int_distribution<int>(0, 3)(rng), std::uniform_int_distribution<int>(-2, 2)(rng)};
        for (int color = 0; color < 4; ++color) {
            std::vector<std::pair<int, int>> model;  // (key, old rank)
            for (int r = 0; r < static_cast<int>(all.size()); ++r)
                if (all[r].color == color) model.push_back({all[r].key, r});
            std::sort(model.begin(), model.end());
            std::vector<int> expected;
            for (auto &[k, r] : model) expected.push_back(r);
            EXPECT_EQ(split_members(all, color), expected);
        }
    }
}

namespace {

Comm intra(std::vector<uint32_t> procs) {
    Comm c;
    c.local_procs = c.remote_procs = std::move(procs);
    return c;
}

Comm inter(std::vector<uint32_t> local, std::vector<uint32_t> remote) {
    Comm c;
    c.local_procs = std::move(local);
    c.remote_procs = std::move(remote);
    c.inter = true;
    return c;
}

}  // namespace

TEST(MpiCommCompare, IntraAndInter) {
    Comm a = intra({0, 1, 2}), b = intra({0, 1, 2}), c = intra({2, 0, 1}), d = intra({0, 1});
    EXPECT_EQ(comm_compare(&a, &a), MPI_IDENT);
    EXPECT_EQ(comm_compare(&a, &b), MPI_CONGRUENT);
    EXPECT_EQ(comm_compare(&a, &c), MPI_SIMILAR);
    EXPECT_EQ(comm_compare(&a, &d), MPI_UNEQUAL);

    Comm x = inter({0, 1}, {2, 3, 4}), y = inter({0, 1}, {2, 3, 4}), z = inter({1, 0}, {2, 3, 4}),
         w = inter({0, 1}, {2, 3}), v = inter({0, 1}, {4, 3, 2});
    EXPECT_EQ(comm_compare(&x, &x), MPI_IDENT);
    EXPECT_EQ(comm_compare(&x, &y), MPI_CONGRUENT);
    EXPECT_EQ(comm_compare(&x, &z), MPI_SIMILAR);
    EXPECT_EQ(comm_compare(&x, &v), MPI_SIMILAR);
    EXPECT_EQ(comm_compare(&x, &w), MPI_UNEQUAL);
    Comm flat = intra({0, 1});
    EXPECT_EQ(comm_compare(&x, &flat), MPI_UNEQUAL) << "an inter- against an intra-communicator";
}
