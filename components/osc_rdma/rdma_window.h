// One osc_rdma window: the module the MPI layer calls. The origin side queues or issues each
// operation by the protocol chosen for it (rdma_origin.cc), the synchronisation calls follow the
// paper (rdma_sync.cc), the target side applies what arrives (rdma_target.cc), and every message
// leaves through one ordered outbox per peer (rdma_send.cc).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <plexus/osc.h>
#include <plexus/sdk/progress.hpp>

#include "rdma_async.h"
#include "rdma_coalescer.h"
#include "rdma_counters.h"
#include "rdma_lock_queue.h"
#include "rdma_memory.h"
#include "rdma_params.h"
#include "rdma_protocol.h"
#include "rdma_wire.h"

namespace plexus::osc_rdma {

// This process's window memory registered with one BTL; deregistered when it goes.
class MemRegistration {
public:
    MemRegistration(plexus_btl_module_t *btl, const plexus_btl_mem_handle_t &h) : btl_(btl), handle_(h) {}
    MemRegistration(const MemRegistration &) = delete;
    MemRegistration &operator=(const MemRegistration &) = delete;
    ~MemRegistration() { btl_->deregister_mem(btl_, &handle_); }
    plexus_btl_module_t *btl() const { return btl_; }
    const plexus_btl_mem_handle_t &handle() const { return handle_; }

private:
    plexus_btl_module_t *btl_;
    plexus_btl_mem_handle_t handle_;
};

// An operation as the user called it, kept until the epoch lets it start (or, for sendrecv, until
// the synchronisation that closes the epoch).
struct PendingOp {
    OpKind kind;
    const void *origin;
    void *result;  // get: where the data go
    int origin_count;
    plexus_coll_dtype_t *origin_type;
    int64_t disp;
    int target_count;
    plexus_coll_dtype_t *target_type;
    plexus_coll_op_t *op;
    plexus_coll_dtype_info_t oi;  // the layouts, asked once per operation
    plexus_coll_dtype_info_t ti;
};

enum class LockState { kNone, kRequested, kGranted };

// A get waiting for its replies.
struct PendingGet {
    int target;
    void *origin;
    int origin_count;
    plexus_coll_dtype_t *origin_type;
    bool contiguous;      // the origin layout is one block from origin + lb
    ptrdiff_t lb;
    uint64_t total;
    uint64_t received = 0;
};

// Records of the next fence epoch that arrived before this process's fence ended.
struct EarlyData {
    int src;
    MsgHeader h;
    std::vector<uint8_t> body;
};

// A BTL put/get that could not start yet (the BTL said AGAIN).
struct DeferredRma {
    bool is_put;
    void *local;
    size_t len;
    uint64_t remote_addr;
};

class Window;

// Puts of at least this many bytes (that fit one message) travel in a message of their own, the
// payload gathered by the BTL from the origin buffer (rdma_send.cc).
inline constexpr size_t kDirectPutBytes = 4096;

// Everything this process keeps about one member of the window.
struct Peer {
    Window *win = nullptr;
    int rank = 0;
    plexus_osc_path_t send_path{};
    plexus_osc_path_t rma_path{};  // btl NULL: no put/get to this peer
    const plexus_btl_mem_handle_t *rma_handle = nullptr;
    std::unique_ptr<Coalescer> outbox;
    std::deque<std::vector<uint8_t>> deferred;  // messages the BTL had no room for yet, in order
    std::deque<DeferredRma> deferred_rma;
    std::vector<PendingOp> queued;
    uint32_t rma_outstanding = 0;
    uint32_t gets_outstanding = 0;
    int rma_error = 0;
    // access side
    uint32_t posts = 0;  // post messages from this peer not yet used by a complete
    bool in_access_group = false;
    LockState lock = LockState::kNone;
    int lock_type = 0;
    bool direct = false;       // this lock epoch goes through the shared segment (rdma_direct.cc)
    bool direct_held = false;  // and holds the target's lock word (not with MPI_MODE_NOCHECK)
    // Contiguous puts (or gets) of the direct epoch not moved yet: one single copy for all of them
    // at unlock (MPI lets them complete as late as that; the origin buffers stay untouched until).
    std::vector<plexus_shm_iovec_t> batch_local;
    std::vector<Run> batch_remote;
    bool batch_write = false;
    bool unlock_done = false;
    // Contiguous gets (or large puts) of a fence or PSCW epoch in a window with single copy
    // (rdma_epoch_copy.cc), moved together at the epoch's end; their bytes in all; and what went
    // to it by message this epoch (puts or accumulates, gets), which later operations must not
    // overtake.
    std::vector<PendingOp> copies;
    bool copies_write = false;
    uint64_t copy_bytes = 0;
    bool sent_writes = false;
    bool sent_reads = false;
    // fences of a two-process window (rdma_sync.cc)
    uint8_t closing = 0;         // the next data message to it ends an epoch (kFlagFenceEnd ...)
    uint32_t await_fence = 0;    // not 0: it may still apply our records of the fence epoch that
                                 // ended as our fence count reached this: no put/get to it yet
    bool done_queried = false;   // kFenceQuery sent for await_fence, kFenceDone not back yet
    // exposure side
    bool in_exposure_group = false;
};

class Window {
public:
    Window(const plexus_osc_scope_t &scope, const Config &config, const plexus_host_api_t *host);
    ~Window();
    Window(const Window &) = delete;
    Window &operator=(const Window &) = delete;

