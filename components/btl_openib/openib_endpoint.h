// What btl_openib keeps per peer: its card, the RC connection (state machine, queue pair, receive
// buffers, credits), sends waiting for the connection or for credits, and the two eager RDMA
// channels: the one this process writes into the peer's memory (out) and the one the peer writes
// into this process's memory (in).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <plexus/dgram.h>
#include <plexus/sdk/btl_fast_channel.hpp>

#include "conn_state.h"
#include "credits.h"
#include "eager_ring.h"
#include "verbs_raii.h"
#include "wire.h"

namespace plexus::btl_openib {

// A send accepted while it could not be posted: the header that will go with it is made when it
// goes (the credits it carries are the ones owed then).
struct Queued {
    uint8_t tag;
    uint8_t kind;
    std::vector<uint8_t> bytes;  // the upper layer's header and payload
};

// The fast-channel state every BTL with fast channels keeps (plexus/sdk/btl_fast_channel.hpp).
using OutState = sdk::FastState;
using OutWant = sdk::FastWant;

// The eager RDMA ring this process writes into, in the peer's memory; its state is the SDK's.
struct OutChannel : sdk::FastChannel {
    RingSender ring;
    uint64_t remote_addr = 0;
    uint32_t rkey = 0;
    uint32_t generation = 0;  // the grant's (credits of another generation are ignored)
};

struct InChannel {
    std::unique_ptr<RegisteredSlab> mem;
    RingReceiver ring;
    uint32_t generation = 0;  // of the current grant (0: none yet)
};

// A message that arrived before add_procs named its sender (it connected first).
struct Deferred {
    uint8_t tag;
    std::vector<uint8_t> bytes;
};

struct Endpoint {
    uint32_t index = 0;  // in the module's endpoints_, part of every work request id
    std::string nspace;
    uint32_t rank = 0;
    uint32_t upper_id = 0;
    bool named = false;    // add_procs has given upper_id
    bool deleted = false;  // del_procs: messages from it are dropped
    Card card{};
    std::string host;      // for messages

    Connection conn;
    QpPtr qp;
    QpAddress local;  // our QP's address
    std::unique_ptr<RegisteredSlab> recv;  // recv_data + recv_ctl buffers
    uint32_t recv_posted = 0;
    CreditWindow credits;
    uint32_t sq_posted = 0;  // work requests not completed yet
    int64_t connect_deadline_ns = 0;
    plexus_dgram_op_t *request_op = nullptr;  // the REQUEST in flight (its timeout fails the peer)

    std::deque<Queued> queue;
    size_t queued_bytes = 0;
    uint64_t messages = 0;  // sent, for btl_openib_eager_rdma_threshold
    bool listed = false;    // on the module's owing_ list (progress looks at it)

    OutChannel out;
    InChannel in;
    std::deque<Deferred> deferred;
};

}  // namespace plexus::btl_openib
