// Unit tests of coll_basic's inter-communicator algorithms (inter_*.cc) over the fake MPI layer
// (coll_basic_fake.h, run_inter: one thread per process of two groups; behind comm_local each
// process has its group's intra-communicator, which the fake's dispatch serves with coll_basic's
// intra functions, so the local phases are the real ones). Every collective on group sizes 1/1 to
// 5/1, counts 0 to 100, roots in either group and other than rank 0, datatypes with gaps and a true
// lower bound, different send and receive types, uneven blocks with zeros and gaps, a sum and a
// non-commutative operation: every result must be made of the other group's data (reductions in
// that group's rank order), item by item as a sequential computation says, and buffers MPI calls
// insignificant must stay untouched. The suite runs with coll_basic's default thresholds and with
// thresholds low enough that the local phases take their large-message algorithms too.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <numeric>
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
using coll_fake::kInt;
using coll_fake::kPairGap;
using coll_fake::kReduceCases;
using coll_fake::kStrided;
using coll_fake::Member;
using coll_fake::Op;
using coll_fake::OpH;
using coll_fake::Type;

namespace {

// Group sizes: a (group 0) and b (group 1).
struct Groups {
    int a;
    int b;
};
constexpr Groups kGroups[] = {{1, 1}, {1, 4}, {3, 2}, {2, 5}, {4, 4}, {5, 1}};
constexpr int kCounts[] = {0, 1, 7, 100};

using Body = std::function<int(const Member &, plexus_coll_module_t *, plexus_coll_comm_t *)>;

// The parameter: whether the local phases run with low thresholds (every message above 64 bytes
// takes the large-message algorithms) or with coll_basic's defaults.
class CollBasicInter : public testing::TestWithParam<bool> {
protected:
    void SetUp() override {
        params_ = params();
        if (GetParam())
            params_.bcast_large = params_.reduce_large = params_.allreduce_large = params_.allgather_large =
                params_.alltoall_large = params_.gather_large = params_.scatter_large = 64;
    }
    int run(Groups g, const Body &body) const { return coll_fake::run_inter(g.a, g.b, params_, body); }

private:
    Params params_;
};

INSTANTIATE_TEST_SUITE_P(Thresholds, CollBasicInter, testing::Bool(),
                         [](const testing::TestParamInfo<bool> &info) {
                             return std::string(info.param ? "Low" : "Default");
                         });

// The root of a rooted collective: rank `rank` of group `group`.
struct Root {
    int group;
    int rank;
};

// Rank 0 and the last rank of either group.
std::vector<Root> roots(Groups g) {
    std::vector<Root> out;
    for (int group : {0, 1}) {
        const int size = group == 0 ? g.a : g.b;
        out.push_back({group, 0});
        if (size > 1) out.push_back({group, size - 1});
    }
    return out;
}

// What process m passes as root: MPI_ROOT at the root, MPI_PROC_NULL in the rest of its group, the
// root's rank in the other group.
int root_arg(const Member &m, Root root) {
    if (m.group != root.group) return root.rank;
    return m.rank == root.rank ? PLEXUS_COLL_ROOT : PLEXUS_COLL_PROC_NULL;
}

int root_id(const Member &m, Root root) { return (m.group == root.group ? m.first : m.remote_first) + root.rank; }

std::string where(Groups g, int count, const Type &t) {
    return "groups=" + std::to_string(g.a) + "/" + std::to_string(g.b) + " count=" + std::to_string(count) +
           " ints=" + std::to_string(t.ints) + " offset=" + std::to_string(t.offset);
}

std::string where(Groups g, int count, const Type &t, Root root) {
    return where(g, count, t) + " root=rank " + std::to_string(root.rank) + " of group " + std::to_string(root.group);
}

// The data of the collectives that do not reduce is counted in ints, whatever the type: int j of
// process id's data is input(id, j, 0, false). put writes its first n items' worth at item `at`.
void put(Buf &b, int at, int n, int id) {
    const int ints = b.t->ints;
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < ints; ++k) b.at(at + i)[k] = input(id, i * ints + k, 0, false);
}

