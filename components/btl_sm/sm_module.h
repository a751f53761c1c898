// The btl_sm module of one process: its segment (FIFO, fragments, granted fast boxes), its
// endpoints, and the data path: send (fast box, else a fragment through the peer's FIFO),
// progress (fast boxes in use, then the FIFO head), single copy by CMA, fast-channel control.
// One per process, created by open() and destroyed by close(); single-threaded (FUNNELED).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <plexus/btl.h>
#include <plexus/shm.h>

#include "frag_pool.h"
#include "sm_sdk.h"
#include "sm_control.h"
#include "sm_endpoint.h"
#include "sm_params.h"
#include "sm_payload.h"

namespace plexus::btl_sm {

class SmModule;

// The C module struct with a way back to its owner (standard layout, so the cast is exact).
struct ModuleHandle {
    plexus_btl_module_t api;
    SmModule *self;
};

class SmModule {
public:
    SmModule(const plexus_host_api_t *host, const plexus_component_t *self, const SmParams &params);
    ~SmModule();
    SmModule(const SmModule &) = delete;
    SmModule &operator=(const SmModule &) = delete;

    // Creates the segment and puts the card. PLEXUS_ERR_NOT_AVAILABLE / BAD_PARAM + why.
    int open(plexus_reason_t *why);
    plexus_btl_module_t *api() { return &handle_.api; }
    static SmModule *from(plexus_btl_module_t *m) { return reinterpret_cast<ModuleHandle *>(m)->self; }

    int add_procs(size_t n, const plexus_btl_proc_t *procs, plexus_btl_endpoint_t **eps);
    int del_procs(size_t n, plexus_btl_endpoint_t *const *eps);
    // BTL 1.5: never once deleted: a deleted peer's messages are kept (deliver) and handed up
    // only under the id add_procs gives its process again.
    bool holds_proc(uint32_t) const { return false; }
    int register_recv(uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx);

    int send(Endpoint *ep, uint8_t tag, const void *hdr, size_t hlen, const void *payload, size_t plen) {
        return send(ep, tag, bytes_payload(hdr, hlen, payload, plen));
    }
    // send_pack (BTL 1.2): the payload is packed by the upper layer into the record or fragment.
    int send_pack(Endpoint *ep, uint8_t tag, const void *hdr, size_t hlen, plexus_btl_pack_fn_t pack, void *ctx,
                  size_t offset, size_t plen) {
        if ((hlen && !hdr) || (plen && !pack)) return PLEXUS_ERR_BAD_PARAM;
        return send(ep, tag, packed_payload(hdr, hlen, pack, ctx, offset, plen));
    }
    int send(Endpoint *ep, uint8_t tag, const Payload &p) {
        if (ep->out.state == OutState::Active && p.len() <= ep->out.max_message &&
            (ep->fifo_unread.empty() || peer_read_fifo(ep)) &&
            ep->out.writer.write_with(tag, p.len(), [&p](uint8_t *dst) { p.write_to(dst); })) {
            ++fast_sends_;
            return PLEXUS_SUCCESS;
        }
        return send_slow(ep, tag, p);
    }

    int register_mem(void *base, size_t len, plexus_btl_mem_handle_t *out);
    int deregister_mem(plexus_btl_mem_handle_t *handle);
    int rdma(Endpoint *ep, void *local, size_t len, const plexus_btl_mem_handle_t *remote,
             uint64_t remote_addr, plexus_btl_rdma_done_fn_t done, void *ctx, bool write);

    int fast_channel(Endpoint *ep, plexus_btl_fast_op_t op);
    plexus_btl_fast_state_t fast_channel_state(const Endpoint *ep) const;
    int fast_channel_stats(plexus_btl_fast_stats_t *out) const;
    size_t fragments_in_flight() const;
    // Times a stall of the receivers lowered rdma_threshold (sm_stall.cc; diagnostics and tests).
    uint64_t stall_switches() const { return stall_switches_; }
    // Peers whose segment this process still maps, and deleted peers whose process ended and
    // whose slot and mapping were given back (sm_release.cc; diagnostics and tests).
    size_t mapped_peers() const;
    uint64_t peers_released() const { return peers_released_; }
    // Endpoint objects held: a released peer's is freed with its mapping (diagnostics and tests).
    size_t endpoints() const { return endpoints_.size(); }

    // Fast boxes in use, then the FIFO head, then (rarely) housekeeping; never blocks.
    int progress();

private:
    struct Handler {
        plexus_btl_recv_fn_t fn = nullptr;
        void *ctx = nullptr;
    };
    struct InBox {
        BoxReader reader;
        Endpoint *from;
        uint32_t index;
    };
    struct QueuedControl {
        Endpoint *ep;
        uint8_t tag;
        std::vector<uint8_t> body;
    };

