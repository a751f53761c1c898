// The PML's state: per-peer sequence numbers and queues, per-context matching queues, and the
// work that waits for BTL resources. Shared by the send, receive and rendezvous files.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "mpi.h"
#include "mpi/bml/bml.h"
#include "mpi/pml/intrusive_list.h"
#include "mpi/pml/match_queues.h"
#include "mpi/pml/pml.h"
#include "mpi/pml/pml_protocol.h"

namespace plexus::mpi {

// A match message that arrived ahead of its sequence number.
struct Stashed {
    uint8_t tag;
    std::vector<uint8_t> bytes;  // header and payload
};

// A small control message (CTS, FIN, ACK) the BTL had no room for.
struct Control {
    uint32_t proc;
    uint8_t tag;
    uint8_t len;
    uint8_t bytes[sizeof(wire::CtsHeader)];
};

struct PeerState {
    uint32_t send_seq = 0;
    uint32_t recv_seq = 0;
    BmlPeer *bml = nullptr;
    RequestList blocked;             // sends waiting for BTL resources, in order
    // Early arrivals by sequence number. A sender flooding a receiver overflows its fast box
    // into the FIFO and back, so thousands can wait here: finding the next must not be a scan.
    std::unordered_map<uint32_t, Stashed> stash;
    // Sequence numbers of messages their sender cancelled before they reached us: dropped when
    // they arrive (pml_cancel.cc).
    std::unordered_set<uint32_t> cancelled;
};

// A sender's registration of its buffer for the receiver's get.
struct RdmaRegistration {
    plexus_btl_module_t *btl;
    plexus_btl_mem_handle_t handle;
};

// The receive buffer a CTS offered for put (pml_put_rest.cc), kept by the streaming sender.
struct PutTarget {
    plexus_btl_mem_handle_t handle;
    uint64_t addr;          // where the receive buffer starts
    Pml::Impl *pml;         // for the put's completion callback
    size_t in_flight = 0;   // bytes of the put under way (0: none)
    bool switched = false;  // the rest of the transfer goes by put
};

// Request states (Request::pml.state).
enum SendState : uint8_t {
    kSendNew = 0,
    kSendBlocked,   // on its peer's blocked list
    kSendWaitAck,   // synchronous eager: waiting for the match
    kSendWaitRndv,  // RTS sent: waiting for CTS or FIN
    kSendStreaming, // CTS received: fragments going out
    kSendFlushing,  // all handed to the BTL, which still holds some for the peer (pending_to)
};
enum RecvState : uint8_t {
    kRecvPosted = 0,
    kRecvFrags,    // matched an RTS; fragments arriving
    kRecvGetting,  // matched an RTS; get in flight or waiting to be retried
};

struct Pml::Impl {
    Impl(ProcTable &procs, std::unique_ptr<Bml> bml);

    // --- send side (pml_send.cc) ---
    int start_send(Request *r);
    bool try_send(Request *r, PeerState &p);  // false: BTL out of resources
    bool send_eager(Request *r, PeerState &p);
    bool send_rts(Request *r, PeerState &p);
    bool stream_fragments(Request *r);
    void on_cts(const wire::CtsHeader &h);
    void on_fin(uint64_t cookie);
    void on_ack(uint64_t cookie);
    void finish_streaming(Request *r);
    void finish_send(Request *r);
    void retire_send(Request *r);
    bool flushed(const Request *r);

    // --- a receiver that stops draining fragments (pml_put_rest.cc) ---
    bool receiver_stalled(Request *r, const BmlPeer &bp) const;
    bool put_rest(Request *r);
    void on_put_written(Request *r, int status);
    void give_up_put(Request *r);

    // --- receive side (pml_recv.cc) ---
    int start_recv(Request *r);
    void on_match_message(uint8_t tag, uint32_t proc, const void *data, size_t len);
    void deliver(uint8_t tag, uint32_t proc, const void *data, size_t len);
    void consume(Request *r, Unexpected *u);
    void complete_eager(Request *r, uint8_t kind, uint32_t proc, const wire::MatchHeader &h,
                        uint64_t cookie, const void *payload, size_t len);
    ContextQueues &context(uint32_t id);
    Unexpected *new_unexpected();
    void recycle(Unexpected *u);

    // --- rendezvous, receive side (pml_rendezvous.cc) ---
    void start_rndv_recv(Request *r, uint32_t proc, const wire::RtsHeader &rts);
    bool try_get(Request *r);
    void offer_put(Request *r, wire::CtsHeader *cts);
    void on_frag(const wire::FragHeader &h, const void *data, size_t len);
    void on_put_done(const wire::PutDoneHeader &h);
    void received_frags(Request *r, size_t n);
    void on_get_done(Request *r, int status);
    void finish_get(Request *r);

    // --- cancelling a send (pml_cancel.cc) ---
    void cancel_send(Request *r, Request *follower);
    void withdraw_blocked(Request *r);
    void finish_cancelled(Request *r);
    void settle_followers(Request *r, bool cancelled);
    void on_cancel(uint32_t proc, const wire::CancelHeader &h);
    void on_cancel_answer(const wire::CancelAnswerHeader &h);
    bool drop_if_cancelled(PeerState &p, uint32_t seq);

    // --- control messages and progress (pml.cc) ---
    void send_control(uint32_t proc, uint8_t tag, const void *hdr, size_t len);
    int progress();
    bool idle() const;
    PeerState &peer(uint32_t proc) { return peers[proc]; }
    BmlPeer *bml_peer(uint32_t proc);

    static void complete(Request *r) { r->complete = true; }

    ProcTable &procs;
    std::unique_ptr<Bml> bml;
    std::vector<PeerState> peers;
    std::vector<std::unique_ptr<ContextQueues>> contexts;
    std::vector<Unexpected *> unexpected_pool;
    std::deque<Control> controls;       // waiting for BTL resources
    std::vector<uint32_t> blocked_peers;  // peers with a non-empty blocked list
    RequestList streaming;              // sends pushing fragments after a CTS
    RequestList getting;                // receives whose get must be retried
    RequestList flushing;               // sends done but for bytes their BTL still holds
    // Requests that complete with a cancelled send's answer (the user's handle of a buffered
    // send follows the internal send): (send, follower).
    std::vector<std::pair<Request *, Request *>> cancel_followers;
};

}  // namespace plexus::mpi
