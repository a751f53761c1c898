// Unit tests of the group operations (comm/group_ops) against a naive model: random groups of
// proc ids, every constructor, translate and compare, and the argument errors with their classes
// and messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "mpi/comm/group.h"
#include "mpi/comm/group_ops.h"

using namespace plexus::mpi;

namespace {

bool contains(const ProcList &g, uint32_t p) { return std::find(g.begin(), g.end(), p) != g.end(); }

// A random group: distinct proc ids from 0..universe-1 in random order.
ProcList random_group(std::mt19937 &rng, uint32_t universe) {
    ProcList all(universe);
    for (uint32_t i = 0; i < universe; ++i) all[i] = i;
    std::shuffle(all.begin(), all.end(), rng);
    all.resize(std::uniform_int_distribution<uint32_t>(0, universe)(rng));
    return all;
}

// n distinct ranks of a group of the given size, in random order.
std::vector<int> random_ranks(std::mt19937 &rng, int size) {
    std::vector<int> r(size);
    for (int i = 0; i < size; ++i) r[i] = i;
    std::shuffle(r.begin(), r.end(), rng);
    r.resize(size ? std::uniform_int_distribution<int>(0, size)(rng) : 0);
    return r;
}

}  // namespace

TEST(MpiGroupOps, SetOperationsMatchTheModel) {
    std::mt19937 rng(42);
    for (int round = 0; round < 500; ++round) {
        const ProcList a = random_group(rng, 12), b = random_group(rng, 12);
        ProcList uni = a, inter, diff;
        for (uint32_t p : b)
            if (!contains(a, p)) uni.push_back(p);
        for (uint32_t p : a) (contains(b, p) ? inter : diff).push_back(p);
        EXPECT_EQ(group_union(a, b), uni);
        EXPECT_EQ(group_intersection(a, b), inter);
        EXPECT_EQ(group_difference(a, b), diff);
    }
}

TEST(MpiGroupOps, InclAndExclMatchTheModel) {
    std::mt19937 rng(7);
    for (int round = 0; round < 500; ++round) {
        const ProcList g = random_group(rng, 10);
        const std::vector<int> ranks = random_ranks(rng, static_cast<int>(g.size()));
        ProcList incl, excl;
        for (int r : ranks) incl.push_back(g[r]);
        for (size_t r = 0; r < g.size(); ++r)
            if (std::find(ranks.begin(), ranks.end(), static_cast<int>(r)) == ranks.end()) excl.push_back(g[r]);
        const int n = static_cast<int>(ranks.size());
        GroupOpResult ri = group_incl(g, n, ranks.data()), re = group_excl(g, n, ranks.data());
        ASSERT_TRUE(ri) << ri.message;
        ASSERT_TRUE(re) << re.message;
        EXPECT_EQ(ri.procs, incl);
        EXPECT_EQ(re.procs, excl);
    }
}

TEST(MpiGroupOps, RangesMatchTheModel) {
    std::mt19937 rng(3);
    for (int round = 0; round < 500; ++round) {
        const ProcList g = random_group(rng, 16);
        if (g.empty()) continue;
        const int size = static_cast<int>(g.size());
        // One or two triplets that do not overlap: a forward one in the lower half, a backward
        // one in the upper half.
        std::vector<std::array<int, 3>> ranges;
        const int half = size / 2;
        std::uniform_int_distribution<int> stride(1, 3);
        if (half > 0) {
            const int first = std::uniform_int_distribution<int>(0, half - 1)(rng);
            const int last = std::uniform_int_distribution<int>(first, half - 1)(rng);
            ranges.push_back({first, last, stride(rng)});
        }
        const int first = std::uniform_int_distribution<int>(half, size - 1)(rng);
        const int last = std::uniform_int_distribution<int>(half, first)(rng);
        ranges.push_back({first, last, -stride(rng)});
        std::vector<int> model;
        for (const auto &t : ranges)
            for (int r = t[0]; t[2] > 0 ? r <= t[1] : r >= t[1]; r += t[2]) model.push_back(r);
        ProcList incl, excl;
        for (int r : model) incl.push_back(g[r]);
        for (int r = 0; r < size; ++r)
            if (std::find(model.begin(), model.end(), r) == model.end()) excl.push_back(g[r]);
        int raw[2][3];
        for (size_t i = 0; i < ranges.size(); ++i)
            for (int k = 0; k < 3; ++k) raw[i][k] = ranges[i][k];
        const int n = static_cast<int>(ranges.size());
        GroupOpResult ri = group_range_incl(g, n, raw), re = group_range_excl(g, n, raw);
        ASSERT_TRUE(ri) << ri.message;
        ASSERT_TRUE(re) << re.message;
        EXPECT_EQ(ri.procs, incl);
        EXPECT_EQ(re.procs, excl);
    }
}

