// The engine's single-copy paths (shm_single_copy.cc) in forked processes that read and write
// each other's private buffers by Cross Memory Attach, as the processes of a node do through the
// core's services: reduce-scatter-then-write reductions in rank order (a non-commutative
// operation) at every root and in place, with stripes and pieces of every shape; the rooted
// Reduce written into the root; gathers,
// allgathers and scatters; mixed back to back with the slot paths (the phases stay in step);
// buffers never touched past their ends, and a buffer's owner never leaving while it is used;
// the relayed Bcast of an inter-communicator, reading a process outside the group.
#include <gtest/gtest.h>

#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>


#include <plexus/sdk/shared_word.hpp>

#include "components/coll_shm_inter/shm_engine.h"
#include "forked_group.h"

using namespace plexus::coll_shm_inter;
using shm_test::run_forked;
using shm_test::SharedMap;

namespace {

constexpr size_t kChunk = 64;

int cma_read(void *, int32_t pid, uint64_t addr, void *dst, size_t len) {
    iovec local{dst, len}, remote{reinterpret_cast<void *>(addr), len};
    return process_vm_readv(pid, &local, 1, &remote, 1, 0) == static_cast<ssize_t>(len) ? 0 : 1;
}

int cma_write(void *, int32_t pid, uint64_t addr, const void *src, size_t len) {
    iovec local{const_cast<void *>(src), len}, remote{reinterpret_cast<void *>(addr), len};
    return process_vm_writev(pid, &local, 1, &remote, 1, 0) == static_cast<ssize_t>(len) ? 0 : 1;
}

struct Group {
    Layout layout;
    SharedMap map;  // the segment, then room for the test's own shared words
    explicit Group(int n) : layout(make_layout(n, kChunk)), map(layout.total_bytes() + 4096) {}
    uint64_t *words() const {
        return reinterpret_cast<uint64_t *>(map.base() + layout.total_bytes());
    }
};

Engine engine_for(const Group &s, int rank) {
    // Siblings may read each other wherever Yama restricts ptrace to descendants.
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    std::vector<int> order(static_cast<size_t>(s.layout.procs));
    for (int i = 0; i < s.layout.procs; ++i) order[static_cast<size_t>(i)] = i;
    Engine e(s.map.base(), s.layout, rank, binomial_tree(order), spin_waiter(),
             SingleCopy{cma_read, nullptr, cma_write}, 64);
    e.control(rank).pid = static_cast<int32_t>(getpid());
    return e;
}

uint8_t pattern(int who, size_t i, int round) {
    return static_cast<uint8_t>(who * 31 + i * 7 + round * 13 + 1);
}

// Affine maps x -> m x + c mod 65521 composed: not commutative, so a wrong order shows.
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
Affine item_of(int rank, size_t i, int round) {
    return Affine{int32_t((rank * 17 + i * 3 + round) % 1000 + 2), int32_t(rank * 5 + i + round)};
}
Affine want_of(int n, size_t i, int round) {
    Affine want = item_of(n - 1, i, round);
    for (int r = n - 2; r >= 0; --r) {
        Affine a = item_of(r, i, round);
        compose(nullptr, &a, &want, 1);
    }
    return want;
}

#define CHILD_CHECK(cond)                                                                    \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "rank %d: %s:%d: %s failed\n", rank, __FILE__, __LINE__, #cond); \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

}  // namespace

TEST(ShmSingleCopy, StripesMatchTheEngineSplit) {
    for (size_t n : {0, 1, 7, 8, 9, 1000})
        for (int p : {1, 2, 3, 8}) {
            size_t at = 0;
            for (int r = 0; r < p; ++r) {
                const auto [lo, hi] = stripe(n, r, p);
                EXPECT_EQ(lo, at);
                EXPECT_LE(hi - lo, n / static_cast<size_t>(p) + 1);
                at = hi;
            }
            EXPECT_EQ(at, n);
        }
}

// Counts fewer than the processes (empty stripes), a stripe of several 64 KiB pieces, and the
// operation's order, at every root, into a separate result and in place.
TEST(ShmSingleCopy, ReduceKeepsRankOrderAtEveryRootAndInPlace) {
    const size_t counts[] = {1, 3, 1000, 40000};
    for (int n : {1, 2, 3, 5}) {
        Group s(n);
        run_forked(n, [&](int rank) {
            Engine e = engine_for(s, rank);
            CHILD_CHECK(e.single_copy());
            int round = 0;
            for (size_t count : counts)
                for (int root = -1; root < n; ++root)
                    for (bool in_place : {false, true}) {
                        ++round;
                        const bool gets = root < 0 || rank == root;
                        std::vector<Affine> in(count), out(count + 1, Affine{-1, -1});
                        for (size_t i = 0; i < count; ++i) in[i] = item_of(rank, i, round);
                        const void *src = in.data();
                        if (in_place && gets) {
                            std::memcpy(out.data(), in.data(), count * sizeof(Affine));
                            src = out.data();
                        }
                        CHILD_CHECK(e.reduce_by_single_copy(src, gets ? out.data() : nullptr, count,
                                                            sizeof(Affine),
                                                            Combine{compose, nullptr}, root) == 0);
                        // Inputs are never written.
                        for (size_t i = 0; i < count && src == in.data(); ++i)
                            CHILD_CHECK(in[i].m == item_of(rank, i, round).m);
                        CHILD_CHECK(out[count].m == -1);  // nothing past the end
                        if (!gets) {
                            CHILD_CHECK(out[0].m == -1);
                            continue;
                        }
                        for (size_t i = 0; i < count; ++i) {
                            const Affine want = want_of(n, i, round);
                            CHILD_CHECK(out[i].m == want.m && out[i].c == want.c);
                        }
                    }
            return 0;
        });
    }
}

