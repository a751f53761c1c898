// Unit tests of coll_basic's intra-communicator algorithms over a fake MPI layer (coll_basic_fake.h:
// one thread per rank). Every algorithm, forced through its parameter, on 1..8 ranks, several
// counts (0, fewer items than ranks, uneven splits), datatypes with gaps and a true lower bound,
// in-place variants, a commutative sum and a non-commutative operation (affine maps) whose result
// depends on the operand order; each result checked item by item against a sequential computation.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "coll_basic_fake.h"
#include "components/coll_basic/basic_functions.h"
#include "components/coll_basic/basic_params.h"

using namespace plexus::coll_basic;
using coll_fake::a2a;
using coll_fake::Buf;
using coll_fake::H;
using coll_fake::input;
using coll_fake::kAffine;
using coll_fake::kInt;
using coll_fake::kPair;
using coll_fake::kPairGap;
using coll_fake::kReduceCases;
using coll_fake::kStrided;
using coll_fake::kSum;
using coll_fake::Op;
using coll_fake::OpH;
using coll_fake::reduced;
using coll_fake::Type;

namespace {

constexpr int kCounts[] = {0, 1, 3, 17, 200};

// The algorithm choices of a parameter (0 = auto) and the parameters that force each.
// kAutoOversubscribed: auto's choice on a node with more ranks than CPUs.
constexpr int kAutoOversubscribed = -1;
Params with(int Params::*field, int value) {
    Params p = params();
    p.*field = value == kAutoOversubscribed ? 0 : value;
    p.oversubscribed = value == kAutoOversubscribed;
    return p;
}

std::string where(int n, int count, const Type &t, int alg, bool in_place = false, int root = 0) {
    return "n=" + std::to_string(n) + " count=" + std::to_string(count) + " ints=" + std::to_string(t.ints) +
           " offset=" + std::to_string(t.offset) + " algorithm=" + std::to_string(alg) +
           (in_place ? " in place" : "") + " root=" + std::to_string(root);
}

}  // namespace

// Nobody leaves before everyone has entered, three barriers in a row, with one late process.
TEST(CollBasicIntra, Barrier) {
    for (int alg : std::initializer_list<int>{kBarrierAuto, kBarrierDissemination, kBarrierLinear,
                                              kAutoOversubscribed})
        for (int n = 1; n <= 8; ++n) {
            Params p = with(&Params::barrier_algorithm, alg);
            std::atomic<int> entered{0}, early{0};
            EXPECT_EQ(coll_fake::run(n, p,
                                     [&](int r, plexus_coll_module_t *m, plexus_coll_comm_t *c) {
                                         for (int round = 1; round <= 3; ++round) {
                                             if (r == round % n)
                                                 std::this_thread::sleep_for(std::chrono::milliseconds(2));
                                             ++entered;
                                             if (int e = intra_barrier(m, c)) return e;
                                             if (entered.load() < round * n) ++early;
                                         }
                                         return 0;
                                     }),
                      0)
                << "n=" << n << " algorithm=" << alg;
            EXPECT_EQ(early.load(), 0) << "n=" << n << " algorithm=" << alg;
        }
}

TEST(CollBasicIntra, Bcast) {
    for (int alg : std::initializer_list<int>{kBcastAuto, kBcastBinomial, kBcastScatterAllgather, kBcastLinear,
                                              kBcastPipeline, kAutoOversubscribed}) {
        Params p = with(&Params::bcast_algorithm, alg);
        p.bcast_large = 64;  // auto switches within the counts tested
        // oversubscribed, from 3 ranks: linear up to 15 bytes, pipeline to 255, linear again from
        // 256 (count 200); binomial from 16 bytes on 2 ranks
        p.bcast_linear_below = 16;
        p.bcast_pipeline_below = 256;
        p.bcast_segment = 12;  // segments of 3 ints: several, and the last one short
        for (int n = 1; n <= 8; ++n)
            for (int root : {0, n - 1, n / 2})
                for (int count : kCounts)
                    for (const Type *t : {&kInt, &kStrided, &kPairGap}) {
                        // The root describes the message as plain ints (count * ints of them), the
                        // others with t: only the type signatures match, as MPI allows.
                        std::atomic<int> wrong{0};  // every rank's thread adds to it
                        ASSERT_EQ(coll_fake::run(n, p,
                                                 [&](int r, plexus_coll_module_t *m, plexus_coll_comm_t *c) {
                                                     const Type *mine = r == root ? &kInt : t;
                                                     const int items = r == root ? count * t->ints : count;
                                                     Buf b(*mine, items);
                                                     if (r == root) b.fill(root, 0, items, false);
                                                     int rc = intra_bcast(m, b.data(), items, H(mine), root, c);
                                                     for (int i = 0; i < items; ++i)
                                                         for (int k = 0; k < mine->ints; ++k)
                                                             wrong += b.at(i)[k] != input(root, i * mine->ints + k, 0, false);
                                                     return rc;
                                                 }),
                                  0)
                            << where(n, count, *t, alg, false, root);
                        EXPECT_EQ(wrong, 0) << where(n, count, *t, alg, false, root);
                    }
    }
}