TEST(MpiGroupOps, TranslateAndCompareMatchTheModel) {
    std::mt19937 rng(11);
    for (int round = 0; round < 500; ++round) {
        const ProcList a = random_group(rng, 9), b = random_group(rng, 9);
        std::vector<int> ranks;
        for (int r = 0; r < static_cast<int>(a.size()); ++r) ranks.push_back(r);
        ranks.push_back(MPI_PROC_NULL);
        std::vector<int> out(ranks.size(), -99);
        ASSERT_TRUE(group_translate(a, static_cast<int>(ranks.size()), ranks.data(), b, out.data()));
        for (size_t i = 0; i + 1 < ranks.size(); ++i) {
            const auto it = std::find(b.begin(), b.end(), a[ranks[i]]);
            EXPECT_EQ(out[i], it == b.end() ? MPI_UNDEFINED : static_cast<int>(it - b.begin()));
        }
        EXPECT_EQ(out.back(), MPI_PROC_NULL);

        ProcList sa = a, sb = b;
        std::sort(sa.begin(), sa.end());
        std::sort(sb.begin(), sb.end());
        const int model = a == b ? MPI_IDENT : sa == sb ? MPI_SIMILAR : MPI_UNEQUAL;
        EXPECT_EQ(group_compare(a, b), model);
        ProcList shuffled = a;
        std::shuffle(shuffled.begin(), shuffled.end(), rng);
        EXPECT_EQ(group_compare(a, shuffled), shuffled == a ? MPI_IDENT : MPI_SIMILAR);
    }
}

TEST(MpiGroupOps, BadArgumentsGiveTheirClassAndSayWhat) {
    const ProcList g = {5, 3, 9, 1};
    const int dup[] = {1, 2, 1};
    GroupOpResult r = group_incl(g, 3, dup);
    EXPECT_EQ(r.error_class, MPI_ERR_RANK);
    EXPECT_NE(r.message.find("rank 1 appears twice"), std::string::npos) << r.message;
    const int out_of_range[] = {0, 4};
    r = group_excl(g, 2, out_of_range);
    EXPECT_EQ(r.error_class, MPI_ERR_RANK);
    EXPECT_NE(r.message.find("ranks[1] = 4"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("0..3"), std::string::npos) << r.message;
    r = group_incl(g, 5, out_of_range);
    EXPECT_EQ(r.error_class, MPI_ERR_ARG);
    EXPECT_NE(r.message.find("invalid n 5"), std::string::npos) << r.message;
    r = group_incl(g, -1, out_of_range);
    EXPECT_EQ(r.error_class, MPI_ERR_ARG);
    r = group_incl(g, 2, nullptr);
    EXPECT_EQ(r.error_class, MPI_ERR_ARG);

    const int zero_stride[1][3] = {{0, 3, 0}};
    r = group_range_incl(g, 1, zero_stride);
    EXPECT_EQ(r.error_class, MPI_ERR_ARG);
    EXPECT_NE(r.message.find("stride must not be 0"), std::string::npos) << r.message;
    const int wrong_way[1][3] = {{3, 0, 1}};
    r = group_range_excl(g, 1, wrong_way);
    EXPECT_EQ(r.error_class, MPI_ERR_ARG);
    EXPECT_NE(r.message.find("ranges[0] = (3, 0, 1)"), std::string::npos) << r.message;
    const int beyond[1][3] = {{0, 4, 1}};
    r = group_range_incl(g, 1, beyond);
    EXPECT_EQ(r.error_class, MPI_ERR_RANK);
    EXPECT_NE(r.message.find("last rank 4"), std::string::npos) << r.message;
    const int overlap[2][3] = {{0, 2, 1}, {2, 3, 1}};
    r = group_range_incl(g, 2, overlap);
    EXPECT_EQ(r.error_class, MPI_ERR_RANK);
    EXPECT_NE(r.message.find("rank 2 is already"), std::string::npos) << r.message;

    const int bad_translate[] = {0, 7};
    int out[2];
    r = group_translate(g, 2, bad_translate, g, out);
    EXPECT_EQ(r.error_class, MPI_ERR_RANK);
    EXPECT_NE(r.message.find("ranks1[1] = 7"), std::string::npos) << r.message;
}

TEST(MpiGroup, ObjectsKnowTheirRankAndEmptyIsPredefined) {
    Group *g = make_group({4, 2, 7}, 2);
    EXPECT_TRUE(group_valid(g));
    EXPECT_EQ(g->rank, 1);
    EXPECT_EQ(g->size(), 3);
    group_retain(g);
    group_release(g);
    EXPECT_TRUE(group_valid(g)) << "one reference is left";
    group_release(g);

    Group *outside = make_group({4, 7}, 2);
    EXPECT_EQ(outside->rank, MPI_UNDEFINED);
    group_release(outside);

    Group *forgotten = make_group({1, 2}, 2);
    EXPECT_EQ(live_groups(), 1u);
    release_all_groups();
    EXPECT_EQ(live_groups(), 0u) << "MPI_Finalize deletes the groups the program did not free";
    (void)forgotten;

    Group *empty = make_group({}, 2);
    EXPECT_EQ(empty, MPI_GROUP_EMPTY);
    group_release(empty);
    EXPECT_TRUE(group_valid(MPI_GROUP_EMPTY)) << "the predefined empty group is never deleted";
    EXPECT_EQ(MPI_GROUP_EMPTY->size(), 0);
    EXPECT_EQ(MPI_GROUP_EMPTY->rank, MPI_UNDEFINED);
}
