// The progress callback: one epoll_wait without waiting, then each ready socket is accepted, moved
// through its handshake, written or read. Frames are reassembled in the connection's buffer from
// whatever each read returns and handed to the upper layer in place once whole. A peer whose
// stream ends without its goodbye (it died, its host went away), in the middle of a message, or
// while messages to it still wait, ends the job with its name and host.
#include <sys/epoll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <plexus/sdk/host.hpp>

#include "frame.h"
#include "tcp_module.h"

namespace plexus::btl_tcp {
namespace {

constexpr int kMaxEvents = 32;
// With no connection and nothing waiting for one only the listening socket can have news (a peer's
// first connection): it is looked at once kIdleLookNs have passed since the last look, the clock
// read every kIdleStride-th poll. A process whose peers all go through another BTL pays a clock
// read per 64 polls and at most 1,000 system calls a second. (An epoll_wait every 64th poll, as
// before, tripled btl_sm's 8-byte latency in every job with tcp open: 0.13 -> 0.36-0.66 us here.)
constexpr uint64_t kIdleStride = 64;
constexpr int64_t kIdleLookNs = 1'000'000;
constexpr uint64_t kDeadlineStride = 64;  // polls between looks at the handshake deadlines
constexpr int kReadRounds = 4;            // reads per connection per poll: others get their turn

}  // namespace

int TcpModule::progress() {
    if (in_progress_) return 0;
    ++polls_;
    const bool busy = !conns_.empty() || queued_msgs_ > 0;
    if (!busy) {
        if (polls_ % kIdleStride != 0) return 0;
        const int64_t now = now_ns();
        if (now - last_idle_look_ns_ < kIdleLookNs) return 0;
        last_idle_look_ns_ = now;
    }
    in_progress_ = true;
    epoll_event evs[kMaxEvents];
    const int n = ::epoll_wait(epoll_.get(), evs, kMaxEvents, 0);
    int events = 0;
    for (int i = 0; i < n; ++i) {
        auto *c = static_cast<Conn *>(evs[i].data.ptr);
        if (!c) {
            accept_all();
            ++events;
        } else if (c->state != ConnState::Dead) {
            events += handle(c, evs[i].events);
        }
    }
    if (busy && polls_ % kDeadlineStride == 0) check_deadlines();
    reap();
    in_progress_ = false;
    return events;
}

int TcpModule::handle(Conn *c, uint32_t ev) {
    const uint32_t readable = EPOLLIN | EPOLLHUP | EPOLLERR;
    switch (c->state) {
    case ConnState::Connecting:
        on_connected(c);
        return 1;
    case ConnState::Established: {
        if (!c->ep) {  // parked: its peer is not added yet
            if (ev & (EPOLLHUP | EPOLLERR)) kill(c);
            return 0;
        }
        int n = 0;
        if (ev & EPOLLOUT) n += flush(c->ep);
        if (c->state == ConnState::Established && (ev & readable)) n += read_frames(c);
        return n;
    }
    default:
        if ((ev & EPOLLOUT) && flush_records(c) && c->state != ConnState::Dead) watch(c, EPOLLIN);
        if (c->state != ConnState::Dead && (ev & readable)) return read_handshake(c);
        return 0;
    }
}

int TcpModule::read_frames(Conn *c) {
    int delivered = 0;
    for (int round = 0; round < kReadRounds && c->state == ConnState::Established; ++round) {
        if (c->rlen == c->rbuf.size()) c->rbuf.resize(2 * c->rbuf.size() + sizeof(FrameHeader));
        const size_t room = c->rbuf.size() - c->rlen;
        const ssize_t n = ::recv(c->fd.get(), c->rbuf.data() + c->rlen, room, MSG_DONTWAIT);
        if (n > 0) {
            c->rlen += static_cast<size_t>(n);
            delivered += deliver_frames(c);
            if (static_cast<size_t>(n) < room) break;  // the socket is empty
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (n < 0 && errno == EINTR) continue;
        peer_closed(c, n == 0 ? 0 : errno);
        break;
    }
    return delivered;
}

// Hands every whole message in the buffer to the upper layer, notes a goodbye, keeps the partial
// frame at the front, and makes room for all of it.
int TcpModule::deliver_frames(Conn *c) {
    Endpoint *ep = c->ep;
    int n = 0;
    size_t off = 0;
    FrameHeader fh;
    std::string why;
    while (c->rlen - off >= sizeof fh) {
        std::memcpy(&fh, c->rbuf.data() + off, sizeof fh);
        const FrameUse use = classify_frame(fh, max_frame_, &why);
        if (use == FrameUse::Corrupt) {
            fail_peer(ep, why);
            return n;
        }
        const size_t whole = sizeof fh + fh.len;
        if (c->rlen - off < whole) break;
        if (use == FrameUse::Goodbye) {
            ep->said_goodbye = true;
            host_->log(self_, PLEXUS_LOG_DETAIL, "%s says goodbye", describe(ep).c_str());
        } else {
            deliver(ep, fh.tag, c->rbuf.data() + off + sizeof fh, fh.len);
            ++n;
        }
        off += whole;
        if (c->state != ConnState::Established) return n;  // a callback's send lost the peer
    }
    if (off > 0) {
        std::memmove(c->rbuf.data(), c->rbuf.data() + off, c->rlen - off);
        c->rlen -= off;
    }
    if (c->rlen >= sizeof fh) {
        std::memcpy(&fh, c->rbuf.data(), sizeof fh);
        if (sizeof fh + fh.len > c->rbuf.size()) c->rbuf.resize(sizeof fh + fh.len);
    }
    return n;
}

void TcpModule::deliver(Endpoint *ep, uint8_t tag, const uint8_t *data, size_t len) {
    recv_.deliver(host_, self_, ep->upper_id, tag, data, len);
}

// The end of a peer's stream (err 0) or an error reading it (a reset, a keepalive or user timeout
// when its host went away without a word). After its goodbye at a message boundary with nothing
// left to send it is how a finalizing peer leaves; anything else loses the peer.
void TcpModule::peer_closed(Conn *c, int err) {
    Endpoint *ep = c->ep;
    const std::string how = err ? "lost the connection (" + errno_text(err) + ")" : "closed the connection";
    if (c->rlen > 0) {
        std::string got = std::to_string(c->rlen) + " bytes";
        if (c->rlen >= sizeof(FrameHeader)) {
            FrameHeader fh;
            std::memcpy(&fh, c->rbuf.data(), sizeof fh);
            got = std::to_string(c->rlen - sizeof fh) + " of " + std::to_string(fh.len) + " bytes";
        } else {
            got += " of a message header";
        }
        fail_peer(ep, how + " in the middle of a message (got " + got + ")");
        return;
    }
    if (!ep->queue.empty()) {
        fail_peer(ep, how + " with " + std::to_string(ep->queue.size()) + " message(s) to it not yet sent");
        return;
    }
    if (!ep->said_goodbye) {
        fail_peer(ep, how + " without saying goodbye: the process died, or its host went away");
        return;
    }
    host_->log(self_, PLEXUS_LOG_DETAIL, "%s closed its connection", describe(ep).c_str());
    kill(c);
}

std::string TcpModule::describe(const Endpoint *ep) const {
    if (!ep) return "an unknown process";
    return "rank " + std::to_string(ep->rank) + " of job " + ep->nspace + " on host " + ep->host;
}

// The peer is lost: the job ends (host->abort does not return; where it does, in tests, the
// endpoint stays failed and every later send to it is refused).
void TcpModule::fail_peer(Endpoint *ep, const std::string &why) {
    if (!ep || ep->failed) return;
    ep->failed = true;
    std::string where = ep->conn ? ep->conn->where : "";
    if (where.empty() && !ep->candidates.empty())
        where = address_text(ep->candidates.front().addr, ep->port) + (ep->candidates.size() > 1 ? ", ..." : "");
    const std::string msg = describe(ep) + " (" + where + "): " + why;
    for (auto &c : conns_)
        if (c->ep == ep) kill(c.get());
    queued_msgs_ -= ep->queue.size();
    ep->queue.clear();
    ep->queued_bytes = 0;
    host_->log(self_, PLEXUS_LOG_ERROR, "%s", msg.c_str());
    if (PLEXUS_HOST_HAS(host_, abort)) host_->abort(sdk::kBtlLostPeerStatus, ("btl_tcp: " + msg).c_str());
}

void TcpModule::reap() {
    if (dead_conns_) {
        conns_.erase(std::remove_if(conns_.begin(), conns_.end(),
                                    [](const std::unique_ptr<Conn> &c) { return c->state == ConnState::Dead; }),
                     conns_.end());
        dead_conns_ = false;
    }
    if (deleted_eps_) free_deleted();
}

// Deleted endpoints that no connection names any more (one accepted from the peer between its
// del_procs and this reap keeps its endpoint until that connection ends). A process that
// connects and disconnects jobs for ever keeps none of theirs.
void TcpModule::free_deleted() {
    auto named = [this](const Endpoint *ep) {
        return std::any_of(conns_.begin(), conns_.end(), [ep](const std::unique_ptr<Conn> &c) { return c->ep == ep; });
    };
    deleted_eps_ = false;
    for (auto it = endpoints_.begin(); it != endpoints_.end();) {
        Endpoint *ep = it->get();
        if (!ep->deleted) {
            ++it;
        } else if (named(ep)) {
            deleted_eps_ = true;  // again at a later reap
            ++it;
        } else {
            by_proc_.erase({ep->nspace, ep->rank});
            it = endpoints_.erase(it);
        }
    }
}

}  // namespace plexus::btl_tcp