// The binomial reduce in segments of 8 bytes: every count of 2 ints or more is pipelined.
constexpr int kReduceSegmented = -2;

TEST(CollBasicIntra, ReduceKeepsOperandOrder) {
    for (int alg : std::initializer_list<int>{kReduceAuto, kReduceBinomial, kReduceScatterGather, kReduceLinear,
                                              kReduceDirect, kAutoOversubscribed, kReduceSegmented}) {
        Params p = with(&Params::reduce_algorithm, alg == kReduceSegmented ? kReduceBinomial : alg);
        if (alg == kReduceSegmented) p.reduce_segment = 8;
        p.reduce_large = 64;
        p.reduce_linear_below = 256;  // auto on an oversubscribed node: linear, then direct within the counts
        for (int n = 1; n <= 8; ++n)
            for (int root : {0, n - 1, n / 2})
                for (int count : kCounts)
                    for (const auto &rc : kReduceCases)
                        for (bool in_place : {false, true}) {
                            const Type &t = *rc.type;
                            std::atomic<int> wrong{0};  // every rank's thread adds to it
                            ASSERT_EQ(coll_fake::run(n, p,
                                                     [&](int r, plexus_coll_module_t *m, plexus_coll_comm_t *c) {
                                                         Buf s(t, count), out(t, count);
                                                         const bool ip = in_place && r == root;
                                                         (ip ? out : s).fill(r, 0, count, rc.op->affine);
                                                         int e = intra_reduce(m, ip ? PLEXUS_COLL_IN_PLACE : s.data(),
                                                                              out.data(), count, H(&t), OpH(*rc.op),
                                                                              root, c);
                                                         if (r != root) return e;
                                                         for (int i = 0; i < count; ++i) {
                                                             auto want = reduced(*rc.op, t.ints, 0, n, i);
                                                             for (int k = 0; k < t.ints; ++k)
                                                                 wrong += out.at(i)[k] != want[k];
                                                         }
                                                         return e;
                                                     }),
                                      0)
                                << where(n, count, t, alg, in_place, root);
                            EXPECT_EQ(wrong, 0) << where(n, count, t, alg, in_place, root)
                                                << " op affine=" << rc.op->affine;
                        }
    }
}

TEST(CollBasicIntra, AllreduceKeepsOperandOrder) {
    for (int alg : std::initializer_list<int>{kAllreduceAuto, kAllreduceRecursiveDoubling, kAllreduceRabenseifner,
                                              kAllreduceRing, kAllreduceReduceBcast, kAllreduceDirect,
                                              kAutoOversubscribed}) {
        Params p = with(&Params::allreduce_algorithm, alg);
        p.allreduce_large = 64;
        // auto on an oversubscribed node: reduce_bcast, direct, rabenseifner within the counts
        p.allreduce_reduce_bcast_below = 64;
        p.allreduce_direct_below = 256;
        for (int n = 1; n <= 8; ++n)
            for (int count : kCounts)
                for (const auto &rc : kReduceCases)
                    for (bool in_place : {false, true}) {
                        const Type &t = *rc.type;
                        std::atomic<int> wrong{0};  // every rank's thread adds to it
                        ASSERT_EQ(coll_fake::run(n, p,
                                                 [&](int r, plexus_coll_module_t *m, plexus_coll_comm_t *c) {
                                                     Buf s(t, count), out(t, count);
                                                     (in_place ? out : s).fill(r, 0, count, rc.op->affine);
                                                     int e = intra_allreduce(m, in_place ? PLEXUS_COLL_IN_PLACE : s.data(),
                                                                             out.data(), count, H(&t), OpH(*rc.op), c);
                                                     for (int i = 0; i < count; ++i) {
                                                         auto want = reduced(*rc.op, t.ints, 0, n, i);
                                                         for (int k = 0; k < t.ints; ++k) wrong += out.at(i)[k] != want[k];
                                                     }
                                                     return e;
                                                 }),
                                  0)
                            << where(n, count, t, alg, in_place);
                        EXPECT_EQ(wrong, 0) << where(n, count, t, alg, in_place) << " affine=" << rc.op->affine;
                    }
    }
}