// The ints of n items at item `at` of b that differ from what put(b, at, n, id) writes.
int wrong_items(Buf &b, int at, int n, int id) {
    const int ints = b.t->ints;
    int wrong = 0;
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < ints; ++k) wrong += b.at(at + i)[k] != input(id, i * ints + k, 0, false);
    return wrong;
}

// The ints of out that differ from the other group's blocks of count items in rank order.
int wrong_blocks(Buf &out, int count, const Member &m) {
    int wrong = 0;
    for (int q = 0; q < m.remote_size; ++q) wrong += wrong_items(out, q * count, count, m.remote_id(q));
    return wrong;
}

// The ints of items [0, n) of out that differ from the reduction, in the other group's rank order,
// of items [from, from + n) of that group's inputs (Buf::fill with the process id).
int wrong_reduction(Buf &out, int n, int from, const Op &op, const Member &m) {
    const int ints = out.t->ints;
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
        const auto want = coll_fake::reduced(op, ints, m.remote_first, m.remote_first + m.remote_size, from + i);
        for (int k = 0; k < ints; ++k) wrong += out.at(i)[k] != want[k];
    }
    return wrong;
}

// Rank q's block of a v-variant: none for every third rank, count + q items otherwise.
int uneven(int q, int count) { return q % 3 == 1 ? 0 : count + q; }

// Blocks of the given counts (item displacements), each followed by `gap` free items, laid out in
// rank order or in reverse.
struct Blocks {
    std::vector<int> counts;
    std::vector<int> displs;
    int span = 0;  // items the layout covers
};

Blocks place(std::vector<int> counts, int gap, bool reversed) {
    const int n = static_cast<int>(counts.size());
    Blocks b{std::move(counts), std::vector<int>(n), 0};
    for (int j = 0; j < n; ++j) {
        const int q = reversed ? n - 1 - j : j;
        b.displs[q] = b.span;
        b.span += b.counts[q] + gap;
    }
    return b;
}

template <typename F>
std::vector<int> counts_of(int n, F count) {
    std::vector<int> out(n);
    for (int q = 0; q < n; ++q) out[q] = count(q);
    return out;
}

std::vector<int> uneven_counts(int n, int count) {
    return counts_of(n, [&](int q) { return uneven(q, count); });
}

// Item displacements as byte displacements (MPI_Alltoallw's).
std::vector<int> in_bytes(const std::vector<int> &displs, const Type &t) {
    std::vector<int> out(displs.size());
    for (size_t q = 0; q < displs.size(); ++q) out[q] = static_cast<int>(displs[q] * t.extent);
    return out;
}

// total items split unevenly over n ranks, zeros included; the last rank takes the rest.
std::vector<int> split(int total, int n) {
    std::vector<int> out(n);
    int left = total;
    for (int q = 0; q < n - 1; ++q) left -= out[q] = q % 3 == 1 ? 0 : std::min(left, total / n + q);
    out[n - 1] = left;
    return out;
}

}  // namespace

TEST_P(CollBasicInter, BcastFromARootInEitherGroup) {
    for (Groups g : kGroups)
        for (Root root : roots(g))
            for (int count : kCounts)
                for (const Type *t : {&kInt, &kStrided, &kPairGap}) {
                    // The root describes the message as plain ints (count * ints of them), the other
                    // group with t: only the type signatures match, as MPI allows.
                    std::atomic<int> wrong{0};
                    ASSERT_EQ(run(g,
                                  [&](const Member &m, plexus_coll_module_t *mod, plexus_coll_comm_t *c) {
                                      const int arg = root_arg(m, root);
                                      const Type &mine = arg == PLEXUS_COLL_ROOT ? kInt : *t;
                                      const int items = arg == PLEXUS_COLL_ROOT ? count * t->ints : count;
                                      Buf b(mine, items);
                                      if (arg == PLEXUS_COLL_ROOT) put(b, 0, items, m.id());
                                      const int e = inter_bcast(mod, b.data(), items, H(&mine), arg, c);
                                      wrong += arg == PLEXUS_COLL_PROC_NULL ? !b.untouched()
                                                                            : wrong_items(b, 0, items, root_id(m, root));
                                      return e;
                                  }),
                              0)
                        << where(g, count, *t, root);
                    EXPECT_EQ(wrong.load(), 0) << where(g, count, *t, root);
                }
}

