// What btl_sm keeps per peer: the peer's mapped segment and FIFO, how the peer's directory names
// this process, the fast box this process sends on, and the one it granted to the peer.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <plexus/sdk/btl_fast_channel.hpp>

#include "fastbox.h"
#include "frag_pool.h"
#include "segment_layout.h"
#include "sm_sdk.h"

namespace plexus::btl_sm {

// The fast-channel state every BTL with fast channels keeps (plexus/sdk/btl_fast_channel.hpp).
using OutState = sdk::FastState;
using OutWant = sdk::FastWant;

// The fast box this process sends on, in the peer's segment; its state is the SDK's.
struct OutBox : sdk::FastChannel {
    BoxWriter writer;
    size_t max_message = 0;  // largest message that goes through it
    uint32_t index = 0;
};

// A data fragment sent to the peer through its FIFO, and which use of the fragment that was (the
// owner stamps each one it hands out, so a fragment given back and taken again is told apart).
struct SentFrag {
    FragHeader *frag;
    uint32_t stamp;
};

// A message that arrived before add_procs named its sender (the sender attached first).
struct Deferred {
    uint8_t tag;
    std::vector<uint8_t> bytes;
};

struct Endpoint {
    // Send path first: what every send touches.
    OutBox out;
    FifoProducer fifo;          // the peer's receive FIFO
    uint32_t slot_at_peer = 0;  // this process's directory slot in the peer's segment
    uint32_t upper_id = 0;      // plexus_btl_proc_t.id, handed back with each message
    bool named = false;         // add_procs has given upper_id (else attached on demand)
    bool deleted = false;       // del_procs: messages from it wait in deferred for add_procs
    bool cma_ok = false;        // single copy to this peer works
    uint64_t messages = 0;      // sent on the FIFO path, for btl_sm_fastbox_threshold
    // Data sent on the FIFO path that the peer may not have read yet, oldest first. While there
    // is any, sends stay on the FIFO too: the peer polls its boxes first, so a box message would
    // overtake them, and the PML would have to hold it until their turn.
    std::deque<SentFrag> fifo_unread;

    int32_t pid = 0;
    ShmSegment segment;  // the peer's, mapped (the core's shm services)
    SegmentHeader *header = nullptr;
    int32_t in_box = -1;  // the box this process granted to the peer, or -1
    std::string nspace;
    uint32_t rank = 0;
    std::deque<Deferred> deferred;
};

}  // namespace plexus::btl_sm
