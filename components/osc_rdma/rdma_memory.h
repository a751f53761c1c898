// The window memory table: every member's base, size, disp_unit, window id and the handles of
// its memory with each BTL that can put/get, as the allgather at window creation delivered them.
// It answers the origin's questions: is an access inside the target's window (else MPI_ERR_DISP),
// at which address, and with which handle for the BTL of the path used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <plexus/btl.h>

namespace plexus::osc_rdma {

inline constexpr int kMaxHandles = 4;
inline constexpr size_t kBtlNameBytes = 24;

// One member's entry, exchanged as bytes (a fixed size: the allgather moves equal blocks).
struct PeerMemory {
    uint64_t base = 0;
    uint64_t size = 0;
    int32_t disp_unit = 1;
    uint32_t win_id = 0;
    uint32_t handles = 0;
    uint32_t flags = 0;  // kMayIssueRma, kAsyncWanted
    // For passive target without the target (rdma_async.h): the process, and a word of its
    // memory with a value the others read by single copy to prove they may.
    int32_t pid = 0;
    uint32_t reserved = 0;
    uint64_t probe_addr = 0;
    uint64_t probe_value = 0;
    struct Handle {
        char btl[kBtlNameBytes];  // the BTL component's name, NUL-terminated
        plexus_btl_mem_handle_t mem;
    } handle[kMaxHandles];
};

// This process may write or read peers' windows by put/get (the protocol setting allows rma and
// one of its BTLs has put or get).
inline constexpr uint32_t kMayIssueRma = 1;
// This process would take passive target through the shared segment (osc_rdma_async_progress on,
// every member on this node, single copy permitted here): only when every member says so is the
// segment made.
inline constexpr uint32_t kAsyncWanted = 2;

// Adds a handle to an entry; false when it already has kMaxHandles or the name is too long.
bool add_handle(PeerMemory *entry, const char *btl_name, const plexus_btl_mem_handle_t &mem);

// What the target side of one access covers, from its layout: the bytes from
// disp * disp_unit + lb on, span bytes long (true_extent + (count - 1) * extent).
struct Access {
    int64_t disp = 0;
    int64_t lb = 0;
    uint64_t span = 0;
};

class MemoryTable {
public:
    explicit MemoryTable(std::vector<PeerMemory> entries) : peers_(std::move(entries)) {}

    int size() const { return int(peers_.size()); }
    const PeerMemory &at(int rank) const { return peers_[size_t(rank)]; }

    // 0 when the access lies inside rank's window, else PLEXUS_OSC_ERR_DISP with why saying
    // what lies where.
    int check(int rank, const Access &a, std::string *why) const;
    // Byte displacement of disp in rank's window.
    uint64_t byte_disp(int rank, int64_t disp) const { return uint64_t(disp) * uint64_t(at(rank).disp_unit); }
    // Whether any member may put/get into any other's memory: the same answer at every process,
    // from the same table.
    bool rma_anywhere() const;
    // The handle rank registered with btl_name, NULL when none.
    const plexus_btl_mem_handle_t *handle(int rank, const char *btl_name) const;

private:
    std::vector<PeerMemory> peers_;
};

}  // namespace plexus::osc_rdma
