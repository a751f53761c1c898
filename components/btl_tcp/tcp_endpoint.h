// btl_tcp's state for one peer (Endpoint) and for one socket (Conn). A peer has at most one
// established connection; while it has none, what the upper layer sends to it waits in its queue,
// and so does the part of a message its socket did not take at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "business_card.h"
#include "handshake.h"
#include "socket_util.h"
#include "wire.h"

namespace plexus::btl_tcp {

struct Endpoint;

enum class ConnRole { Out, In };

enum class ConnState {
    Connecting,      // Out: connect() under way
    AwaitChallenge,  // Out: hello sent
    AwaitVerdict,    // Out: proof sent
    AwaitHello,      // In: accepted
    AwaitProof,      // In: challenge sent
    Established,     // frames both ways
    Dead             // closed; freed at the end of the progress call that closed it
};

struct Conn {
    Fd fd;
    ConnRole role = ConnRole::In;
    ConnState state = ConnState::AwaitHello;
    Endpoint *ep = nullptr;  // Out: always; In: once established for a known peer (else parked)
    std::string where;       // "a.b.c.d:port" of the other end, for messages
    int64_t started_ns = 0;  // when it was made (what a process away from MPI adds to deadline_ns)
    int64_t deadline_ns = 0; // of the handshake
    bool noted_wait = false; // Out: said once that its peer's process has not answered yet
    Hello hello{};           // sent (Out) or received (In): both MACs cover it
    // The key this handshake proves between jobs (key_choice.h); null within the job: the job's.
    std::shared_ptr<const HandshakeKey> pair_key;
    uint8_t nonce[kNonceBytes] = {};  // the acceptor's
    // Handshake record being read, and handshake bytes the socket has not taken yet.
    std::vector<uint8_t> hs_in;
    size_t hs_have = 0;
    std::vector<uint8_t> hs_out;
    // Established: bytes received and not yet delivered (a frame is delivered once whole).
    std::vector<uint8_t> rbuf;
    size_t rlen = 0;
    uint32_t events = 0;  // what epoll watches now

    bool handshaking() const { return state != ConnState::Established && state != ConnState::Dead; }
    // Ours, through the peer's kernel (our hello is out): what is left needs its process to make an
    // MPI call, which it does when it is done computing.
    bool awaiting_peer_process() const {
        return role == ConnRole::Out && (state == ConnState::AwaitChallenge || state == ConnState::AwaitVerdict);
    }
};

struct OutMessage {
    std::vector<uint8_t> bytes;  // frame header, upper header, payload
    size_t sent = 0;
};

struct Endpoint {
    std::string nspace;
    uint32_t rank = 0;
    uint32_t upper_id = 0;
    std::string host;  // the peer's hostname (its card), for messages
    bool local = false;
    uint16_t port = 0;
    std::vector<CardAddress> candidates;  // in the order tried
    size_t next_candidate = 0;
    std::string last_error;  // why the last address failed

    Conn *conn = nullptr;  // established
    Conn *out = nullptr;   // our own attempt, until its verdict
    std::deque<OutMessage> queue;
    size_t queued_bytes = 0;
    int64_t connect_since_ns = 0;     // the first message that waits for a connection
    int64_t connect_deadline_ns = 0;  // while messages wait for a connection

    bool peer_connects = false;   // it rejected ours for its own, which is on its way
    bool said_goodbye = false;    // it closes in order (finalize, disconnect): its end of stream is no failure
    bool failed = false;          // reported: the job is ending
    bool deleted = false;         // del_procs
};

}  // namespace plexus::btl_tcp