    int init(void **base);
    int free_window();

    int put(const void *origin, int ocount, plexus_coll_dtype_t *otype, int target, ptrdiff_t disp, int tcount,
            plexus_coll_dtype_t *ttype);
    int get(void *origin, int ocount, plexus_coll_dtype_t *otype, int target, ptrdiff_t disp, int tcount,
            plexus_coll_dtype_t *ttype);
    int accumulate(const void *origin, int ocount, plexus_coll_dtype_t *otype, int target, ptrdiff_t disp,
                   int tcount, plexus_coll_dtype_t *ttype, plexus_coll_op_t *op);

    int fence(int assert_bits);
    int start(int n, const int ranks[], int assert_bits);
    int complete();
    int post(int n, const int ranks[], int assert_bits);
    int wait();
    int test(int *flag);
    int lock(int lock_type, int target, int assert_bits);
    int unlock(int target);

    // From the receive callback: one message of this window.
    void on_message(uint32_t src_proc, const MsgHeader &h, const uint8_t *body, size_t len);
    void receive(int src, const MsgHeader &h, const uint8_t *body, size_t len);
    // The progress callback: deferred sends, operations a grant released, loopback messages.
    int progress();

    // For tests: which protocol an operation to target would take.
    Protocol protocol_for(int target, const OpShape &op) const;
    const MemoryTable *memory() const { return table_.get(); }

private:
    // Applies the messages to this process (from progress, and a fence of two before its message).
    int drain_loopback();
    // origin (rdma_origin.cc)
    int start_op(const char *call, PendingOp op, int target);
    int put_small(Peer &p, const void *origin, plexus_coll_dtype_t *otype, ptrdiff_t disp, int tcount,
                  plexus_coll_dtype_t *ttype, bool *done);
    int issue(int target, const PendingOp &op);
    int issue_message(int target, const PendingOp &op);
    int issue_rma(Peer &p, const PendingOp &op, size_t bytes, ptrdiff_t origin_lb, ptrdiff_t target_lb);
    int issue_buffered(Peer &p, const PendingOp &op, Protocol proto);
    int issue_queued(Peer &p);
    int epoch_allows_now(const Peer &p) const;
    bool in_access_epoch(const Peer &p) const;
    int check_access(const char *call, int target, int64_t disp, int tcount, const plexus_coll_dtype_info_t &ti,
                     size_t *bytes);
    int encode_type(plexus_coll_dtype_t *type, std::vector<uint8_t> *out);

    // sync (rdma_sync.cc)
    int finish_access(Peer &p);
    int complete_rma(Peer &p);
    int fence_direct(int assert_bits);
    int fence_collective(int assert_bits);
    int close_epoch(Peer &p, uint8_t flag);
    void on_epoch_end(int src, const MsgHeader &h);
    int assemble_accumulate(int src, const RecordView &r, uint8_t *at);
    void answer_done_queries();
    void query_done(Peer &p);
    int wait_for(bool (*done)(Window *, void *), void *ctx);
    int poll_once();
    int exchange_counts(const std::vector<uint32_t> &sent, std::vector<uint32_t> *received);
    int end_exposure_if_done(bool *done);
    void deliver_grant(Peer &p);

    // passive target without the target (rdma_direct.cc)
    int setup_async();
    int lock_direct(Peer &p, int lock_type, int assert_bits);
    int unlock_direct(Peer &p);
    int direct_op(const char *call, const PendingOp &op, int target);
    int flush_direct(Peer &p, const char *call);
    int direct_accumulate(const char *call, const PendingOp &op, int target, const std::vector<Run> &runs,
                          uint8_t *image, uint64_t at, __int128 lo, size_t span);
    int direct_move(const char *call, int target, const std::vector<Run> &runs, uint8_t *image, uint64_t at,
                    bool write);
    int direct_accumulate_plain(const char *call, const PendingOp &op, int target, uint64_t at);

