// The btl_tcp module of one process: its listening socket and epoll set, its endpoints, and the
// data path: connections made on first use with a handshake that proves the job secret (both
// sides connecting at once resolved by rank), sends written straight into the socket or queued
// when it is busy, frames reassembled from whatever the socket hands over. Driven by the progress
// engine (no thread). One per process, made by open() and destroyed by close(); single-threaded
// (FUNNELED).
#pragma once

#include <sys/types.h>
#include <sys/uio.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <plexus/btl.h>
#include <plexus/sdk/btl_module.hpp>

#include "business_card.h"
#include "handshake.h"
#include "interfaces.h"
#include "key_choice.h"
#include "socket_util.h"
#include "tcp_endpoint.h"
#include "tcp_params.h"

namespace plexus::btl_tcp {

class TcpModule {
public:
    TcpModule(const plexus_host_api_t *host, const plexus_component_t *self, const TcpParams &params);
    ~TcpModule();
    TcpModule(const TcpModule &) = delete;
    TcpModule &operator=(const TcpModule &) = delete;

    // Interfaces, secret, listening socket, card. PLEXUS_ERR_NOT_AVAILABLE / BAD_PARAM + why.
    int open(plexus_reason_t *why);
    plexus_btl_module_t *api() { return &handle_.api; }
    static TcpModule *from(plexus_btl_module_t *m) { return sdk::BtlModuleHandle<TcpModule>::owner(m); }

    int add_procs(size_t n, const plexus_btl_proc_t *procs, plexus_btl_endpoint_t **eps);
    int del_procs(size_t n, plexus_btl_endpoint_t *const *eps);
    // BTL 1.5: while a deleted endpoint lives (a connection still names it, free_deleted), its
    // late messages are delivered under its id.
    bool holds_proc(uint32_t id) const;
    int register_recv(uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx);
    int send(Endpoint *ep, uint8_t tag, const void *hdr, size_t hlen, const void *payload, size_t plen);
    int send_pack(Endpoint *ep, uint8_t tag, const void *hdr, size_t hlen, plexus_btl_pack_fn_t pack, void *ctx,
                  size_t offset, size_t plen);
    // Messages accepted and not yet taken by their socket: all peers' (pending), one peer's
    // (pending_to, BTL 1.4: the PML completes a send once its peer's is 0).
    size_t pending() const;
    size_t pending_to(const Endpoint *ep) const;
    // Accepts, handshakes, reads and writes whatever the sockets are ready for; never blocks.
    int progress();

    // Diagnostics and tests.
    uint16_t port() const { return port_; }
    uint64_t refused() const { return refused_; }
    const std::string &last_refusal() const { return last_refusal_; }
    size_t established() const;  // connections carrying frames
    size_t endpoints() const { return endpoints_.size(); }  // peers held (deleted ones are freed)
    size_t connections() const { return conns_.size(); }
    const std::vector<Interface> &interfaces() const { return interfaces_; }

private:
    // tcp_module.cc: lifecycle
    Endpoint *add_one(const plexus_btl_proc_t &proc);
    bool on_this_node(const std::string &nspace, uint32_t rank, const Card &card) const;
    std::vector<CardAddress> candidates_for(const Card &card, bool local) const;
    bool select_interfaces(plexus_reason_t *why);
    void fill_api();
    void close_gracefully(Conn *c);

    // tcp_connect.cc: connections and the handshake
    void accept_all();
    void apply_connection_options(int fd, const std::string &where);
    void start_connect(Endpoint *ep);
    std::string awaited(const Endpoint *ep) const;
    void on_connected(Conn *c);
    void connect_failed(Conn *c, const std::string &why);
    int read_handshake(Conn *c);
    int on_record(Conn *c);
    int on_hello(Conn *c);
    int on_challenge(Conn *c);
    int on_proof(Conn *c);
    int on_verdict(Conn *c);
    bool keep_incoming(const Endpoint *ep, const Hello &h) const;
    void adopt(Endpoint *ep, Conn *c);
    void refuse(Conn *c, const std::string &why);
    // The key c's handshake proves, and what it is called in messages.
    const HandshakeKey &key_of(const Conn *c) const { return c->pair_key ? *c->pair_key : key_; }
    std::string secret_name(const Conn *c) const;
    void expect_record(Conn *c, ConnState state, size_t bytes);
    bool send_record(Conn *c, const void *data, size_t len);
    void check_deadlines();
    void extend_deadlines(int64_t now, int64_t gap);
    void wait_for_peer_process(Conn *c, int64_t now);
    Conn *new_conn(Fd fd, ConnRole role, ConnState state, const std::string &where, int64_t timeout_ms);
    void kill(Conn *c);
    void watch(Conn *c, uint32_t events);

    // tcp_send.cc: the send side
    int admit(Endpoint *ep, size_t len);
    ssize_t try_write(Endpoint *ep, const struct iovec *iov, int n);
    void enqueue(Endpoint *ep, OutMessage m);
    int flush(Endpoint *ep);
    bool flush_records(Conn *c);

    // tcp_progress.cc: events and frames
    int handle(Conn *c, uint32_t events);
    void deliver(Endpoint *ep, uint8_t tag, const uint8_t *data, size_t len);
    int read_frames(Conn *c);
    int deliver_frames(Conn *c);
    void peer_closed(Conn *c, int err);
    void fail_peer(Endpoint *ep, const std::string &why);
    std::string describe(const Endpoint *ep) const;
    void reap();
    void free_deleted();

    // ---- hot ----
    Fd epoll_;
    bool in_progress_ = false;
    uint64_t polls_ = 0;
    int64_t last_idle_look_ns_ = 0;  // at the listening socket, while idle
    int64_t last_deadline_check_ns_ = 0;
    sdk::BtlRecvTable recv_;
    size_t max_frame_ = 0;  // largest frame accepted from a peer

    // ---- cold ----
    const plexus_host_api_t *host_;
    const plexus_component_t *self_;
    TcpParams params_;
    SocketOptions sockopts_;
    sdk::BtlModuleHandle<TcpModule> handle_{};
    HandshakeKey key_;
    Fd listen_;
    uint16_t port_ = 0;
    std::vector<Interface> interfaces_;
    std::string nspace_;
    uint32_t rank_ = 0;
    std::string host_name_;
    std::string node_;
    bool progress_registered_ = false;
    std::vector<std::unique_ptr<Conn>> conns_;
    std::vector<std::unique_ptr<Endpoint>> endpoints_;
    std::map<std::pair<std::string, uint32_t>, Endpoint *> by_proc_;
    std::map<std::pair<std::string, uint32_t>, Conn *> parked_;  // from peers not added yet
    bool dead_conns_ = false;
    bool deleted_eps_ = false;  // del_procs left endpoints for reap to free
    size_t queued_msgs_ = 0;  // in every endpoint's queue
    uint64_t refused_ = 0;
    std::string last_refusal_;
};

// Now, in nanoseconds of CLOCK_MONOTONIC.
int64_t now_ns();

}  // namespace plexus::btl_tcp