TEST(CollBasicIntra, GatherAndScatterBothWays) {
    for (long large : {0L, 1L << 40}) {  // linear always, binomial always
        Params p = params();
        p.gather_large = p.scatter_large = large;
        for (int n = 1; n <= 8; ++n)
            for (int root : {0, n - 1, n / 2})
                for (int count : kCounts)
                    for (bool in_place : {false, true}) {
                        std::atomic<int> wrong{0};  // every rank's thread adds to it
                        // gather: send as kStrided, receive as kInt
                        ASSERT_EQ(coll_fake::run(n, p,
                                                 [&](int r, plexus_coll_module_t *m, plexus_coll_comm_t *c) {
                                                     Buf s(kStrided, count), out(kInt, static_cast<long>(n) * count);
                                                     const bool ip = in_place && r == root;
                                                     if (ip)
                                                         out.fill(r, r * count, count, false);
                                                     else
                                                         s.fill(r, 0, count, false);
                                                     int e = intra_gather(m, ip ? PLEXUS_COLL_IN_PLACE : s.data(), count,
                                                                          H(&kStrided), out.data(), count, H(&kInt), root, c);
                                                     if (r == root)
                                                         for (int q = 0; q < n; ++q)
                                                             for (int i = 0; i < count; ++i)
                                                                 wrong += *out.at(q * count + i) != input(q, i, 0, false);
                                                     return e;
                                                 }),
                                  0)
                            << "gather " << where(n, count, kInt, static_cast<int>(large > 0), in_place, root);
                        EXPECT_EQ(wrong, 0) << "gather " << where(n, count, kInt, large > 0, in_place, root);
                        // scatter: send as kInt, receive as kStrided; rank q's block is input(q, ...)
                        ASSERT_EQ(coll_fake::run(n, p,
                                                 [&](int r, plexus_coll_module_t *m, plexus_coll_comm_t *c) {
                                                     Buf s(kInt, static_cast<long>(n) * count), out(kStrided, count);
                                                     const bool ip = in_place && r == root;
                                                     if (r == root)
                                                         for (int q = 0; q < n; ++q) s.fill(q, q * count, count, false);
                                                     int e = intra_scatter(m, s.data(), count, H(&kInt),
                                                                           ip ? PLEXUS_COLL_IN_PLACE : out.data(), count,
                                                                           H(&kStrided), root, c);
                                                     if (!ip)
                                                         for (int i = 0; i < count; ++i)
                                                             wrong += *out.at(i) != input(r, i, 0, false);
                                                     return e;
                                                 }),
                                  0)
                            << "scatter " << where(n, count, kInt, large > 0, in_place, root);
                        EXPECT_EQ(wrong, 0) << "scatter " << where(n, count, kInt, large > 0, in_place, root);
                    }
    }
}

