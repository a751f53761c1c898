// Passive target that needs nothing of the target (osc_rdma_async_progress on), for windows whose
// members all share this node, over any memory (MPI_Win_create on malloc'd or static buffers
// too, which osc_sm cannot map). A small control segment per window (the core's shm facility:
// 0600, named from the job's prefix or anonymous) holds, per member, its window's lock and its
// accumulate lock, fair ticket locks (plexus/sdk/ticket_rwlock.hpp) that origins take and release
// themselves; the data of a lock epoch move by single copy (process_vm_readv/writev through the
// host's shm services) between the origin's buffers and the target's memory, an accumulate as a
// read, the operation here and a write back under the target's accumulate lock. Lock, put, get,
// accumulate and unlock then complete while the target computes outside MPI.
//
// Between nodes there is no such path: the paper's passive target by messages remains (the target
// must enter MPI), because the library has no thread-safe progress yet (README "Progress").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <plexus/component.h>
#include <plexus/osc.h>
#include <plexus/shm.h>
#include <plexus/sdk/ticket_rwlock.hpp>

#include "rdma_memory.h"

namespace plexus::osc_rdma {

// The segment: a header, then a slot of one cache line per member.
struct AsyncSlot {
    plexus::sdk::TicketRwWords lock;  // MPI_Win_lock / MPI_Win_unlock of the member's window
    plexus::sdk::TicketRwWords acc;   // one accumulate at a time into the member's window
    uint8_t pad[32];
};
static_assert(sizeof(AsyncSlot) == 64, "one cache line per member");

struct AsyncHeader {
    uint64_t magic;
    uint32_t members;
    uint32_t reserved;
    uint8_t pad[48];
};

inline constexpr uint64_t kAsyncMagic = 0x434e5941414d4452ull;  // "RDMAAYNC"

// What this process needs to take part: the shm services with single copy, and permission to use
// it here (which also lets the node's peers read and write this process: the core's
// allow_node_peers). false with why otherwise.
bool async_possible(const plexus_host_api_t *host, std::string *why);

// Polls pred, then through the host's progress engine (spin, yield, sleep: a node may have more
// ranks than cores, and the holder of a lock must get to run). 0 or the engine's error.
template <class Pred>
int wait_shared(const plexus_host_api_t *host, Pred &&pred) {
    for (int i = 0; i < 64; ++i) {
        if (pred()) return PLEXUS_SUCCESS;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    using P = std::remove_reference_t<Pred>;
    return host->progress_wait([](void *c) -> int { return (*static_cast<P *>(c))() ? 1 : 0; },
                               &pred, -1);
}

// Bytes of one target access, as runs in the target process (its addresses), in memory order.
struct Run {
    uint64_t addr;
    uint64_t len;
};

class AsyncPassive {
public:
    AsyncPassive(const plexus_host_api_t *host, const plexus_osc_services_t *svc,
                 plexus_coll_comm_t *comm, int rank, int size);
    ~AsyncPassive();
    AsyncPassive(const AsyncPassive &) = delete;
    AsyncPassive &operator=(const AsyncPassive &) = delete;

    // Collective over the window's communicator, once every member's PeerMemory said
    // kAsyncWanted: rank 0 makes the segment and sends its descriptor, the others attach, every
    // member reads every other's probe word by single copy, and all learn whether everyone
    // succeeded. PLEXUS_OSC_SUCCESS with ready() true, or false and *why; an error class when a
    // collective failed.
    int setup(const MemoryTable &members, std::string *why);
    bool ready() const { return ready_; }

    int lock(int target, bool exclusive);
    void unlock(int target, bool exclusive);
    int lock_accumulate(int target);
    void unlock_accumulate(int target);

    // Moves bytes between local runs and the target's runs (the same total). 0, or the host's
    // error with *why.
    int copy(int target, const plexus_shm_iovec_t *local, size_t nlocal, const Run *remote,
             size_t nremote, bool write, std::string *why);

private:
    AsyncSlot &slot(int target) { return reinterpret_cast<AsyncSlot *>(header_ + 1)[target]; }
    int make_or_attach(std::string *why);
    bool probe_all(const MemoryTable &members, std::string *why);

    const plexus_host_api_t *host_;
    const plexus_shm_services_t *shm_;
    const plexus_osc_services_t *svc_;
    plexus_coll_comm_t *comm_;
    int rank_;
    int size_;
    plexus_shm_segment_t *segment_ = nullptr;
    AsyncHeader *header_ = nullptr;
    std::vector<int32_t> pids_;
    // Each peer's /proc/PID/mem, opened once after its probe succeeded (-1: not open): a short
    // transfer of one run is a pread/pwrite there, where process_vm_readv/writev looks the process
    // up and checks the permission again on every call (rdma_async.cc).
    std::vector<int> mem_fds_;  // shared per process (rdma_async.cc), released by the destructor
    bool ready_ = false;
};

}  // namespace plexus::osc_rdma