// The rooted Reduce by writes into the root: every root, into a separate result and in place,
// in rank order; non-roots' buffers untouched; nothing written past the root's result; and
// back to back, so a non-root that left at once never overwrites what the root still combines.
TEST(ShmSingleCopy, ReduceAtRootKeepsRankOrderAtEveryRootAndInPlace) {
    const size_t counts[] = {1, 3, 1000, 40000};
    for (int n : {1, 2, 3, 5}) {
        Group s(n);
        run_forked(n, [&](int rank) {
            Engine e = engine_for(s, rank);
            int round = 0;
            for (size_t count : counts)
                for (int root = 0; root < n; ++root)
                    for (bool in_place : {false, true}) {
                        ++round;
                        const bool gets = rank == root;
                        std::vector<Affine> in(count), out(count + 1, Affine{-1, -1});
                        for (size_t i = 0; i < count; ++i) in[i] = item_of(rank, i, round);
                        const void *src = in.data();
                        if (in_place && gets) {
                            std::memcpy(out.data(), in.data(), count * sizeof(Affine));
                            src = out.data();
                        }
                        CHILD_CHECK(e.reduce_at_root_by_single_copy(
                                        src, gets ? out.data() : nullptr, count, sizeof(Affine),
                                        Combine{compose, nullptr}, root) == 0);
                        for (size_t i = 0; i < count && src == in.data(); ++i)
                            CHILD_CHECK(in[i].m == item_of(rank, i, round).m &&
                                        in[i].c == item_of(rank, i, round).c);
                        CHILD_CHECK(out[count].m == -1);
                        if (!gets) {
                            CHILD_CHECK(out[0].m == -1);
                            continue;
                        }
                        for (size_t i = 0; i < count; ++i) {
                            const Affine want = want_of(n, i, round);
                            CHILD_CHECK(out[i].m == want.m && out[i].c == want.c);
                        }
                    }
            return 0;
        });
    }
}

// Items larger than a slot (which the segment's path cannot combine) reduce by single copy.
TEST(ShmSingleCopy, ReduceTakesItemsLargerThanASlot) {
    const int n = 3;
    struct Big {
        Affine a[20];  // 160 bytes > the 64-byte slot
    };
    Group s(n);
    run_forked(n, [&](int rank) {
        Engine e = engine_for(s, rank);
        const auto big_compose = [](void *, const void *in, void *inout, size_t items) {
            return compose(nullptr, in, inout, items * 20);
        };
        std::vector<Big> in(7), out(7);
        for (size_t i = 0; i < 7; ++i)
            for (size_t k = 0; k < 20; ++k) in[i].a[k] = item_of(rank, i * 20 + k, 0);
        CHILD_CHECK(e.reduce_by_single_copy(in.data(), out.data(), 7, sizeof(Big),
                                            Combine{big_compose, nullptr}, -1) == 0);
        for (size_t i = 0; i < 7; ++i)
            for (size_t k = 0; k < 20; ++k) {
                const Affine want = want_of(n, i * 20 + k, 0);
                CHILD_CHECK(out[i].a[k].m == want.m && out[i].a[k].c == want.c);
            }
        return 0;
    });
}

TEST(ShmSingleCopy, GatherAllgatherAndScatterMoveEveryBlock) {
    const size_t blocks[] = {1, 100, 70000};
    for (int n : {1, 2, 4, 7}) {
        Group s(n);
        run_forked(n, [&](int rank) {
            Engine e = engine_for(s, rank);
            int round = 0;
            for (size_t block : blocks)
                for (int root = -1; root < n; ++root, ++round) {
                    std::vector<uint8_t> in(block), out(block * n + 1, 0xEE);
                    for (size_t i = 0; i < block; ++i) in[i] = pattern(rank, i, round);
                    const bool gets = root < 0 || rank == root;
                    CHILD_CHECK(e.gather_by_single_copy(in.data(), block,
                                                        gets ? out.data() : nullptr, root) == 0);
                    if (gets) {
                        for (int r = 0; r < n; ++r)
                            for (size_t i = 0; i < block; ++i)
                                CHILD_CHECK(out[static_cast<size_t>(r) * block + i] ==
                                            pattern(r, i, round));
                    }
                    CHILD_CHECK(out[block * n] == 0xEE);
                    if (root < 0) continue;
                    std::vector<uint8_t> all(block * n), mine(block + 1, 0xEE);
                    if (rank == root)
                        for (size_t i = 0; i < all.size(); ++i)
                            all[i] = pattern(root + 50, i, round);
                    CHILD_CHECK(e.scatter_by_single_copy(all.data(), block, mine.data(), root) ==
                                0);
                    for (size_t i = 0; i < block; ++i)
                        CHILD_CHECK(mine[i] == pattern(root + 50,
                                                       static_cast<size_t>(rank) * block + i,
                                                       round));
                    CHILD_CHECK(mine[block] == 0xEE);
                }
            return 0;
        });
    }
}

