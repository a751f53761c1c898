// The engine (shm_engine.h) in forked processes over a shared mapping, as the processes of a
// node run it: flags (barriers that nobody passes early, generations across many calls), the
// chunk pipeline (messages of 0, 1, chunk - 1, chunk, chunk + 1 and many chunks, every root),
// reductions kept in rank order with a non-commutative operation, gathers, scatters, and the
// single-copy Bcast protocol, the union of two groups (exchanges, and the rooted calls with
// processes that only pass), at 1-8 processes with small chunks so that every path pipelines.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cstring>
#include <vector>


#include <plexus/sdk/shared_word.hpp>

#include "components/coll_shm_inter/shm_engine.h"
#include "forked_group.h"

using namespace plexus::coll_shm_inter;
using shm_test::run_forked;
using shm_test::SharedMap;

namespace {

constexpr size_t kChunk = 64;  // small slots: every message past 64 bytes pipelines
constexpr size_t kScratch = 1 << 20;

// The layout, plus room after the segment for the test's own shared words.
struct Group {
    Layout layout;
    SharedMap map;
    explicit Group(int n, size_t chunk = kChunk)
        : layout(make_layout(n, chunk)), map(make_layout(n, chunk).total_bytes() + kScratch) {}
    uint8_t *scratch() const { return map.base() + layout.total_bytes(); }
};

// flat: the flat barrier (every process waits for every flag), else the tree's fan-in / fan-out.
Engine engine_for(const Group &s, int rank, bool flat, SingleCopy copy = {}) {
    std::vector<int> order(static_cast<size_t>(s.layout.procs));
    for (int i = 0; i < s.layout.procs; ++i) order[static_cast<size_t>(i)] = i;
    Engine e(s.map.base(), s.layout, rank, binomial_tree(order), spin_waiter(), copy,
             flat ? 64 : 0);
    e.control(rank).pid = static_cast<int32_t>(getpid());
    return e;
}

uint8_t pattern(int root, size_t i, int round) {
    return static_cast<uint8_t>(root * 31 + i * 7 + round * 13 + 1);
}

// Affine maps x -> m x + c mod 65521 composed: (a o b)(x) = a(b(x)); not commutative, so a
// result in the wrong order differs.
constexpr int64_t kMod = 65521;
struct Affine {
    int32_t m, c;
};
int compose(void *, const void *in, void *inout, size_t items) {
    const auto *a = static_cast<const Affine *>(in);
    auto *b = static_cast<Affine *>(inout);
    for (size_t i = 0; i < items; ++i) {
        const int64_t m = int64_t(a[i].m) * b[i].m % kMod;
        const int64_t c = (int64_t(a[i].m) * b[i].c + a[i].c) % kMod;
        b[i] = Affine{int32_t(m), int32_t(c)};
    }
    return 0;
}
Affine item_of(int rank, size_t i) {
    return Affine{int32_t((rank * 17 + i * 3) % 1000 + 2), int32_t(rank * 5 + i)};
}

#define CHILD_CHECK(cond)                                                                    \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "rank %d: %s:%d: %s failed\n", rank, __FILE__, __LINE__, #cond); \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

}  // namespace

TEST(ShmEngine, BarrierLetsNobodyOutBeforeEveryoneArrived) {
    for (bool flat : {false, true})
        for (int n = 1; n <= 8; ++n) {
            Group s(n);
            auto *arrived = reinterpret_cast<uint64_t *>(s.scratch());
            run_forked(n, [&](int rank) {
                Engine e = engine_for(s, rank, flat);
                for (uint64_t round = 1; round <= 200; ++round) {
                    plexus::sdk::fetch_add_acq_rel(*arrived, uint64_t{1});
                    e.barrier();
                    // Everyone of this round arrived; nobody of the next round can have yet.
                    const uint64_t seen = plexus::sdk::load_acquire(*arrived);
                    CHILD_CHECK(seen >= round * n);
                    CHILD_CHECK(seen <= round * n + (n - 1));
                    e.barrier();
                }
                return 0;
            });
        }
}

