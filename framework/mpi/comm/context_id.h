// Context ids: the number the PML matches messages by (one per communicator). Every process
// keeps the ids in use locally in a bitmap; a new communicator takes an id free at every member
// (context_agreement.h), so two communicators that share a process never share an id there.
// 0 and 1 are MPI_COMM_WORLD and MPI_COMM_SELF. The bitmap grows, so the number of live
// communicators is bounded by memory (one bit each), and freed ids are taken again, lowest first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plexus::mpi {

class ContextIdAllocator {
public:
    static constexpr uint32_t kWorld = 0;
    static constexpr uint32_t kSelf = 1;
    static constexpr uint32_t kFirstFree = 2;

    ContextIdAllocator();

    bool in_use(uint32_t id) const;
    // The lowest id >= from not in use here.
    uint32_t lowest_free(uint32_t from = 0) const;
    // The ids [base, base + 64 * words) free here, one bit each (bit i of word w: base + 64w + i).
    void free_window(uint32_t base, size_t words, uint64_t *out) const;
    // A local id (for objects that only this process uses): the lowest free, now in use.
    uint32_t take_lowest();
    // Marks id in use; false when it already was (the caller's agreement went wrong).
    bool reserve(uint32_t id);
    // Gives id back; false when it was not in use.
    bool release(uint32_t id);
    // Ids in use, including the two predefined ones.
    size_t live() const { return live_; }
    // Bits of bitmap currently allocated (a measure of growth for tests).
    size_t capacity() const { return used_.size() * 64; }
    // Back to the state after construction (MPI_Finalize).
    void reset();

private:
    std::vector<uint64_t> used_;
    size_t live_ = 0;
    size_t first_word_with_free_ = 0;  // every word before it is full
};

}  // namespace plexus::mpi