TEST_P(CollBasicInter, ReduceGivesTheRootTheOtherGroupInRankOrder) {
    for (Groups g : kGroups)
        for (Root root : roots(g))
            for (int count : kCounts)
                for (const auto &rc : kReduceCases) {
                    const Type &t = *rc.type;
                    std::atomic<int> wrong{0};
                    ASSERT_EQ(run(g,
                                  [&](const Member &m, plexus_coll_module_t *mod, plexus_coll_comm_t *c) {
                                      const int arg = root_arg(m, root);
                                      Buf s(t, count), out(t, count);
                                      s.fill(m.id(), 0, count, rc.op->affine);
                                      const int e = inter_reduce(mod, s.data(), out.data(), count, H(&t),
                                                                 OpH(*rc.op), arg, c);
                                      wrong += arg == PLEXUS_COLL_ROOT ? wrong_reduction(out, count, 0, *rc.op, m)
                                                                       : !out.untouched();
                                      return e;
                                  }),
                              0)
                        << where(g, count, t, root);
                    EXPECT_EQ(wrong.load(), 0) << where(g, count, t, root) << " affine=" << rc.op->affine;
                }
}

TEST_P(CollBasicInter, AllreduceGivesEachGroupTheOther) {
    for (Groups g : kGroups)
        for (int count : kCounts)
            for (const auto &rc : kReduceCases) {
                const Type &t = *rc.type;
                std::atomic<int> wrong{0};
                ASSERT_EQ(run(g,
                              [&](const Member &m, plexus_coll_module_t *mod, plexus_coll_comm_t *c) {
                                  Buf s(t, count), out(t, count);
                                  s.fill(m.id(), 0, count, rc.op->affine);
                                  const int e =
                                      inter_allreduce(mod, s.data(), out.data(), count, H(&t), OpH(*rc.op), c);
                                  wrong += wrong_reduction(out, count, 0, *rc.op, m);
                                  return e;
                              }),
                          0)
                    << where(g, count, t);
                EXPECT_EQ(wrong.load(), 0) << where(g, count, t) << " affine=" << rc.op->affine;
            }
}

// The other group sends kStrided items, the root receives kInt ones.
TEST_P(CollBasicInter, GatherToARootInEitherGroup) {
    for (Groups g : kGroups)
        for (Root root : roots(g))
            for (int count : kCounts) {
                std::atomic<int> wrong{0};
                ASSERT_EQ(run(g,
                              [&](const Member &m, plexus_coll_module_t *mod, plexus_coll_comm_t *c) {
                                  const int arg = root_arg(m, root);
                                  Buf s(kStrided, count), out(kInt, 1L * m.remote_size * count);
                                  put(s, 0, count, m.id());
                                  const int e = inter_gather(mod, s.data(), count, H(&kStrided), out.data(), count,
                                                             H(&kInt), arg, c);
                                  wrong += arg == PLEXUS_COLL_ROOT ? wrong_blocks(out, count, m) : !out.untouched();
                                  return e;
                              }),
                          0)
                    << where(g, count, kInt, root);
                EXPECT_EQ(wrong.load(), 0) << where(g, count, kInt, root);
            }
}

// The root sends kInt items, the other group receives kStrided ones.
TEST_P(CollBasicInter, ScatterFromARootInEitherGroup) {
    for (Groups g : kGroups)
        for (Root root : roots(g))
            for (int count : kCounts) {
                std::atomic<int> wrong{0};
                ASSERT_EQ(run(g,
                              [&](const Member &m, plexus_coll_module_t *mod, plexus_coll_comm_t *c) {
                                  const int arg = root_arg(m, root);
                                  Buf s(kInt, 1L * m.remote_size * count), out(kStrided, count);
                                  if (arg == PLEXUS_COLL_ROOT)
                                      for (int q = 0; q < m.remote_size; ++q) put(s, q * count, count, m.remote_id(q));
                                  const int e = inter_scatter(mod, s.data(), count, H(&kInt), out.data(), count,
                                                              H(&kStrided), arg, c);
                                  wrong += m.group != root.group ? wrong_items(out, 0, count, m.id()) : !out.untouched();
                                  return e;
                              }),
                          0)
                    << where(g, count, kStrided, root);
                EXPECT_EQ(wrong.load(), 0) << where(g, count, kStrided, root);
            }
}

