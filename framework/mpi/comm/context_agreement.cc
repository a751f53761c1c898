// The context-id agreement loop.
#include "mpi/comm/context_agreement.h"

#include <bit>

#include "mpi.h"

namespace plexus::mpi {

namespace {

// Appends the set bits of window (ids from base on) to out, up to count ids.
void take_bits(const uint64_t *window, uint64_t base, size_t count, std::vector<uint32_t> *out) {
    for (size_t w = 0; w < kWindowWords && out->size() < count; ++w)
        for (uint64_t bits = window[w]; bits && out->size() < count; bits &= bits - 1)
            out->push_back(static_cast<uint32_t>(base + 64 * w + std::countr_zero(bits)));
}

}  // namespace

int agree_context_ids(ContextIdAllocator &ids, AgreementChannel &channel, size_t count, std::vector<uint32_t> *out) {
    out->clear();
    const uint64_t lowest = ids.lowest_free(ContextIdAllocator::kFirstFree);
    // First try: the window at each process's own lowest free id, rounded down to a word, with
    // the anchor and its complement in front. The AND gives both back unchanged only when every
    // process used the same anchor; then the AND of the windows is valid.
    uint64_t first[2 + kWindowWords];
    const uint64_t anchor = lowest & ~uint64_t{63};
    first[0] = anchor;
    first[1] = ~anchor;
    ids.free_window(static_cast<uint32_t>(anchor), kWindowWords, first + 2);
    if (int rc = channel.allreduce(first, 2 + kWindowWords, ReduceOp::BitAnd)) return rc;
    uint64_t base;
    if (first[1] == ~first[0]) {
        take_bits(first + 2, first[0], count, out);
        base = first[0] + kWindowBits;
    } else {
        // Anchors differ: no id below the largest lowest free id is free everywhere.
        base = lowest;
        if (int rc = channel.allreduce(&base, 1, ReduceOp::Max)) return rc;
    }
    while (out->size() < count) {
        uint64_t window[kWindowWords];
        ids.free_window(static_cast<uint32_t>(base), kWindowWords, window);
        if (int rc = channel.allreduce(window, kWindowWords, ReduceOp::BitAnd)) return rc;
        // Ids found in an earlier window stay free: nothing else takes ids while we agree.
        take_bits(window, base, count, out);
        base += kWindowBits;
    }
    for (uint32_t id : *out) ids.reserve(id);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi
