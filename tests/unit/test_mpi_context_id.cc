// Unit tests of the context-id bitmap and of the agreement loop: lowest free first, reuse after
// release, thousands live, growth; and agreement among simulated processes (threads with their
// own bitmaps, joined by an in-memory allreduce) against a naive search.
#include <gtest/gtest.h>

#include <barrier>
#include <random>
#include <thread>

#include "mpi.h"
#include "mpi/comm/context_agreement.h"
#include "mpi/comm/context_id.h"

using namespace plexus::mpi;

TEST(MpiContextId, PredefinedIdsAreTakenAndLowestFreeComesFirst) {
    ContextIdAllocator ids;
    EXPECT_TRUE(ids.in_use(0));
    EXPECT_TRUE(ids.in_use(1));
    EXPECT_EQ(ids.live(), 2u);
    EXPECT_EQ(ids.take_lowest(), 2u);
    EXPECT_EQ(ids.take_lowest(), 3u);
    EXPECT_EQ(ids.take_lowest(), 4u);
    EXPECT_TRUE(ids.release(3));
    EXPECT_FALSE(ids.release(3)) << "released twice";
    EXPECT_EQ(ids.lowest_free(), 3u);
    EXPECT_EQ(ids.lowest_free(4), 5u);
    EXPECT_EQ(ids.take_lowest(), 3u) << "a released id is taken again, lowest first";
    EXPECT_FALSE(ids.reserve(3)) << "reserving an id in use is refused";
}

TEST(MpiContextId, ThousandsLiveAndTheBitmapGrowsOnlyAsNeeded) {
    ContextIdAllocator ids;
    std::vector<uint32_t> taken;
    for (int i = 0; i < 5000; ++i) taken.push_back(ids.take_lowest());
    EXPECT_EQ(ids.live(), 5002u);
    for (size_t i = 0; i < taken.size(); ++i) ASSERT_EQ(taken[i], i + 2);
    const size_t capacity = ids.capacity();
    EXPECT_GE(capacity, 5002u);
    EXPECT_LE(capacity, 2 * 8192u);
    // Free every other one; the lowest come back first.
    for (size_t i = 0; i < taken.size(); i += 2) ids.release(taken[i]);
    EXPECT_EQ(ids.take_lowest(), 2u);
    EXPECT_EQ(ids.take_lowest(), 4u);
    // 10,000 take/release cycles reuse the same id and do not grow anything.
    ContextIdAllocator cycle;
    for (int i = 0; i < 10000; ++i) {
        const uint32_t id = cycle.take_lowest();
        ASSERT_EQ(id, 2u);
        cycle.release(id);
    }
    EXPECT_EQ(cycle.live(), 2u);
    EXPECT_EQ(cycle.capacity(), 64u);
}

TEST(MpiContextId, FreeWindowAndLowestFreeAcrossWords) {
    ContextIdAllocator ids;
    for (uint32_t i = 2; i < 130; ++i) ids.reserve(i);
    EXPECT_EQ(ids.lowest_free(), 130u);
    ids.release(70);
    EXPECT_EQ(ids.lowest_free(), 70u);
    EXPECT_EQ(ids.lowest_free(71), 130u);
    uint64_t w[2];
    ids.free_window(64, 2, w);
    EXPECT_EQ(w[0], uint64_t{1} << 6) << "only 70 is free in 64..127";
    EXPECT_EQ(w[1], ~uint64_t{0} << 2) << "128 and 129 are taken, the rest free";
    ids.reset();
    EXPECT_EQ(ids.live(), 2u);
    EXPECT_EQ(ids.lowest_free(), 2u);
}

namespace {

// p simulated processes in threads: allreduce = everybody writes, everybody reduces all slots.
class ThreadChannel final : public AgreementChannel {
public:
    struct Shared {
        explicit Shared(int p) : sync(p), slots(p) {}
        std::barrier<> sync;
        std::vector<std::vector<uint64_t>> slots;
        int rounds = 0;
    };
    ThreadChannel(Shared &shared, int me) : shared_(shared), me_(me) {}
    int allreduce(uint64_t *values, size_t n, ReduceOp op) override {
        shared_.slots[me_].assign(values, values + n);
        shared_.sync.arrive_and_wait();
        for (size_t i = 0; i < n; ++i) {
            uint64_t acc = shared_.slots[0][i];
            for (const auto &s : shared_.slots) acc = op == ReduceOp::Max ? std::max(acc, s[i]) : (acc & s[i]);
            values[i] = acc;
        }
        if (me_ == 0) ++shared_.rounds;
        shared_.sync.arrive_and_wait();
        return MPI_SUCCESS;
    }

private:
    Shared &shared_;
    int me_;
};

// The lowest `count` ids >= 2 free in every bitmap.
std::vector<uint32_t> naive_common(const std::vector<ContextIdAllocator> &all, size_t count) {
    std::vector<uint32_t> out;
    for (uint32_t id = ContextIdAllocator::kFirstFree; out.size() < count; ++id) {
        bool free = true;
        for (const auto &a : all) free = free && !a.in_use(id);
        if (free) out.push_back(id);
    }
    return out;
}

}  // namespace

TEST(MpiContextAgreement, SimulatedProcessesAgreeOnTheLowestCommonFreeIds) {
    std::mt19937 rng(5);
    for (int round = 0; round < 40; ++round) {
        const int p = 1 + round % 6;
        const size_t count = 1 + round % 2;
        std::vector<ContextIdAllocator> ids(p);
        // Each process has its own communicators: dense low ids, and some far away.
        for (auto &a : ids) {
            const int dense = std::uniform_int_distribution<int>(0, 300)(rng);
            for (int i = 0; i < dense; ++i) a.take_lowest();
            for (int i = 0; i < 50; ++i) a.reserve(std::uniform_int_distribution<uint32_t>(2, 1200)(rng));
        }
        const std::vector<uint32_t> expected = naive_common(ids, count);
        ThreadChannel::Shared shared(p);
        std::vector<std::vector<uint32_t>> got(p);
        std::vector<std::thread> threads;
        for (int me = 0; me < p; ++me)
            threads.emplace_back([&, me] {
                ThreadChannel ch(shared, me);
                EXPECT_EQ(agree_context_ids(ids[me], ch, count, &got[me]), MPI_SUCCESS);
            });
        for (auto &t : threads) t.join();
        for (int me = 0; me < p; ++me) {
            EXPECT_EQ(got[me], expected) << "process " << me << " of " << p;
            for (uint32_t id : expected) EXPECT_TRUE(ids[me].in_use(id)) << "reserved after agreeing";
        }
    }
}

TEST(MpiContextAgreement, OneWindowSufficesWhenNothingIsInTheWay) {
    ThreadChannel::Shared shared(1);
    ThreadChannel ch(shared, 0);
    ContextIdAllocator ids;
    std::vector<uint32_t> got;
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(agree_context_ids(ids, ch, 2, &got), MPI_SUCCESS);
    EXPECT_EQ(ids.live(), 2002u);
    EXPECT_EQ(shared.rounds, 1000) << "one allreduce per agreement when nothing is in the way";
}
