// The layout of a process's shared segment, described by its own header so that a peer needs
// nothing but the mapping to find its parts:
//
//   header            magic, version, size, owner, the offsets below; the attach counter and
//                     the granted-box count each on a cache line of their own
//   directory         one entry per process attached (a free slot taken by CAS, freed again
//                     once that process ended and this one deleted it):
//                     the core's descriptor of its own segment (plexus/shm.h); the slot is how
//                     FIFO descriptors name segments
//   FIFO              the MPSC receive FIFO (plexus/sdk/shm_fifo.hpp)
//   eager fragments   this process's small fragments (frag_pool.h)
//   max fragments     this process's large fragments (pipelined rendezvous)
//   fast boxes        the rings this process grants to senders (fastbox.h)
//
// The core keeps a header page of its own before all this (plexus/shm.h); offsets here count from
// the usable bytes. Offsets are 32-bit (a segment is below 4 GiB), every part starts on a cache line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <plexus/shm.h>

#include "sm_sdk.h"

namespace plexus::btl_sm {

constexpr uint64_t kSegmentMagic = 0x474553534d584c50ull;  // "PLXMSSEG"
constexpr uint32_t kSegmentVersion = 4;  // 4: directory slots taken by CAS and given back

// DirEntry::ready: free (0), taken by an attacher writing the entry, ready to be read.
constexpr uint32_t kDirFree = 0;
constexpr uint32_t kDirReady = 1;
constexpr uint32_t kDirClaimed = 2;

struct DirEntry {
    uint32_t ready;  // kDirReady once the rest is written (release); kDirFree again once its process ended
    uint32_t reserved;
    plexus_shm_desc_t segment;  // the attacher's own segment, for attaching back
    uint8_t pad[8];
};
static_assert(sizeof(DirEntry) == 128);

struct SegmentHeader {
    uint64_t magic;
    uint32_t version;
    uint32_t reserved0;
    uint64_t size;
    int32_t owner_pid;
    uint32_t reserved1;
    uint32_t dir_off, dir_cap;
    uint32_t fifo_off, fifo_cap;
    uint32_t eager_off, eager_count, eager_stride;
    uint32_t max_off, max_count, max_stride;
    uint32_t box_off, box_count, box_stride, box_ring;
    alignas(kCacheLine) uint32_t attached;  // attaches ever made (diagnostics)
    alignas(kCacheLine) uint32_t boxes_granted;  // written by the owner, peeked at by senders
};

// What the owner wants room for.
struct LayoutRequest {
    uint32_t dir_cap;
    uint32_t fifo_cap;       // power of two
    uint32_t eager_count;
    uint32_t eager_capacity; // data bytes per eager fragment
    uint32_t max_count;
    uint32_t max_capacity;   // data bytes per max fragment
    uint32_t box_count;
    uint32_t box_ring;       // power of two
};

// Fills every field but attached/boxes_granted; false (and *why) when it exceeds 4 GiB.
bool compute_layout(const LayoutRequest &req, size_t page_size, SegmentHeader *out, std::string *why);

// A peer's header checked against the size it mapped: magic, version, owner and that every part
// lies inside. false and *why when not.
bool check_header(const SegmentHeader &h, uint64_t mapped_size, int32_t expected_pid, std::string *why);

inline DirEntry *directory(uint8_t *base, const SegmentHeader &h) {
    return reinterpret_cast<DirEntry *>(base + h.dir_off);
}

}  // namespace plexus::btl_sm