TEST(CollBasicIntra, GathervAndScattervWithUnevenBlocksAndGaps) {
    for (int n = 1; n <= 8; ++n)
        for (int root : {0, n - 1}) {
            // rank q contributes q % 3 items, placed in reverse rank order with one item of gap
            std::vector<int> counts(n), displs(n);
            int at = 0;
            for (int q = n - 1; q >= 0; --q) {
                counts[q] = q % 3;
                displs[q] = at;
                at += counts[q] + 1;
            }
            std::atomic<int> wrong{0};  // every rank's thread adds to it
            ASSERT_EQ(coll_fake::run(n, params(),
                                     [&](int r, plexus_coll_module_t *m, plexus_coll_comm_t *c) {
                                         Buf s(kInt, counts[r]), out(kStrided, at);
                                         s.fill(r, 0, counts[r], false);
                                         int e = intra_gatherv(m, s.data(), counts[r], H(&kInt), out.data(),
                                                               counts.data(), displs.data(), H(&kStrided), root, c);
                                         if (r == root)
                                             for (int q = 0; q < n; ++q)
                                                 for (int i = 0; i < counts[q]; ++i)
                                                     wrong += *out.at(displs[q] + i) != input(q, i, 0, false);
                                         Buf all(kStrided, at), mine(kInt, counts[r]);
                                         if (r == root)
                                             for (int q = 0; q < n; ++q) all.fill(q, displs[q], counts[q], false);
                                         if (int e2 = intra_scatterv(m, all.data(), counts.data(), displs.data(),
                                                                     H(&kStrided), mine.data(), counts[r], H(&kInt),
                                                                     root, c))
                                             return e2;
                                         for (int i = 0; i < counts[r]; ++i) wrong += *mine.at(i) != input(r, i, 0, false);
                                         return e;
                                     }),
                      0)
                << "n=" << n << " root=" << root;
            EXPECT_EQ(wrong, 0) << "n=" << n << " root=" << root;
        }
}

TEST(CollBasicIntra, AllgatherEveryAlgorithm) {
    for (int alg : std::initializer_list<int>{kAllgatherAuto, kAllgatherRecursiveDoubling, kAllgatherRing, kAllgatherBruck, kAllgatherLinear, kAutoOversubscribed}) {
        Params p = with(&Params::allgather_algorithm, alg);
        p.allgather_large = 256;
        for (int n = 1; n <= 8; ++n)
            for (int count : kCounts)
                for (bool in_place : {false, true}) {
                    std::atomic<int> wrong{0};  // every rank's thread adds to it
                    ASSERT_EQ(coll_fake::run(n, p,
                                             [&](int r, plexus_coll_module_t *m, plexus_coll_comm_t *c) {
                                                 Buf s(kInt, count), out(kStrided, static_cast<long>(n) * count);
                                                 if (in_place)
                                                     out.fill(r, r * count, count, false);
                                                 else
                                                     s.fill(r, 0, count, false);
                                                 int e = intra_allgather(m, in_place ? PLEXUS_COLL_IN_PLACE : s.data(),
                                                                         count, H(&kInt), out.data(), count,
                                                                         H(&kStrided), c);
                                                 for (int q = 0; q < n; ++q)
                                                     for (int i = 0; i < count; ++i)
                                                         wrong += *out.at(q * count + i) != input(q, i, 0, false);
                                                 return e;
                                             }),
                              0)
                        << where(n, count, kStrided, alg, in_place);
                    EXPECT_EQ(wrong, 0) << where(n, count, kStrided, alg, in_place);
                }
    }
}

// Allgatherv is ring, or linear on an oversubscribed node.
TEST(CollBasicIntra, AllgathervUnevenBlocks) {
    for (bool oversubscribed : {false, true})
    for (int n = 1; n <= 8; ++n)
        for (bool in_place : {false, true}) {
            Params p = params();
            p.oversubscribed = oversubscribed;
            std::vector<int> counts(n), displs(n);
            int at = 0;
            for (int q = 0; q < n; ++q) {
                counts[q] = (q * 7) % 4;
                displs[q] = at + 2;
                at += counts[q] + 2;
            }
            std::atomic<int> wrong{0};  // every rank's thread adds to it
            ASSERT_EQ(coll_fake::run(n, p,
                                     [&](int r, plexus_coll_module_t *m, plexus_coll_comm_t *c) {
                                         Buf s(kInt, counts[r]), out(kPairGap, at);
                                         // kPairGap holds 2 ints per item: send 2 * counts ints
                                         Buf s2(kInt, 2L * counts[r]);
                                         for (int i = 0; i < 2 * counts[r]; ++i) *s2.at(i) = input(r, i, 0, false);
                                         if (in_place)
                                             for (int i = 0; i < counts[r]; ++i)
                                                 for (int k = 0; k < 2; ++k)
                                                     out.at(displs[r] + i)[k] = input(r, 2 * i + k, 0, false);
                                         int e = intra_allgatherv(m, in_place ? PLEXUS_COLL_IN_PLACE : s2.data(),
                                                                  2 * counts[r], H(&kInt), out.data(), counts.data(),
                                                                  displs.data(), H(&kPairGap), c);
                                         for (int q = 0; q < n; ++q)
                                             for (int i = 0; i < counts[q]; ++i)
                                                 for (int k = 0; k < 2; ++k)
                                                     wrong += out.at(displs[q] + i)[k] != input(q, 2 * i + k, 0, false);
                                         return e;
                                     }),
                      0)
                << "n=" << n;
            EXPECT_EQ(wrong, 0) << "n=" << n << " in_place=" << in_place << " oversubscribed=" << oversubscribed;
        }
}

