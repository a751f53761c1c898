// The life of one RC connection to a peer, apart from verbs: which side creates its queue pair
// when, whose request wins when both sides connect at once, and when a side may send. The module
// feeds it events (a first send, the peer's messages) and carries out the actions it returns
// (create the QP in INIT, move it to RTR and RTS, send a message of the connect protocol).
//
// The protocol, over the core's reliable datagrams (host->dgram):
//   REQUEST  initiator -> peer:  my QP (in INIT): QPN, PSN, LID, GID
//   ACCEPT   peer -> initiator:  mine, already in RTR and RTS towards yours
//   READY    initiator -> peer:  mine is in RTS too (the peer may send from now on)
// A peer in RTR receives at once; it sends only after READY, or after the initiator's first
// message arrives (which may overtake READY: they travel on different paths). When both sides
// send REQUEST at once, the process that sorts first (nspace, rank) is the initiator: the other
// drops its own attempt's role, keeps its QP and accepts with it.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace plexus::btl_openib {

// Where one end of a connection is: what the other side's QP needs to reach it.
struct QpAddress {
    uint32_t qpn = 0;
    uint32_t psn = 0;  // the first packet sequence number it sends with
    uint16_t lid = 0;
    uint8_t gid[16] = {};

    bool operator==(const QpAddress &o) const {
        return qpn == o.qpn && psn == o.psn && lid == o.lid && std::memcmp(gid, o.gid, sizeof gid) == 0;
    }
};

enum class ConnState : uint8_t {
    Closed,      // no QP
    Requesting,  // our QP in INIT, REQUEST sent
    Accepting,   // our QP in RTS towards the peer's, ACCEPT sent, waiting for READY
    Connected,   // both in RTS
    Failed       // the connection cannot be made: sends to the peer fail
};

const char *conn_state_name(ConnState s);

enum class ConnAction : uint8_t {
    CreateQp,      // a QP in INIT, with its receive buffers posted
    SendRequest,   // REQUEST with our QP's address
    ConnectQp,     // our QP to RTR (towards remote()) and RTS
    SendAccept,    // ACCEPT with our QP's address
    SendReady,     // READY
    Flush,         // the queued sends may go now
    Fail           // report the peer unreachable
};

class Connection {
public:
    Connection() = default;
    // we_sort_first: this process is the initiator when both sides connect at once.
    explicit Connection(bool we_sort_first) : first_(we_sort_first) {}

    ConnState state() const { return state_; }
    bool can_send() const { return state_ == ConnState::Connected; }
    // The peer's address once known (REQUEST or ACCEPT).
    const QpAddress &remote() const { return remote_; }

    // Something is to be sent and there is no connection.
    std::vector<ConnAction> start();
    std::vector<ConnAction> on_request(const QpAddress &remote);
    std::vector<ConnAction> on_accept(const QpAddress &remote);
    std::vector<ConnAction> on_ready();
    // A message arrived on the QP: the initiator is in RTS, whether READY is here yet or not.
    std::vector<ConnAction> on_receive();
    // A verbs call, the connect protocol's timeout or a completion error ended it.
    std::vector<ConnAction> on_error();

private:
    bool first_ = false;
    ConnState state_ = ConnState::Closed;
    QpAddress remote_;
};

}  // namespace plexus::btl_openib