TEST(ShmEngine, SplitBarrierRunsTheRootAloneBetweenItsHalves) {
    const int n = 5;
    const bool flat = false;
    Group s(n);
    auto *inside = reinterpret_cast<uint64_t *>(s.scratch());
    run_forked(n, [&](int rank) {
        Engine e = engine_for(s, rank, flat);
        for (uint64_t round = 1; round <= 100; ++round) {
            e.fan_in();
            // Only the root (rank 0 of the identity order) runs here; everyone else is held.
            if (rank == 0) {
                CHILD_CHECK(plexus::sdk::load_acquire(*inside) == round - 1);
                plexus::sdk::store_release(*inside, round);
            }
            e.fan_out();
            CHILD_CHECK(plexus::sdk::load_acquire(*inside) >= round);
        }
        return 0;
    });
}

TEST(ShmEngine, BcastPipelinesEverySizeFromEveryRoot) {
    const size_t sizes[] = {0, 1, kChunk - 1, kChunk, kChunk + 1, 3 * kChunk * 8 + 5, 40000};
    for (bool flat : {false, true})
        for (int n : {1, 2, 3, 5, 8}) {
            Group s(n);
            run_forked(n, [&](int rank) {
                Engine e = engine_for(s, rank, flat);
                std::vector<uint8_t> buf;
                int round = 0;
                for (size_t bytes : sizes)
                    for (int root = 0; root < n; ++root, ++round) {
                        buf.assign(bytes + 1, 0xEE);
                        if (rank == root)
                            for (size_t i = 0; i < bytes; ++i) buf[i] = pattern(root, i, round);
                        CHILD_CHECK(e.bcast(buf.data(), bytes, root, 0) == 0);
                        for (size_t i = 0; i < bytes; ++i)
                            CHILD_CHECK(buf[i] == pattern(root, i, round));
                        CHILD_CHECK(buf[bytes] == 0xEE);  // nothing past the message
                    }
                return 0;
            });
        }
}

// The single-copy protocol: the root publishes its buffer, the others read it, the root leaves
// only after. The test's "single copy" reads through the shared mapping (the root's buffer is
// in it, at the same address in every forked process), and counts the reads.
TEST(ShmEngine, BcastBySingleCopyReadsTheRootsBufferOnce) {
    const int n = 4;
    Group s(n);
    auto *reads = reinterpret_cast<uint64_t *>(s.scratch());
    uint8_t *root_bufs = s.scratch() + 64;
    static uint64_t *g_reads;
    g_reads = reads;
    SingleCopy copy{[](void *, int32_t, uint64_t addr, void *dst, size_t len) {
                        std::memcpy(dst, reinterpret_cast<const void *>(addr), len);
                        plexus::sdk::fetch_add_acq_rel(*g_reads, uint64_t{1});
                        return 0;
                    },
                    nullptr};
    run_forked(n, [&](int rank) {
        Engine e = engine_for(s, rank, true, copy);
        const size_t bytes = 100000;
        for (int root = 0; root < n; ++root) {
            uint8_t *mine = rank == root ? root_bufs : nullptr;
            std::vector<uint8_t> local(bytes, 0);
            uint8_t *buf = mine ? mine : local.data();
            if (rank == root)
                for (size_t i = 0; i < bytes; ++i) buf[i] = pattern(root, i, 1);
            CHILD_CHECK(e.bcast(buf, bytes, root, 4096) == 0);
            for (size_t i = 0; i < bytes; ++i) CHILD_CHECK(buf[i] == pattern(root, i, 1));
            e.barrier();
        }
        CHILD_CHECK(plexus::sdk::load_acquire(*reads) == uint64_t(n) * (n - 1));
        return 0;
    });
}

TEST(ShmEngine, ReduceKeepsRankOrderAcrossChunksAndRoots) {
    // 8 Affine items fill a 64-byte slot: up to 8 one barrier (direct), beyond two per chunk.
    const size_t counts[] = {1, 7, 8, 9, 100};
    for (bool flat : {false, true})
        for (int n : {1, 2, 3, 4, 7}) {
            Group s(n);
            run_forked(n, [&](int rank) {
                Engine e = engine_for(s, rank, flat);
                for (size_t count : counts)
                    for (int root = -1; root < n; ++root) {
                        std::vector<Affine> in(count), out(count, Affine{-1, -1});
                        for (size_t i = 0; i < count; ++i) in[i] = item_of(rank, i);
                        CHILD_CHECK(e.reduce(in.data(), out.data(), count, sizeof(Affine),
                                             Combine{compose, nullptr}, root) == 0);
                        if (root >= 0 && rank != root) {
                            CHILD_CHECK(out[0].m == -1);  // untouched outside the root
                            continue;
                        }
                        for (size_t i = 0; i < count; ++i) {
                            Affine want = item_of(n - 1, i);
                            for (int r = n - 2; r >= 0; --r) {
                                Affine a = item_of(r, i);
                                compose(nullptr, &a, &want, 1);
                            }
                            CHILD_CHECK(out[i].m == want.m && out[i].c == want.c);
                        }
                    }
                return 0;
            });
        }
}