TEST(CollBasicIntra, AlltoallEveryAlgorithm) {
    for (int alg : std::initializer_list<int>{kAlltoallAuto, kAlltoallBruck, kAlltoallPairwise, kAlltoallLinear, kAutoOversubscribed}) {
        Params p = with(&Params::alltoall_algorithm, alg);
        p.alltoall_large = 32;
        for (int n = 1; n <= 8; ++n)
            for (int count : {0, 1, 3, 17})
                for (bool in_place : {false, true}) {
                    std::atomic<int> wrong{0};  // every rank's thread adds to it
                    ASSERT_EQ(coll_fake::run(n, p,
                                             [&](int r, plexus_coll_module_t *m, plexus_coll_comm_t *c) {
                                                 Buf s(kStrided, static_cast<long>(n) * count),
                                                     out(kInt, static_cast<long>(n) * count);
                                                 Buf &src = in_place ? out : s;
                                                 for (int q = 0; q < n; ++q)
                                                     for (int i = 0; i < count; ++i) *src.at(q * count + i) = a2a(r, q, i);
                                                 int e = intra_alltoall(m, in_place ? PLEXUS_COLL_IN_PLACE : s.data(),
                                                                        count, H(&kStrided), out.data(), count, H(&kInt), c);
                                                 for (int q = 0; q < n; ++q)
                                                     for (int i = 0; i < count; ++i)
                                                         wrong += *out.at(q * count + i) != a2a(q, r, i);
                                                 return e;
                                             }),
                              0)
                        << where(n, count, kInt, alg, in_place);
                    EXPECT_EQ(wrong, 0) << where(n, count, kInt, alg, in_place);
                }
    }
}

TEST(CollBasicIntra, AlltoallvAndAlltoallw) {
    for (int n = 1; n <= 8; ++n)
        for (bool in_place : {false, true})
            for (bool w : {false, true}) {
                // items from -> to; in place, MPI needs them symmetric (one count array for both ways)
                auto cnt = [&](int from, int to) { return in_place ? (from + to) % 3 : (from + 2 * to) % 3; };
                std::atomic<int> wrong{0};  // every rank's thread adds to it
                ASSERT_EQ(coll_fake::run(n, params(),
                                         [&](int r, plexus_coll_module_t *m, plexus_coll_comm_t *c) {
                                             // blocks laid out in reverse peer order with a gap of one item
                                             std::vector<int> sc(n), sd(n), rc(n), rd(n), sdb(n), rdb(n);
                                             int sat = 0, rat = 0;
                                             for (int q = n - 1; q >= 0; --q) {
                                                 sc[q] = cnt(r, q);
                                                 sd[q] = sat;
                                                 sat += sc[q] + 1;
                                                 rc[q] = cnt(q, r);
                                                 rd[q] = rat;
                                                 rat += rc[q] + 1;
                                             }
                                             Buf s(kInt, sat), out(kStrided, rat);
                                             // in place: the send blocks have the receive layout
                                             const bool ip = in_place;
                                             for (int q = 0; q < n; ++q) {
                                                 for (int i = 0; i < (ip ? rc[q] : sc[q]); ++i) {
                                                     if (ip)
                                                         *out.at(rd[q] + i) = a2a(r, q, i);
                                                     else
                                                         *s.at(sd[q] + i) = a2a(r, q, i);
                                                 }
                                                 sdb[q] = sd[q] * 4;
                                                 rdb[q] = rd[q] * 12;
                                             }
                                             int e;
                                             if (w) {
                                                 std::vector<plexus_coll_dtype_t *> st(n, H(&kInt)), rt(n, H(&kStrided));
                                                 e = intra_alltoallw(m, ip ? PLEXUS_COLL_IN_PLACE : s.data(), sc.data(), sdb.data(), st.data(),
                                                                     out.data(), rc.data(), rdb.data(), rt.data(), c);
                                             } else {
                                                 e = intra_alltoallv(m, ip ? PLEXUS_COLL_IN_PLACE : s.data(), sc.data(),
                                                                     sd.data(), H(&kInt), out.data(), rc.data(),
                                                                     rd.data(), H(&kStrided), c);
                                             }
                                             for (int q = 0; q < n; ++q)
                                                 for (int i = 0; i < rc[q]; ++i) wrong += *out.at(rd[q] + i) != a2a(q, r, i);
                                             return e;
                                         }),
                          0)
                    << "n=" << n;
                EXPECT_EQ(wrong, 0) << "n=" << n << " in_place=" << in_place << " w=" << w;
            }
}