    int send_slow(Endpoint *ep, uint8_t tag, const Payload &p);
    int send_frag(Endpoint *ep, uint8_t tag, uint8_t kind, const Payload &p);
    // Delivers what ep's fast box holds (before a FIFO fragment of ep's, and when ep drops the
    // box: sm_progress.cc); returns the box's position in in_boxes_ (its size when ep has none).
    size_t drain_box_of(Endpoint *ep);
    // Forgets the oldest of ep->fifo_unread that the peer has read; true when none is left.
    static bool peer_read_fifo(Endpoint *ep);
    void send_control(Endpoint *ep, uint8_t tag, const void *body, size_t len);
    void request_box(Endpoint *ep);
    // sm_stall.cc: a send found no free fragment; rendezvous goes by single copy for a while
    // once receivers have drained none for btl_sm_single_copy_stall.
    void note_no_fragment();
    void end_stall_hold();

    int poll_box(size_t i);
    int poll_fifo();
    int housekeep();
    void deliver(Endpoint *ep, uint8_t tag, const void *data, size_t len);
    void handle_control(Endpoint *ep, uint8_t tag, const uint8_t *data, size_t len);
    void grant_or_refuse(Endpoint *ep);
    void on_grant(Endpoint *ep, const BoxGrant &g);
    void take_back_box(Endpoint *ep, uint32_t index);
    void update_housekeeping();
    // sm_release.cc: deleted peers (del_procs) whose process has ended give back their slot in
    // this segment's directory, the fast box granted to them and the mapping of their segment,
    // so that a process that spawns and disconnects jobs for ever keeps neither.
    int release_ended_peers();
    void release(Endpoint *ep);

    Endpoint *resolve_slot(uint32_t slot);
    Endpoint *find_by_segment(uint64_t tag) const;
    std::unique_ptr<Endpoint> attach(const plexus_shm_desc_t &where, std::string *why);
    Endpoint *add_one(const plexus_btl_proc_t &proc);
    void probe_cma(Endpoint *ep, uint64_t addr, uint64_t value);
    void maybe_unlink();
    bool create_segment(plexus_reason_t *why);
    void fill_api();
    SingleCopyWindow single_copy_window_for(const plexus_job_info_t &job) const;

    // ---- hot: progress and send ----
    std::vector<InBox> in_boxes_;
    FifoConsumer fifo_;
    bool housekeeping_ = true;  // unlink pending, control queued or deferred messages
    bool in_progress_ = false;
    std::vector<Endpoint *> by_slot_;  // directory slot -> endpoint
    Handler handlers_[PLEXUS_BTL_TAG_COUNT];
    FragPool eager_;
    FragPool max_;
    uint64_t fast_sends_ = 0;
    uint64_t slow_sends_ = 0;
    uint32_t frag_stamp_ = 0;  // the stamp of the last fragment handed out
    int64_t stall_since_ns_ = 0;  // first send that found no free fragment since one came back

    // ---- cold ----
    const plexus_host_api_t *host_;
    const plexus_component_t *self_;
    SmParams params_;
    ModuleHandle handle_{};
    const plexus_shm_services_t *shm_ = nullptr;  // the core's (host API 1.3)
    ShmSegment segment_;
    plexus_shm_desc_t segment_desc_{};  // what peers attach it by
    SegmentHeader *header_ = nullptr;
    std::string node_;
    int32_t pid_ = 0;
    std::string nspace_;
    uint32_t rank_ = 0;
    uint32_t expected_attachers_ = 0;
    bool cma_ = false;  // single_copy=cma and the kernel allows it
    uint64_t rdma_threshold_ = 0;  // single_copy_threshold, or its oversubscribed value
    uint64_t rdma_limit_ = 0;      // single_copy_limit, or 0 (none) on an oversubscribed node
    bool cma_failure_logged_ = false;
    int64_t single_copy_until_ns_ = 0;  // rdma_threshold lowered after a stall until then (0: not)
    int64_t stall_hold_ns_ = kStallHoldNs;  // how long, doubled while stalls keep coming back
    int64_t stall_hold_ended_ns_ = 0;       // when the last hold ended
    uint64_t stall_switches_ = 0;
    bool progress_registered_ = false;
    volatile uint64_t probe_word_ = 0;
    std::vector<std::unique_ptr<Endpoint>> endpoints_;
    std::map<std::pair<std::string, uint32_t>, Endpoint *> by_proc_;
    std::vector<uint32_t> free_boxes_;
    uint32_t boxes_granted_ = 0;
    std::deque<QueuedControl> control_queue_;
    std::vector<Endpoint *> released_;  // deleted, their process perhaps still running
    int64_t next_release_check_ns_ = 0;
    uint64_t peers_released_ = 0;
    bool deferred_ready_ = false;
    bool unhandled_warned_[PLEXUS_BTL_TAG_COUNT] = {};
};

}  // namespace plexus::btl_sm