// The other group's rank q sends uneven(q) kInt items; the root places them as kStrided items in
// reverse rank order, one item apart.
TEST_P(CollBasicInter, GathervUnevenBlocksWithGaps) {
    for (Groups g : kGroups)
        for (Root root : roots(g))
            for (int count : kCounts) {
                std::atomic<int> wrong{0};
                ASSERT_EQ(run(g,
                              [&](const Member &m, plexus_coll_module_t *mod, plexus_coll_comm_t *c) {
                                  const int arg = root_arg(m, root);
                                  const Blocks in = place(uneven_counts(m.remote_size, count), 1, true);
                                  const int mine = uneven(m.rank, count);
                                  Buf s(kInt, mine), out(kStrided, in.span);
                                  put(s, 0, mine, m.id());
                                  const int e = inter_gatherv(mod, s.data(), mine, H(&kInt), out.data(), in.counts.data(),
                                                              in.displs.data(), H(&kStrided), arg, c);
                                  if (arg != PLEXUS_COLL_ROOT) {
                                      wrong += !out.untouched();
                                      return e;
                                  }
                                  for (int q = 0; q < m.remote_size; ++q)
                                      wrong += wrong_items(out, in.displs[q], in.counts[q], m.remote_id(q));
                                  return e;
                              }),
                          0)
                    << where(g, count, kStrided, root);
                EXPECT_EQ(wrong.load(), 0) << where(g, count, kStrided, root);
            }
}

// The mirror of Gatherv: the root sends kStrided blocks from reverse rank order with gaps.
TEST_P(CollBasicInter, ScattervUnevenBlocksWithGaps) {
    for (Groups g : kGroups)
        for (Root root : roots(g))
            for (int count : kCounts) {
                std::atomic<int> wrong{0};
                ASSERT_EQ(run(g,
                              [&](const Member &m, plexus_coll_module_t *mod, plexus_coll_comm_t *c) {
                                  const int arg = root_arg(m, root);
                                  const Blocks from = place(uneven_counts(m.remote_size, count), 1, true);
                                  const int mine = uneven(m.rank, count);
                                  Buf s(kStrided, from.span), out(kInt, mine);
                                  if (arg == PLEXUS_COLL_ROOT)
                                      for (int q = 0; q < m.remote_size; ++q)
                                          put(s, from.displs[q], from.counts[q], m.remote_id(q));
                                  const int e = inter_scatterv(mod, s.data(), from.counts.data(), from.displs.data(),
                                                               H(&kStrided), out.data(), mine, H(&kInt), arg, c);
                                  wrong += m.group != root.group ? wrong_items(out, 0, mine, m.id()) : !out.untouched();
                                  return e;
                              }),
                          0)
                    << where(g, count, kInt, root);
                EXPECT_EQ(wrong.load(), 0) << where(g, count, kInt, root);
            }
}

TEST_P(CollBasicInter, AllgatherGivesEachGroupTheOther) {
    for (Groups g : kGroups)
        for (int count : kCounts) {
            std::atomic<int> wrong{0};
            ASSERT_EQ(run(g,
                          [&](const Member &m, plexus_coll_module_t *mod, plexus_coll_comm_t *c) {
                              Buf s(kInt, count), out(kStrided, 1L * m.remote_size * count);
                              put(s, 0, count, m.id());
                              const int e = inter_allgather(mod, s.data(), count, H(&kInt), out.data(), count,
                                                            H(&kStrided), c);
                              wrong += wrong_blocks(out, count, m);
                              return e;
                          }),
                      0)
                << where(g, count, kStrided);
            EXPECT_EQ(wrong.load(), 0) << where(g, count, kStrided);
        }
}