TEST(CollBasicIntra, ReduceScatterKeepsOperandOrder) {
    for (int n = 1; n <= 8; ++n)
        for (const auto &rcase : kReduceCases)
            for (bool in_place : {false, true})
                for (bool block : {false, true}) {
                    const Type &t = *rcase.type;
                    std::vector<int> counts(n);
                    int total = 0;
                    for (int q = 0; q < n; ++q) total += counts[q] = block ? 3 : (q * 5 + 1) % 4;
                    std::atomic<int> wrong{0};  // every rank's thread adds to it
                    ASSERT_EQ(coll_fake::run(n, params(),
                                             [&](int r, plexus_coll_module_t *m, plexus_coll_comm_t *c) {
                                                 Buf s(t, total), out(t, total);
                                                 (in_place ? out : s).fill(r, 0, total, rcase.op->affine);
                                                 const void *sb = in_place ? PLEXUS_COLL_IN_PLACE : s.data();
                                                 int e = block ? intra_reduce_scatter_block(m, sb, out.data(), 3, H(&t),
                                                                                            OpH(*rcase.op), c)
                                                               : intra_reduce_scatter(m, sb, out.data(), counts.data(),
                                                                                      H(&t), OpH(*rcase.op), c);
                                                 int first = 0;
                                                 for (int q = 0; q < r; ++q) first += counts[q];
                                                 for (int i = 0; i < counts[r]; ++i) {
                                                     auto want = reduced(*rcase.op, t.ints, 0, n, first + i);
                                                     for (int k = 0; k < t.ints; ++k) wrong += out.at(i)[k] != want[k];
                                                 }
                                                 return e;
                                             }),
                              0)
                        << "n=" << n;
                    EXPECT_EQ(wrong, 0) << "n=" << n << " affine=" << rcase.op->affine << " in_place=" << in_place
                                        << " block=" << block;
                }
}

TEST(CollBasicIntra, ScanAndExscanKeepOperandOrder) {
    for (int n = 1; n <= 8; ++n)
        for (int count : kCounts)
            for (const auto &rcase : kReduceCases)
                for (bool in_place : {false, true})
                    for (bool exclusive : {false, true}) {
                        const Type &t = *rcase.type;
                        std::atomic<int> wrong{0};  // every rank's thread adds to it
                        ASSERT_EQ(coll_fake::run(n, params(),
                                                 [&](int r, plexus_coll_module_t *m, plexus_coll_comm_t *c) {
                                                     Buf s(t, count), out(t, count);
                                                     (in_place ? out : s).fill(r, 0, count, rcase.op->affine);
                                                     const void *sb = in_place ? PLEXUS_COLL_IN_PLACE : s.data();
                                                     int e = exclusive ? intra_exscan(m, sb, out.data(), count, H(&t),
                                                                                      OpH(*rcase.op), c)
                                                                       : intra_scan(m, sb, out.data(), count, H(&t),
                                                                                    OpH(*rcase.op), c);
                                                     const int hi = exclusive ? r : r + 1;
                                                     if (hi == 0) return e;  // rank 0's exscan result is undefined
                                                     for (int i = 0; i < count; ++i) {
                                                         auto want = reduced(*rcase.op, t.ints, 0, hi, i);
                                                         for (int k = 0; k < t.ints; ++k) wrong += out.at(i)[k] != want[k];
                                                     }
                                                     return e;
                                                 }),
                                  0)
                            << "n=" << n;
                        EXPECT_EQ(wrong, 0) << "n=" << n << " count=" << count << " affine=" << rcase.op->affine
                                            << " in_place=" << in_place << " exclusive=" << exclusive;
                    }
}
