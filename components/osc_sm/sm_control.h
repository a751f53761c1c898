// The state one window shares between the processes of a node: one control block per member, in
// memory the member allocated with MPI_Alloc_mem and every other member maps. A block describes
// its owner as a target (its passive-target lock, its accumulate lock, the MPI_Win_complete calls
// aimed at it) and as an origin (the MPI_Win_post calls each target made to it); rank 0's block
// also holds the fence barrier. Only lock-free atomics live here, so processes share them.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include <plexus/sdk/ticket_rwlock.hpp>

namespace plexus::osc_sm {

static_assert(std::atomic<uint64_t>::is_always_lock_free, "the control block needs lock-free 64-bit atomics");
static_assert(std::atomic<uint32_t>::is_always_lock_free, "the control block needs lock-free 32-bit atomics");

constexpr uint64_t kControlMagic = 0x4c4f52544e4f4353ull;  // "SCONTROL"

struct ControlBlock {
    uint64_t magic;
    uint32_t ranks;  // entries of posts[]
    uint32_t owner;  // the owner's rank in the window
    // Reader-writer lock of the owner's window, fair (plexus/sdk/ticket_rwlock.hpp):
    // MPI_Win_lock / MPI_Win_unlock.
    alignas(64) plexus::sdk::TicketRwWords lock;
    // Accumulates into the owner's window take it one at a time (sm_spinlock.h).
    alignas(64) std::atomic<uint32_t> acc;
    // MPI_Win_complete calls that named the owner, ever (MPI_Win_wait counts them).
    alignas(64) std::atomic<uint64_t> completes;
    // The fence barrier (rank 0's block serves the window): arrivals and the generation.
    alignas(64) std::atomic<uint64_t> arrived;
    std::atomic<uint64_t> generation;
    // posts[t]: MPI_Win_post calls of target t that named the owner as an origin, ever.
    alignas(64) std::atomic<uint64_t> posts[1];
};

// Target t's post counter in c (the array runs past its declared length: control_bytes).
inline std::atomic<uint64_t> &post_counter(ControlBlock *c, uint32_t t) { return *(&c->posts[0] + t); }

// Bytes of the control block of a window of n members.
constexpr size_t control_bytes(uint32_t n) {
    return offsetof(ControlBlock, posts) + sizeof(std::atomic<uint64_t>) * (n ? n : 1);
}

// Lays a fresh block out at mem (control_bytes(n) bytes, any prior content).
ControlBlock *init_control(void *mem, uint32_t n, uint32_t owner);

// Whether mem looks like a block init_control made for n members (a peer's, once mapped).
bool control_valid(const ControlBlock *c, uint32_t n);

}  // namespace plexus::osc_sm