TEST(ShmEngine, GatherAndScatterMoveEveryBlockThroughChunks) {
    const size_t blocks[] = {0, 1, kChunk, kChunk + 3, 500};
    const bool flat = true;
    for (int n : {1, 2, 3, 6, 8}) {
        Group s(n);
        run_forked(n, [&](int rank) {
            Engine e = engine_for(s, rank, flat);
            int round = 0;
            for (size_t block : blocks)
                for (int root = -1; root < n; ++root, ++round) {
                    std::vector<uint8_t> in(block), out(block * n + 1, 0xEE);
                    for (size_t i = 0; i < block; ++i) in[i] = pattern(rank, i, round);
                    CHILD_CHECK(e.gather(in.data(), block, out.data(), root) == 0);
                    if (root < 0 || rank == root) {
                        for (int r = 0; r < n; ++r)
                            for (size_t i = 0; i < block; ++i)
                                CHILD_CHECK(out[static_cast<size_t>(r) * block + i] ==
                                            pattern(r, i, round));
                        CHILD_CHECK(out[block * n] == 0xEE);
                    }
                    if (root < 0) continue;
                    // Scatter back from the root: block r to rank r.
                    std::vector<uint8_t> all(block * n), mine(block, 0);
                    if (rank == root)
                        for (int r = 0; r < n; ++r)
                            for (size_t i = 0; i < block; ++i)
                                all[static_cast<size_t>(r) * block + i] = pattern(r + 50, i, round);
                    CHILD_CHECK(e.scatter(all.data(), block, mine.data(), root) == 0);
                    for (size_t i = 0; i < block; ++i)
                        CHILD_CHECK(mine[i] == pattern(rank + 50, i, round));
                }
            return 0;
        });
    }
}

TEST(ShmEngine, ScattervMovesBlocksOfTheirOwnLengths) {
    for (int n : {1, 2, 4, 7}) {
        Group s(n);
        run_forked(n, [&](int rank) {
            Engine e = engine_for(s, rank, true);
            for (int root = 0; root < n; ++root) {
                std::vector<size_t> bytes(static_cast<size_t>(n));
                size_t total = 0;
                for (int r = 0; r < n; ++r)
                    total += bytes[static_cast<size_t>(r)] =
                        static_cast<size_t>((r * 53 + root * 11) % 200);
                std::vector<uint8_t> all(total), mine(bytes[static_cast<size_t>(rank)] + 1, 0xEE);
                if (rank == root) {
                    size_t at = 0;
                    for (int r = 0; r < n; ++r)
                        for (size_t i = 0; i < bytes[static_cast<size_t>(r)]; ++i)
                            all[at++] = pattern(r, i, root);
                }
                CHILD_CHECK(e.scatterv(all.data(), bytes.data(), mine.data(), root) == 0);
                for (size_t i = 0; i < bytes[static_cast<size_t>(rank)]; ++i)
                    CHILD_CHECK(mine[i] == pattern(rank, i, root));
                CHILD_CHECK(mine[bytes[static_cast<size_t>(rank)]] == 0xEE);
            }
            return 0;
        });
    }
}