// Single-copy calls mixed with slot calls back to back, each buffer freed (and its memory reused
// for the next call's data) as soon as its call returns: a process that left early never finds
// its buffer still read, and the phase numbers stay in step across both kinds.
TEST(ShmSingleCopy, MixedWithSlotCallsBackToBack) {
    const int n = 4;
    Group s(n);
    run_forked(n, [&](int rank) {
        Engine e = engine_for(s, rank);
        for (int round = 0; round < 200; ++round) {
            const int root = round % n;
            {
                std::vector<uint8_t> b(5000);
                if (rank == root)
                    for (size_t i = 0; i < b.size(); ++i) b[i] = pattern(root, i, round);
                CHILD_CHECK(e.bcast(b.data(), b.size(), root, round % 2 ? 1 : 0) == 0);
                for (size_t i = 0; i < b.size(); ++i) CHILD_CHECK(b[i] == pattern(root, i, round));
            }
            {
                std::vector<Affine> in(50), out(50);
                for (size_t i = 0; i < 50; ++i) in[i] = item_of(rank, i, round);
                const int r = round % 3 == 0 ? -1 : root;
                CHILD_CHECK(e.reduce_by_single_copy(in.data(), out.data(), 50, sizeof(Affine),
                                                    Combine{compose, nullptr}, r) == 0);
                if (r < 0 || rank == r)
                    for (size_t i = 0; i < 50; ++i) CHILD_CHECK(out[i].m == want_of(n, i, round).m);
            }
            {
                std::vector<Affine> in(70), out(70);
                for (size_t i = 0; i < 70; ++i) in[i] = item_of(rank, i, round);
                CHILD_CHECK(e.reduce_at_root_by_single_copy(in.data(), out.data(), 70,
                                                            sizeof(Affine),
                                                            Combine{compose, nullptr}, root) == 0);
                if (rank == root)
                    for (size_t i = 0; i < 70; ++i) CHILD_CHECK(out[i].c == want_of(n, i, round).c);
            }
            {
                std::vector<uint8_t> mine(30), all(30 * n);
                for (size_t i = 0; i < 30; ++i) mine[i] = pattern(rank, i, round);
                CHILD_CHECK(e.gather_by_single_copy(mine.data(), 30, all.data(), root) == 0);
                if (rank == root)
                    for (size_t i = 0; i < all.size(); ++i)
                        CHILD_CHECK(all[i] == pattern(static_cast<int>(i / 30), i % 30, round));
            }
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

// An inter-communicator Bcast whose root shares the node: the group's root relays another
// process's buffer (its pid and address) and every member reads it from there in the same phase
// as an ordinary single-copy Bcast; the owner of the buffer may free it once the relay returns.
TEST(ShmSingleCopy, BcastRelayReadsAnotherProcesssBuffer) {
    const int n = 3;
    const size_t bytes = 300000;
    Group s(n);
    uint64_t *words = s.words();  // [0] pid, [1] address, [2] 1 once published, [3] relay done
    using plexus::sdk::load_acquire;
    using plexus::sdk::store_release;
    run_forked(n + 1, [&](int rank) {
        if (rank == n) {  // the other group's root: not a member of the engine's group
            prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
            std::vector<uint8_t> buf(bytes);
            for (size_t i = 0; i < bytes; ++i) buf[i] = pattern(9, i, 3);
            words[0] = static_cast<uint64_t>(getpid());
            words[1] = reinterpret_cast<uint64_t>(buf.data());
            store_release(words[2], uint64_t{1});
            while (load_acquire(words[3]) == 0) usleep(100);
            return 0;
        }
        Engine e = engine_for(s, rank);
        std::vector<uint8_t> buf(bytes + 1, 0xEE);
        for (int round = 0; round < 3; ++round) {
            std::fill(buf.begin(), buf.end() - 1, uint8_t{0});
            if (rank == 0) {
                while (load_acquire(words[2]) == 0) usleep(100);
                CHILD_CHECK(e.bcast_relay(buf.data(), bytes, static_cast<int32_t>(words[0]),
                                          words[1]) == 0);
            } else {
                CHILD_CHECK(e.bcast_by_copy(bytes, 1));
                CHILD_CHECK(e.bcast(buf.data(), bytes, 0, 1) == 0);
            }
            for (size_t i = 0; i < bytes; ++i) CHILD_CHECK(buf[i] == pattern(9, i, 3));
            CHILD_CHECK(buf[bytes] == 0xEE);
        }
        e.barrier();
        if (rank == 0) store_release(words[3], uint64_t{1});
        return 0;
    });
}
