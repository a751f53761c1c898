// Connections: accepted or made on first use, then the handshake that proves a secret both ways
// (hello, challenge, proof, verdict: wire.h): the job secret within the job, the secret of their
// meeting between jobs (key_choice.h). When both processes connect at once, both keep
// the connection the process of the lower (namespace, rank) made: the other side's acceptor says
// so in its verdict, and the losing attempt is closed once its verdict arrives, so no legitimate
// connection is ever cut in the middle of its handshake (what a stranger's is counted as).
//
// The deadlines (btl_tcp_connect_timeout, btl_tcp_handshake_timeout) bound what this process
// waits for while it makes MPI calls, and only what no live peer process explains: a peer whose
// kernel took our connection and hello answers at its next MPI call, which may be minutes away
// (it computes, reads its input) and is no failure; and the time this process itself spent away
// from MPI, when nobody progressed its connections, does not count (check_deadlines).
#include <sys/epoll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "tcp_module.h"

namespace plexus::btl_tcp {
namespace {

// A gap between two looks at the deadlines longer than any wait inside MPI makes (kDeadlineStride
// polls, each at most a 2 ms sleep of the progress engine): this process was outside MPI.
constexpr int64_t kAwayNs = 1'000'000'000;

size_t record_size(ConnState s) {
    switch (s) {
    case ConnState::AwaitHello: return sizeof(Hello);
    case ConnState::AwaitChallenge: return sizeof(Challenge);
    case ConnState::AwaitProof: return sizeof(Proof);
    case ConnState::AwaitVerdict: return sizeof(Verdict);
    default: return 0;
    }
}

template <class Record>
Record record_of(const Conn *c) {
    Record r;
    std::memcpy(&r, c->hs_in.data(), sizeof r);
    return r;
}

bool lower(const std::string &ns_a, uint32_t rank_a, const std::string &ns_b, uint32_t rank_b) {
    return ns_a != ns_b ? ns_a < ns_b : rank_a < rank_b;
}

}  // namespace

Conn *TcpModule::new_conn(Fd fd, ConnRole role, ConnState state, const std::string &where, int64_t timeout_ms) {
    auto c = std::make_unique<Conn>();
    c->fd = std::move(fd);
    c->role = role;
    c->state = state;
    c->where = where;
    c->started_ns = now_ns();
    c->deadline_ns = c->started_ns + timeout_ms * 1'000'000;
    Conn *raw = c.get();
    conns_.push_back(std::move(c));
    epoll_event ev{};
    ev.events = state == ConnState::Connecting ? EPOLLOUT : EPOLLIN;
    ev.data.ptr = raw;
    raw->events = ev.events;
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, raw->fd.get(), &ev);
    expect_record(raw, state, record_size(state));
    return raw;
}

void TcpModule::watch(Conn *c, uint32_t events) {
    if (c->events == events || c->state == ConnState::Dead) return;
    epoll_event ev{};
    ev.events = events;
    ev.data.ptr = c;
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, c->fd.get(), &ev);
    c->events = events;
}

// Closed now; the object lives until reap(), since events of this progress call may still name it.
void TcpModule::kill(Conn *c) {
    if (c->state == ConnState::Dead) return;
    if (c->fd) ::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, c->fd.get(), nullptr);
    c->fd.reset();
    c->state = ConnState::Dead;
    if (c->ep && c->ep->conn == c) c->ep->conn = nullptr;
    if (c->ep && c->ep->out == c) c->ep->out = nullptr;
    for (auto it = parked_.begin(); it != parked_.end(); ++it)
        if (it->second == c) {
            parked_.erase(it);
            break;
        }
    dead_conns_ = true;
}

void TcpModule::expect_record(Conn *c, ConnState state, size_t bytes) {
    c->state = state;
    c->hs_in.assign(bytes, 0);
    c->hs_have = 0;
}

