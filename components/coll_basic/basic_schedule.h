// Pure arithmetic of the coll_basic schedules: powers of two, the folding of a communicator onto a
// power of two, block partitions of a vector and the index rotations of Bruck. No communication
// here, so the unit tests (components/coll_basic/tests/test_coll_basic_schedule.cc) check it exhaustively.
#pragma once

#include <cstddef>
#include <vector>

namespace plexus::coll_basic {

// Largest power of two <= n (n >= 1).
constexpr int pof2_floor(int n) {
    int p = 1;
    while (p * 2 <= n) p *= 2;
    return p;
}

// Number of rounds of a dissemination / Bruck schedule on n processes: ceil(log2 n).
constexpr int ceil_log2(int n) {
    int k = 0;
    while ((1 << k) < n) ++k;
    return k;
}

// The folding of n ranks onto pof2 = pof2_floor(n) "new ranks" used by recursive doubling and
// halving: of the first 2 * rem ranks (rem = n - pof2) the even ones hand their data to the odd
// one above them and sit out; new rank i < rem is rank 2i + 1, new rank i >= rem is rank i + rem.
// The map keeps rank order, which non-commutative reductions need.
struct Fold {
    int size;
    int pof2;
    int rem;

    explicit constexpr Fold(int n) : size(n), pof2(pof2_floor(n)), rem(n - pof2_floor(n)) {}
    // -1 for a rank that sits out.
    constexpr int new_rank(int rank) const {
        if (rank < 2 * rem) return rank % 2 ? rank / 2 : -1;
        return rank - rem;
    }
    constexpr int old_rank(int new_rank) const { return new_rank < rem ? 2 * new_rank + 1 : new_rank + rem; }
};

// A partition of a vector of items into consecutive blocks: block i is [disp[i], disp[i]+count[i]).
struct Partition {
    std::vector<int> count;
    std::vector<int> disp;

    int blocks() const { return static_cast<int>(count.size()); }
    // Items of the consecutive blocks [first, last).
    int span_count(int first, int last) const {
        return first >= last ? 0 : disp[last - 1] + count[last - 1] - disp[first];
    }
};

// count items in n blocks as equal as possible, the first count % n blocks one item larger.
Partition even_partition(int count, int n);

// The partition of n ranks' blocks (counts[r] items for rank r, consecutive in rank order) seen
// from the folded new ranks: a new rank standing for ranks 2i and 2i + 1 owns both blocks.
Partition folded_partition(const Fold &fold, const int counts[]);

// Recursive-halving ownership: after the halving steps with masks pof2/2 .. mask, new rank r owns
// the aligned group of `mask` consecutive blocks that contains block r: [first, first + mask).
constexpr int aligned_group(int r, int mask) { return r & ~(mask - 1); }

// Bruck (alltoall): before the rounds, rank r puts the block for rank (r + i) % n at slot i; in the
// round with bit k it sends the slots with bit k set to (r + 2^k) % n; after the rounds slot i holds
// the block from rank (r - i) mod n.
constexpr int bruck_send_slot_peer(int rank, int slot, int n) { return (rank + slot) % n; }
constexpr int bruck_recv_slot_source(int rank, int slot, int n) { return ((rank - slot) % n + n) % n; }
// The slots a Bruck round with bit `bit` moves (in increasing order).
std::vector<int> bruck_round_slots(int n, int bit);

// Binomial tree on relative ranks 0 .. n-1 rooted at 0: the parent of r > 0 clears its lowest set
// bit; its children are r + m for the powers of two m below that bit (all of them for r = 0) and
// r + m < n. subtree_size is how many relative ranks r's subtree covers ([r, r + size)).
constexpr int lowest_bit(int r) { return r & -r; }
constexpr int binomial_parent(int r) { return r - lowest_bit(r); }
constexpr int binomial_subtree_size(int r, int n) {
    int span = r == 0 ? pof2_floor(n) * 2 : lowest_bit(r);
    return r + span > n ? n - r : span;
}

// Chains (the pipeline bcast): relative ranks 1 .. n-1 in `fanout` chains of consecutive ranks,
// each at most chain_length long; the root heads every chain, every other rank passes on to the
// next rank of its chain. chain_parent: -1 for the root. chain_child: -1 for the end of a chain.
// The root's children are 1, 1 + L, 1 + 2L, ... below n (L = chain_length).
constexpr int chain_length(int n, int fanout) { return n <= 1 ? 0 : (n - 1 + fanout - 1) / fanout; }
constexpr int chain_parent(int rel, int n, int fanout) {
    if (rel == 0) return -1;
    return (rel - 1) % chain_length(n, fanout) == 0 ? 0 : rel - 1;
}
constexpr int chain_child(int rel, int n, int fanout) {
    const int len = chain_length(n, fanout);
    if (rel == 0 || rel + 1 >= n || (rel - 1) % len + 1 >= len) return -1;
    return rel + 1;
}

}  // namespace plexus::coll_basic