// Calls of different kinds back to back reuse the two slot sets without any other
// synchronisation: a fast process's next write never lands in a set a slow one still reads.
TEST(ShmEngine, MixedCallsBackToBackNeverOverwriteUnreadSlots) {
    const int n = 6;
    for (bool flat : {false, true}) {
        Group s(n);  // fresh flags: generations start again at 0
        run_forked(n, [&](int rank) {
            Engine e = engine_for(s, rank, flat);
            for (int round = 0; round < 300; ++round) {
                const int root = round % n;
                std::vector<uint8_t> b(kChunk * n * 2 + 3);
                if (rank == root)
                    for (size_t i = 0; i < b.size(); ++i) b[i] = pattern(root, i, round);
                CHILD_CHECK(e.bcast(b.data(), b.size(), root, 0) == 0);
                for (size_t i = 0; i < b.size(); ++i) CHILD_CHECK(b[i] == pattern(root, i, round));
                std::vector<uint8_t> g(static_cast<size_t>(n) * 10);
                uint8_t mine[10];
                for (size_t i = 0; i < 10; ++i) mine[i] = pattern(rank, i, round);
                CHILD_CHECK(e.gather(mine, 10, g.data(), -1) == 0);
                for (int r = 0; r < n; ++r)
                    for (size_t i = 0; i < 10; ++i)
                        CHILD_CHECK(g[static_cast<size_t>(r) * 10 + i] == pattern(r, i, round));
            }
            return 0;
        });
    }
}

// The union of an inter-communicator's two groups (inter_local.h): processes [0, na) are one
// group, [na, n) the other. Exchanges in which each group reads the other's slots (Allreduce's
// combine in rank order, Alltoall's blocks), back to back with nothing else between the calls
// but a barrier now and then: nobody may overwrite a slot that another still reads.
TEST(ShmEngine, UnionPhasesCarryEachGroupsDataToTheOther) {
    for (auto [na, nb] : {std::pair{1, 3}, {2, 2}, {3, 5}, {1, 1}}) {
        const int n = na + nb;
        Group s(n);
        run_forked(n, [&](int rank) {
            Engine e = engine_for(s, rank, n % 2 == 0);
            const bool in_a = rank < na;
            const int mine_lo = in_a ? 0 : na, other_lo = in_a ? na : 0;
            const int other_n = in_a ? nb : na, local = rank - mine_lo;
            for (int round = 0; round < 200; ++round) {
                // Allreduce: the other group's vectors in its rank order.
                const size_t items = 1 + round % 7;
                std::vector<Affine> in(items), out(items);
                for (size_t i = 0; i < items; ++i) in[i] = item_of(rank + round, i);
                CHILD_CHECK(e.exchange(in.data(), items * sizeof(Affine), other_lo,
                                       other_lo + other_n, [&](auto slot_of) {
                                           std::memcpy(out.data(), slot_of(other_lo + other_n - 1),
                                                       items * sizeof(Affine));
                                           for (int i = other_lo + other_n - 2; i >= other_lo; --i)
                                               compose(nullptr, slot_of(i), out.data(), items);
                                           return 0;
                                       }) == 0);
                for (size_t i = 0; i < items; ++i) {
                    Affine want = item_of(other_lo + other_n - 1 + round, i);
                    for (int r = other_lo + other_n - 2; r >= other_lo; --r) {
                        const Affine a = item_of(r + round, i);
                        compose(nullptr, &a, &want, 1);
                    }
                    CHILD_CHECK(out[i].m == want.m && out[i].c == want.c);
                }
                // Alltoall: block j of my send buffer goes to process j of the other group.
                const size_t block = 1 + round % 5;
                std::vector<uint8_t> send(block * other_n), got(block * other_n, 0);
                for (int j = 0; j < other_n; ++j)
                    for (size_t i = 0; i < block; ++i)
                        send[j * block + i] = pattern(rank, i + 100 * j, round);
                CHILD_CHECK(e.exchange(send.data(), send.size(), other_lo, other_lo + other_n,
                                       [&](auto slot_of) {
                                           for (int j = 0; j < other_n; ++j)
                                               std::memcpy(got.data() + j * block,
                                                           slot_of(other_lo + j) + local * block,
                                                           block);
                                           return 0;
                                       }) == 0);
                for (int j = 0; j < other_n; ++j)
                    for (size_t i = 0; i < block; ++i)
                        CHILD_CHECK(got[j * block + i] ==
                                    pattern(other_lo + j, i + 100 * local, round));
                if (round % 50 == 49) e.barrier();
            }
            return 0;
        });
    }
}