// Rank q sends 2 * uneven(q) kInt items and is received as uneven(q) kPairGap items. Layouts: 0
// packed everywhere (straight into recvbuf), 1 reverse rank order with gaps everywhere (staged),
// 2 each process its own choice (processes of one group disagree).
TEST_P(CollBasicInter, AllgathervUnevenBlocksPackedOrNot) {
    for (Groups g : kGroups)
        for (int count : kCounts)
            for (int layout : {0, 1, 2}) {
                std::atomic<int> wrong{0};
                ASSERT_EQ(run(g,
                              [&](const Member &m, plexus_coll_module_t *mod, plexus_coll_comm_t *c) {
                                  const bool gaps = layout == 1 || (layout == 2 && m.rank % 2 == 1);
                                  const Blocks in = place(uneven_counts(m.remote_size, count), gaps ? 1 : 0, gaps);
                                  const int mine = 2 * uneven(m.rank, count);
                                  Buf s(kInt, mine), out(kPairGap, in.span);
                                  put(s, 0, mine, m.id());
                                  const int e = inter_allgatherv(mod, s.data(), mine, H(&kInt), out.data(), in.counts.data(),
                                                                 in.displs.data(), H(&kPairGap), c);
                                  for (int q = 0; q < m.remote_size; ++q)
                                      wrong += wrong_items(out, in.displs[q], in.counts[q], m.remote_id(q));
                                  return e;
                              }),
                          0)
                    << where(g, count, kPairGap) << " layout=" << layout;
                EXPECT_EQ(wrong.load(), 0) << where(g, count, kPairGap) << " layout=" << layout;
            }
}

TEST_P(CollBasicInter, AlltoallAcrossTheGroups) {
    for (Groups g : kGroups)
        for (int count : kCounts) {
            std::atomic<int> wrong{0};
            ASSERT_EQ(run(g,
                          [&](const Member &m, plexus_coll_module_t *mod, plexus_coll_comm_t *c) {
                              const long items = 1L * m.remote_size * count;
                              Buf s(kStrided, items), out(kInt, items);
                              for (int q = 0; q < m.remote_size; ++q)
                                  for (int i = 0; i < count; ++i) *s.at(q * count + i) = a2a(m.id(), m.remote_id(q), i);
                              const int e = inter_alltoall(mod, s.data(), count, H(&kStrided), out.data(), count,
                                                           H(&kInt), c);
                              for (int q = 0; q < m.remote_size; ++q)
                                  for (int i = 0; i < count; ++i)
                                      wrong += *out.at(q * count + i) != a2a(m.remote_id(q), m.id(), i);
                              return e;
                          }),
                      0)
                << where(g, count, kInt);
            EXPECT_EQ(wrong.load(), 0) << where(g, count, kInt);
        }
}

// Blocks of none, half or all of count items by the pair, laid out in reverse peer order with gaps;
// kInt sent, kStrided received (w: the same as one datatype per peer and byte displacements).
TEST_P(CollBasicInter, AlltoallvAndAlltoallwUnevenBlocks) {
    for (Groups g : kGroups)
        for (int count : kCounts)
            for (bool w : {false, true}) {
                std::atomic<int> wrong{0};
                ASSERT_EQ(run(g,
                              [&](const Member &m, plexus_coll_module_t *mod, plexus_coll_comm_t *c) {
                                  // items from process id `from` to id `to`
                                  auto cnt = [&](int from, int to) { return (from + 2 * to) % 3 * count / 2; };
                                  const Blocks out_b = place(
                                      counts_of(m.remote_size, [&](int q) { return cnt(m.id(), m.remote_id(q)); }), 1, true);
                                  const Blocks in_b = place(
                                      counts_of(m.remote_size, [&](int q) { return cnt(m.remote_id(q), m.id()); }), 1, true);
                                  Buf s(kInt, out_b.span), out(kStrided, in_b.span);
                                  for (int q = 0; q < m.remote_size; ++q)
                                      for (int i = 0; i < out_b.counts[q]; ++i)
                                          *s.at(out_b.displs[q] + i) = a2a(m.id(), m.remote_id(q), i);
                                  const int *sc = out_b.counts.data(), *rc = in_b.counts.data();
                                  int e;
                                  if (w) {
                                      const std::vector<plexus_coll_dtype_t *> st(m.remote_size, H(&kInt)),
                                          rt(m.remote_size, H(&kStrided));
                                      e = inter_alltoallw(mod, s.data(), sc, in_bytes(out_b.displs, kInt).data(),
                                                          st.data(), out.data(), rc,
                                                          in_bytes(in_b.displs, kStrided).data(), rt.data(), c);
                                  } else {
                                      e = inter_alltoallv(mod, s.data(), sc, out_b.displs.data(), H(&kInt), out.data(),
                                                          rc, in_b.displs.data(), H(&kStrided), c);
                                  }
                                  for (int q = 0; q < m.remote_size; ++q)
                                      for (int i = 0; i < in_b.counts[q]; ++i)
                                          wrong += *out.at(in_b.displs[q] + i) != a2a(m.remote_id(q), m.id(), i);
                                  return e;
                              }),
                          0)
                    << where(g, count, kStrided) << " w=" << w;
                EXPECT_EQ(wrong.load(), 0) << where(g, count, kStrided) << " w=" << w;
            }
}