    // gets and large puts of fence and PSCW epochs by one single copy (rdma_epoch_copy.cc)
    bool copy_allowed(const Peer &p, OpKind kind, size_t bytes) const;
    bool copyable(const Peer &p, const PendingOp &op) const;
    bool copy_pays_alone(const PendingOp &op) const;
    bool lone_fence_get(const Peer &p, const std::vector<PendingOp> &ops, uint64_t total) const;
    int defer_copy(Peer &p, const PendingOp &op);
    int flush_copies(Peer &p);
    int copies_as_messages(Peer &p, const std::vector<PendingOp> &ops);

    // target (rdma_target.cc)
    void on_data(int src, const MsgHeader &h, const uint8_t *body, size_t len);
    bool ahead_of_this_fence(const MsgHeader &h) const;
    void apply_early();
    int apply_record(int src, const RecordView &r);
    int apply_accumulate(const RecordView &r, uint8_t *at);
    void answer_get(int src, const RecordView &r);
    void on_get_reply(const MsgHeader &h, const uint8_t *body, size_t len);
    void lock_events(const LockEvents &ev);

    // sending (rdma_send.cc)
    int send_control(int target, MsgKind kind, uint32_t count, uint8_t lock_type = 0, uint32_t aux = 0,
                     uint8_t flags = 0);
    int send_message(Peer &p, const std::vector<uint8_t> &msg);
    int send_put_direct(Peer &p, uint64_t disp, const uint8_t *src, size_t len);
    int sink(Peer &p, std::vector<uint8_t> &msg, uint32_t records);
    bool try_send(Peer &p, const std::vector<uint8_t> &msg);
    void drain_deferred(Peer &p);
    int start_rma(Peer &p, const DeferredRma &op);
    EpochTag epoch_tag(const Peer &p) const;

    void trace(int level, const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 3, 4)))
#endif
        ;
    int fail(int cls, const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 3, 4)))
#endif
        ;

    friend struct WindowTestAccess;

    const plexus_osc_services_t *svc_;
    const plexus_host_api_t *host_;
    plexus_osc_win_t *win_;
    plexus_coll_comm_t *comm_;
    Config config_;
    int rank_;
    int size_;
    int flavor_;
    int local_peers_;
    void *base_;
    uint64_t bytes_;
    int disp_unit_;
    bool allocated_ = false;
    uint32_t id_ = 0;
    bool registered_ = false;

    std::vector<std::unique_ptr<MemRegistration>> registrations_;
    std::unique_ptr<MemoryTable> table_;
    std::vector<Peer> peers_;
    SentCounts sent_;
    ReceivedCounts received_;
    LockQueue lock_queue_;
    std::unordered_map<uint32_t, PendingGet> gets_;
    uint32_t next_get_ = 1;
    std::deque<std::pair<int, std::vector<uint8_t>>> loopback_;  // messages to this process
    std::vector<EarlyData> early_;
    std::vector<int> exposure_;
    std::vector<uint8_t> control_;  // a header-only message being sent (send_control, close_epoch)

    // Two processes (or one): a fence is one message each way, carrying the count (rdma_sync.cc).
    bool direct_fence_ = false;
    uint32_t fence_ends_[2] = {0, 0};  // kFlagFenceEnd messages received, per fence parity
    std::vector<std::pair<int, uint32_t>> done_queries_;  // (rank, fence count) to answer
    int verbose_ = 0;  // osc_base_verbose, read once per window
    bool fence_open_ = false;
    bool fence_barrier_ = false;  // put/get may be used in this window: fences end with a barrier
    unsigned fence_epoch_ = 0;
    bool access_open_ = false;   // between start and complete
    bool access_nocheck_ = false;  // start with MPI_MODE_NOCHECK: the posts happened, none is sent
    uint32_t next_acc_ = 1;        // accumulates with items larger than a message, assembled at the target
    struct Assembly {
        std::vector<uint8_t> bytes;  // the accumulate's packed data
        uint64_t got = 0;
    };
    std::map<std::pair<int, uint32_t>, Assembly> assembling_;  // by (origin, id)
    bool exposure_open_ = false; // between post and wait/test
    int locks_held_ = 0;
    bool in_progress_ = false;
    // Passive target without the target (osc_rdma_async_progress): set when every member took part.
    std::unique_ptr<AsyncPassive> async_;
    uint64_t probe_word_ = 0;  // read by the others' single-copy probe (PeerMemory::probe_addr)
    plexus::sdk::ProgressRegistration progress_reg_;
};

}  // namespace plexus::osc_rdma