// Handshake records are a few hundred bytes on a fresh socket, which takes them at once; what it
// does not take waits in hs_out for EPOLLOUT.
bool TcpModule::send_record(Conn *c, const void *data, size_t len) {
    const auto *p = static_cast<const uint8_t *>(data);
    if (c->hs_out.empty()) {
        const ssize_t n = ::send(c->fd.get(), p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return false;
        const size_t sent = n > 0 ? static_cast<size_t>(n) : 0;
        p += sent;
        len -= sent;
    }
    if (len == 0) return true;
    c->hs_out.insert(c->hs_out.end(), p, p + len);
    watch(c, c->events | EPOLLOUT);
    return true;
}

void TcpModule::accept_all() {
    for (;;) {
        Fd fd(::accept4(listen_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
        if (!fd) return;  // EAGAIN, or a connection reset before we took it
        const std::string where = peer_address(fd.get());
        apply_connection_options(fd.get(), where);
        new_conn(std::move(fd), ConnRole::In, ConnState::AwaitHello, where, params_.handshake_timeout);
    }
}

// The options were tried on the listening socket at open, so a refusal here is the kernel's
// surprise: the connection still works, only without its bound on silence.
void TcpModule::apply_connection_options(int fd, const std::string &where) {
    std::string why;
    if (!set_connection_options(fd, sockopts_, &why))
        host_->log(self_, PLEXUS_LOG_WARN, "connection with %s: %s", where.c_str(), why.c_str());
}

// Tries the peer's addresses in order until a connect starts. A peer of another job with which
// this process shares no secret cannot be proven at any address: it fails at once, named.
void TcpModule::start_connect(Endpoint *ep) {
    if (ep->conn || ep->out || ep->failed || ep->peer_connects) return;
    PairKey key;
    uint8_t key_id[kKeyIdBytes];
    if (std::string why; !key_to(host_, nspace_, ep->nspace, ep->rank, &key, key_id, &why)) {
        ep->last_error = why;
        fail_peer(ep, why);
        return;
    }
    while (ep->next_candidate < ep->candidates.size()) {
        const CardAddress &a = ep->candidates[ep->next_candidate++];
        Fd fd;
        std::string why;
        if (!connect_nonblocking(a.addr, ep->port, sockopts_, &fd, &why)) {
            ep->last_error = why;
            continue;
        }
        Conn *c = new_conn(std::move(fd), ConnRole::Out, ConnState::Connecting, address_text(a.addr, ep->port),
                           params_.connect_timeout);
        c->ep = ep;
        c->pair_key = key;
        std::memcpy(c->hello.key_id, key_id, sizeof key_id);  // make_hello keeps it (on_connected)
        ep->out = c;
        return;
    }
    // Every address failed: the peer may still reach us (its own attempt, rejected by us while
    // ours was under way); the connect deadline ends the wait (check_deadlines).
}

// What a message to ep still waits for, for the messages that say so.
std::string TcpModule::awaited(const Endpoint *ep) const {
    if (const Conn *c = ep->out) {
        switch (c->state) {
        case ConnState::Connecting: return "the TCP connection to " + c->where + " to be accepted";
        case ConnState::AwaitChallenge:
            return "its answer to our hello on " + c->where +
                   " (its challenge): the process made no MPI call since, or it is stopped";
        case ConnState::AwaitVerdict: return "its verdict on our proof on " + c->where;
        default: break;
        }
    }
    if (ep->peer_connects) return "its own connection to us (it chose its own over ours)";
    return "an address of it that answers (the last attempt: " +
           (ep->last_error.empty() ? std::string("none failed") : ep->last_error) + ")";
}

void TcpModule::connect_failed(Conn *c, const std::string &why) {
    Endpoint *ep = c->ep;
    kill(c);
    if (!ep) return;
    ep->last_error = c->where + ": " + why;
    host_->log(self_, PLEXUS_LOG_DETAIL, "%s: %s", describe(ep).c_str(), ep->last_error.c_str());
    if (!ep->conn) start_connect(ep);
}

void TcpModule::on_connected(Conn *c) {
    if (const int err = connect_result(c->fd.get()); err != 0) return connect_failed(c, errno_text(err));
    apply_connection_options(c->fd.get(), c->where);
    Endpoint *ep = c->ep;
    uint8_t key_id[kKeyIdBytes];
    std::memcpy(key_id, c->hello.key_id, sizeof key_id);
    if (!make_hello(nspace_, rank_, ep->nspace, ep->rank, &c->hello))
        return connect_failed(c, "cannot make a hello (namespace too long, or no randomness)");
    std::memcpy(c->hello.key_id, key_id, sizeof key_id);
    expect_record(c, ConnState::AwaitChallenge, sizeof(Challenge));
    watch(c, EPOLLIN);
    if (!send_record(c, &c->hello, sizeof c->hello)) return connect_failed(c, "sending the hello: " + errno_text(errno));
    // The key is derived, and libcrypto opened, at a process's first MAC (milliseconds, tens on
    // a loaded node): done now, while the acceptor derives its own to answer the hello, the two
    // overlap instead of following each other in the first connection's handshake.
    uint8_t warm[kKeyIdBytes];
    (void)key_of(c).key_id(warm);
}

// Reads what the socket has of the record expected now; 1 when a record completed.
int TcpModule::read_handshake(Conn *c) {
    const size_t need = c->hs_in.size();
    const ssize_t n = ::recv(c->fd.get(), c->hs_in.data() + c->hs_have, need - c->hs_have, MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return 0;
    if (n <= 0) {
        const std::string why = n == 0 ? "closed during the handshake" : "handshake: " + errno_text(errno);
        if (c->role == ConnRole::Out) connect_failed(c, why);
        else refuse(c, why + " (before proving a secret)");
        return 0;
    }
    c->hs_have += static_cast<size_t>(n);
    // A stranger's bytes are refused as soon as they cannot be a hello.
    if (c->state == ConnState::AwaitHello && c->hs_have >= sizeof(uint32_t)) {
        uint32_t magic;
        std::memcpy(&magic, c->hs_in.data(), sizeof magic);
        if (magic != kHelloMagic) {
            refuse(c, "sent something other than a btl_tcp hello");
            return 0;
        }
    }
    if (c->hs_have < need) return 0;
    return on_record(c);
}

int TcpModule::on_record(Conn *c) {
    switch (c->state) {
    case ConnState::AwaitHello: return on_hello(c);
    case ConnState::AwaitChallenge: return on_challenge(c);
    case ConnState::AwaitProof: return on_proof(c);
    case ConnState::AwaitVerdict: return on_verdict(c);
    default: return 0;
    }
}

int TcpModule::on_hello(Conn *c) {
    const Hello h = record_of<Hello>(c);
    if (std::string bad = check_hello(h); !bad.empty()) {
        refuse(c, bad);
        return 0;
    }
    if (h.to_rank != rank_ || nspace_ != h.to_nspace) {
        refuse(c, "called rank " + std::to_string(h.to_rank) + " of job " + h.to_nspace + ", not this process");
        return 0;
    }
    if (std::string why; !key_from(host_, nspace_, h, &c->pair_key, &why)) {
        refuse(c, why);
        return 0;
    }
    c->hello = h;
    Challenge ch{};
    ch.magic = kChallengeMagic;
    if (!random_bytes(c->nonce, sizeof c->nonce) || !key_of(c).acceptor_mac(h, c->nonce, ch.mac)) {
        refuse(c, "no randomness or MAC here to answer with");
        return 0;
    }
    std::memcpy(ch.nonce, c->nonce, sizeof ch.nonce);
    expect_record(c, ConnState::AwaitProof, sizeof(Proof));
    if (!send_record(c, &ch, sizeof ch)) refuse(c, "sending the challenge: " + errno_text(errno));
    return 1;
}

int TcpModule::on_challenge(Conn *c) {
    const Challenge ch = record_of<Challenge>(c);
    uint8_t expected[kMacBytes];
    if (ch.magic != kChallengeMagic || !key_of(c).acceptor_mac(c->hello, ch.nonce, expected) ||
        !same_mac(expected, ch.mac)) {
        ++refused_;
        last_refusal_ = c->where + ": answered without proving the " + secret_name(c) + " (not our peer)";
        host_->log(self_, PLEXUS_LOG_WARN, "%s: %s", describe(c->ep).c_str(), last_refusal_.c_str());
        connect_failed(c, "it did not prove the " + secret_name(c));
        return 0;
    }
    Proof p{};
    p.magic = kProofMagic;
    if (!key_of(c).connector_mac(c->hello, ch.nonce, p.mac)) {
        connect_failed(c, "cannot compute the proof");
        return 0;
    }
    expect_record(c, ConnState::AwaitVerdict, sizeof(Verdict));
    if (!send_record(c, &p, sizeof p)) connect_failed(c, "sending the proof: " + errno_text(errno));
    return 1;
}

// Whether this process keeps an incoming connection (proven) from the peer of hello h.
bool TcpModule::keep_incoming(const Endpoint *ep, const Hello &h) const {
    if (!ep) return true;
    if (ep->conn) return false;  // one per peer
    // Both connecting at once: the lower process's connection is the one both keep.
    if (ep->out) return !lower(nspace_, rank_, h.from_nspace, h.from_rank);
    return true;
}

int TcpModule::on_proof(Conn *c) {
    const Proof p = record_of<Proof>(c);
    uint8_t expected[kMacBytes];
    if (p.magic != kProofMagic || !key_of(c).connector_mac(c->hello, c->nonce, expected) ||
        !same_mac(expected, p.mac)) {
        refuse(c, "did not prove the " + secret_name(c));
        return 0;
    }
    const std::pair<std::string, uint32_t> who{c->hello.from_nspace, c->hello.from_rank};
    auto it = by_proc_.find(who);
    Endpoint *ep = it == by_proc_.end() ? nullptr : it->second;
    const bool keep = keep_incoming(ep, c->hello) && (ep || parked_.count(who) == 0);
    Verdict v{kVerdictMagic, keep ? 1u : 0u};
    if (!send_record(c, &v, sizeof v) || !keep) {
        kill(c);  // a verdict the socket did not take is an end of stream, read the same way
        return 1;
    }
    if (ep) {
        adopt(ep, c);
    } else {
        // A process added later (another job): its messages wait in its socket until add_procs.
        c->state = ConnState::Established;
        parked_[who] = c;
        watch(c, 0);
    }
    return 1;
}

int TcpModule::on_verdict(Conn *c) {
    const Verdict v = record_of<Verdict>(c);
    Endpoint *ep = c->ep;
    if (v.magic != kVerdictMagic) {
        connect_failed(c, "sent a malformed verdict");
        return 0;
    }
    if (!v.accepted || ep->conn) {
        // The peer keeps its own connection to us: it arrives (or arrived) on the listening
        // socket, within the connect deadline.
        if (!ep->conn) ep->peer_connects = true;
        kill(c);
        return 1;
    }
    adopt(ep, c);
    return 1;
}

void TcpModule::adopt(Endpoint *ep, Conn *c) {
    if (ep->out == c) ep->out = nullptr;
    c->ep = ep;
    c->state = ConnState::Established;
    c->rbuf.resize(std::max<size_t>(256 * 1024, 2 * (params_.max_send_size + sizeof(FrameHeader))));
    c->rlen = 0;
    ep->conn = c;
    ep->peer_connects = false;
    ep->connect_deadline_ns = 0;
    ep->said_goodbye = false;  // a peer that disconnected and connects again
    watch(c, EPOLLIN | (ep->queue.empty() && c->hs_out.empty() ? 0u : uint32_t{EPOLLOUT}));
    host_->log(self_, PLEXUS_LOG_DETAIL, "connected to %s (%s)", describe(ep).c_str(), c->where.c_str());
    if (!ep->queue.empty() && c->hs_out.empty()) flush(ep);
}

std::string TcpModule::secret_name(const Conn *c) const {
    if (!c->pair_key) return "job secret";
    const std::string other = c->role == ConnRole::Out && c->ep ? c->ep->nspace : std::string(c->hello.from_nspace);
    return "secret shared with job " + other;
}

void TcpModule::refuse(Conn *c, const std::string &why) {
    ++refused_;
    last_refusal_ = (c->where.empty() ? std::string("unknown address") : c->where) + ": " + why;
    host_->log(self_, refused_ == 1 ? PLEXUS_LOG_WARN : PLEXUS_LOG_DETAIL,
               "closed a connection that did not prove the job secret or one shared with its job (%s)",
               last_refusal_.c_str());
    kill(c);
}

// Run every kDeadlineStride-th poll while connections or messages are under way. The time since
// the last look is time away from MPI when it is long (never looked: as long as can be).
void TcpModule::check_deadlines() {
    const int64_t now = now_ns();
    const int64_t gap = now - last_deadline_check_ns_;
    last_deadline_check_ns_ = now;
    if (gap > kAwayNs) extend_deadlines(now, gap);
    for (size_t i = 0; i < conns_.size(); ++i) {
        Conn *c = conns_[i].get();
        if (!c->handshaking() || now < c->deadline_ns) continue;
        if (c->role == ConnRole::In)
            refuse(c, "no handshake within btl_tcp_handshake_timeout (" + std::to_string(params_.handshake_timeout) + " ms)");
        else if (c->awaiting_peer_process())
            wait_for_peer_process(c, now);
        else
            connect_failed(c, "no handshake within btl_tcp_connect_timeout");
    }
    for (auto &ep : endpoints_) {
        if (ep->conn || ep->failed || ep->queue.empty() || !ep->connect_deadline_ns) continue;
        if (ep->out && ep->out->awaiting_peer_process()) {
            // Its clock stops: after a failure from here on it gets the whole timeout again.
            ep->connect_deadline_ns = std::max(ep->connect_deadline_ns, now + params_.connect_timeout * 1'000'000);
            continue;
        }
        if (now < ep->connect_deadline_ns) continue;
        fail_peer(ep.get(), "no connection within btl_tcp_connect_timeout (" + std::to_string(params_.connect_timeout) +
                                " ms); the last attempt: " + (ep->last_error.empty() ? "none failed" : ep->last_error));
    }
}

// This process made no MPI call for up to gap ns (it computed, or it was stopped): every deadline
// gets back the part of that time it was running, and a peer still unreached after such a pause
// gets every address again (its acceptor may have given up on a connection whose hello we never
// sent while away).
void TcpModule::extend_deadlines(int64_t now, int64_t gap) {
    int64_t most = 0;
    for (auto &c : conns_) {
        if (!c->handshaking()) continue;
        const int64_t shift = std::min(gap, now - c->started_ns);
        c->deadline_ns += shift;
        most = std::max(most, shift);
    }
    for (auto &ep : endpoints_) {
        if (!ep->connect_deadline_ns) continue;
        const int64_t shift = std::min(gap, now - ep->connect_since_ns);
        ep->connect_deadline_ns += shift;
        most = std::max(most, shift);
        if (shift <= kAwayNs || ep->conn || ep->failed) continue;
        ep->next_candidate = 0;
        if (!ep->out && !ep->queue.empty()) start_connect(ep.get());
    }
    if (most > kAwayNs)
        host_->log(self_, PLEXUS_LOG_DETAIL, "no MPI call for %lld ms: connection deadlines extended by that",
                   static_cast<long long>(most / 1'000'000));
}

// Our connection reached the peer's kernel and our hello is out; its process has not answered
// within btl_tcp_connect_timeout. It is alive (its kernel took the connection): it answers at its
// next MPI call, and the messages to it wait as they would for a busy receiver over sm.
void TcpModule::wait_for_peer_process(Conn *c, int64_t now) {
    c->deadline_ns = now + params_.connect_timeout * 1'000'000;
    if (c->noted_wait || !c->ep) return;
    c->noted_wait = true;
    host_->log(self_, PLEXUS_LOG_DETAIL, "%s: still waiting for %s (more than btl_tcp_connect_timeout, %lld ms)",
               describe(c->ep).c_str(), awaited(c->ep).c_str(), static_cast<long long>(params_.connect_timeout));
}

}  // namespace plexus::btl_tcp