// Both groups reduce vectors of `total` items; each group's ranks split the other group's result
// unevenly (zeros included), by recvcounts of their own.
TEST_P(CollBasicInter, ReduceScatterUnevenBlocks) {
    for (Groups g : kGroups)
        for (int total : kCounts)
            for (const auto &rc : kReduceCases) {
                const Type &t = *rc.type;
                std::atomic<int> wrong{0};
                ASSERT_EQ(run(g,
                              [&](const Member &m, plexus_coll_module_t *mod, plexus_coll_comm_t *c) {
                                  const std::vector<int> counts = split(total, m.size);
                                  const int from = std::accumulate(counts.begin(), counts.begin() + m.rank, 0);
                                  Buf s(t, total), out(t, counts[m.rank]);
                                  s.fill(m.id(), 0, total, rc.op->affine);
                                  const int e = inter_reduce_scatter(mod, s.data(), out.data(), counts.data(), H(&t),
                                                                     OpH(*rc.op), c);
                                  wrong += wrong_reduction(out, counts[m.rank], from, *rc.op, m);
                                  return e;
                              }),
                          0)
                    << where(g, total, t);
                EXPECT_EQ(wrong.load(), 0) << where(g, total, t) << " affine=" << rc.op->affine;
            }
}

// Both groups reduce vectors of the same length (a multiple of both sizes), so each group's block
// is that length over its own size.
TEST_P(CollBasicInter, ReduceScatterBlock) {
    for (Groups g : kGroups)
        for (int blocks : {0, 1, 7})
            for (const auto &rc : kReduceCases) {
                const Type &t = *rc.type;
                const int total = std::lcm(g.a, g.b) * blocks;
                std::atomic<int> wrong{0};
                ASSERT_EQ(run(g,
                              [&](const Member &m, plexus_coll_module_t *mod, plexus_coll_comm_t *c) {
                                  const int block = total / m.size;
                                  Buf s(t, total), out(t, block);
                                  s.fill(m.id(), 0, total, rc.op->affine);
                                  const int e = inter_reduce_scatter_block(mod, s.data(), out.data(), block, H(&t),
                                                                           OpH(*rc.op), c);
                                  wrong += wrong_reduction(out, block, m.rank * block, *rc.op, m);
                                  return e;
                              }),
                          0)
                    << where(g, total, t);
                EXPECT_EQ(wrong.load(), 0) << where(g, total, t) << " affine=" << rc.op->affine;
            }
}

// Three barriers in a row, the last process of one group entering each one late: no process may
// leave a barrier before every process of the other group has entered it.
TEST_P(CollBasicInter, BarrierWaitsForTheOtherGroup) {
    constexpr int kRounds = 3;
    for (Groups g : kGroups)
        for (int late : {0, 1}) {
            std::atomic<int> entered[2] = {0, 0};
            std::atomic<int> early{0};
            ASSERT_EQ(run(g,
                          [&](const Member &m, plexus_coll_module_t *mod, plexus_coll_comm_t *c) {
                              for (int round = 1; round <= kRounds; ++round) {
                                  if (m.group == late && m.rank == m.size - 1)
                                      std::this_thread::sleep_for(std::chrono::milliseconds(2));
                                  ++entered[m.group];
                                  if (int e = inter_barrier(mod, c)) return e;
                                  early += entered[1 - m.group] < round * m.remote_size;
                              }
                              return 0;
                          }),
                      0)
                << "groups=" << g.a << "/" << g.b << " late=" << late;
            EXPECT_EQ(early.load(), 0) << "groups=" << g.a << "/" << g.b << " late=" << late;
        }
}