// The union's rooted calls (Engine::pass, lend, borrow, and exchange with one side writing):
// Bcast and Reduce between a root of one group and the other group, while the rest of the
// root's group only passes, back to back for many rounds with no barrier between them, so that
// the passing processes run ahead. The root rewrites its buffer as soon as lend() returns: a
// reader that had not finished reading would see the next round's bytes.
TEST(ShmEngine, UnionRootedCallsKeepPassingProcessesInStep) {
    for (auto [na, nb] : {std::pair{1, 3}, {2, 2}, {3, 5}}) {
        const int n = na + nb;
        Group s(n);
        const size_t big = 3 * kChunk + 5;
        SingleCopy copy{[](void *, int32_t, uint64_t addr, void *dst, size_t len) {
                            std::memcpy(dst, reinterpret_cast<const void *>(addr), len);
                            return 0;
                        },
                        nullptr};
        run_forked(n, [&](int rank) {
            Engine e = engine_for(s, rank, true, copy);
            for (int round = 0; round < 300; ++round) {
                const bool root_in_a = round % 2 == 0;
                const int root_lo = root_in_a ? 0 : na, root_n = root_in_a ? na : nb;
                const int other_lo = root_in_a ? na : 0, other_n = root_in_a ? nb : na;
                const int root = root_lo + round % root_n;
                const bool reader = rank >= other_lo && rank < other_lo + other_n;
                const size_t bytes = round % 3 == 0 ? big : 1 + round % kChunk;
                if (round % 3 == 0) {  // a large Bcast by single copy
                    if (rank == root) {
                        // The root's own buffer, in the shared map so that a read finds it.
                        uint8_t *lent = s.scratch() + static_cast<size_t>(rank) * big;
                        for (size_t i = 0; i < bytes; ++i) lent[i] = pattern(root, i, round);
                        e.lend(lent, bytes, other_lo, other_lo + other_n);
                        std::memset(lent, 0xee, bytes);
                    } else if (reader) {
                        std::vector<uint8_t> got(bytes, 0);
                        CHILD_CHECK(e.borrow(root, got.data(), bytes) == 0);
                        for (size_t i = 0; i < bytes; ++i)
                            CHILD_CHECK(got[i] == pattern(root, i, round));
                    } else {
                        e.pass();
                    }
                } else if (round % 3 == 1) {  // a small Bcast through the root's slot
                    std::vector<uint8_t> data(bytes);
                    for (size_t i = 0; i < bytes; ++i) data[i] = pattern(root, i, round);
                    if (rank == root) {
                        const int rc = e.exchange(data.data(), bytes, 0, 0, [](auto) { return 0; });
                        CHILD_CHECK(rc == 0);
                    } else if (reader) {
                        std::vector<uint8_t> got(bytes, 0);
                        CHILD_CHECK(e.exchange(nullptr, 0, root, root + 1, [&](auto slot_of) {
                            std::memcpy(got.data(), slot_of(root), bytes);
                            return 0;
                        }) == 0);
                        CHILD_CHECK(got == data);
                    } else {
                        e.pass();
                    }
                } else {  // a Reduce: the other group writes, the root combines in its rank order
                    const size_t items = 1 + round % 5;
                    std::vector<Affine> in(items), out(items);
                    for (size_t i = 0; i < items; ++i) in[i] = item_of(rank + round, i);
                    const int lo = other_lo, hi = other_lo + other_n;
                    if (rank == root) {
                        CHILD_CHECK(e.exchange(nullptr, 0, lo, hi, [&](auto slot_of) {
                            std::memcpy(out.data(), slot_of(hi - 1), items * sizeof(Affine));
                            for (int i = hi - 2; i >= lo; --i)
                                compose(nullptr, slot_of(i), out.data(), items);
                            return 0;
                        }) == 0);
                        for (size_t i = 0; i < items; ++i) {
                            Affine want = item_of(hi - 1 + round, i);
                            for (int r = hi - 2; r >= lo; --r) {
                                const Affine a = item_of(r + round, i);
                                compose(nullptr, &a, &want, 1);
                            }
                            CHILD_CHECK(out[i].m == want.m && out[i].c == want.c);
                        }
                    } else if (reader) {
                        CHILD_CHECK(e.exchange(in.data(), items * sizeof(Affine), 0, 0,
                                               [](auto) { return 0; }) == 0);
                    } else {
                        e.pass();
                    }
                }
            }
            e.barrier();
            return 0;
        });
    }
}
