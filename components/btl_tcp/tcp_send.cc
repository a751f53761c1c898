// The send side: a message goes straight into its socket when the connection is up and nothing
// waits before it; the first one to a peer starts that connection and is queued while it is made
// (a send never waits for the peer: pending_to tells the PML, which completes the send once its
// bytes are out). Whatever the socket does not take is queued, up to btl_tcp_max_queued per peer,
// and written when the socket can take more.
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "frame.h"
#include "tcp_module.h"

namespace plexus::btl_tcp {
namespace {

constexpr int kMaxIov = 64;

// The bytes of iov past the first `skip`, copied.
OutMessage rest_of(const iovec *iov, int n, size_t skip) {
    OutMessage m;
    for (int i = 0; i < n; ++i) {
        const auto *p = static_cast<const uint8_t *>(iov[i].iov_base);
        size_t len = iov[i].iov_len;
        const size_t drop = std::min(skip, len);
        skip -= drop;
        if (len > drop) m.bytes.insert(m.bytes.end(), p + drop, p + len);
    }
    return m;
}

}  // namespace

// Whether a message of len bytes may be accepted for ep now; starts the connection on first use.
int TcpModule::admit(Endpoint *ep, size_t len) {
    if (ep->failed || ep->deleted) return PLEXUS_ERR_UNREACH;
    if (ep->said_goodbye) {  // a message it would never read
        fail_peer(ep, "it closed its connection earlier, in order (it finalized or disconnected)");
        return PLEXUS_ERR_UNREACH;
    }
    if (len > params_.max_send_size) return PLEXUS_ERR_BAD_PARAM;
    if (!ep->queue.empty() && ep->queued_bytes + len > params_.max_queued) return PLEXUS_ERR_AGAIN;
    if (!ep->conn) {
        if (!ep->connect_deadline_ns) {
            ep->connect_since_ns = now_ns();
            ep->connect_deadline_ns = ep->connect_since_ns + params_.connect_timeout * 1'000'000;
        }
        start_connect(ep);
        if (ep->failed) return PLEXUS_ERR_UNREACH;  // it cannot be proven (no secret shared with its job)
    }
    return PLEXUS_SUCCESS;
}

// Bytes the socket took (0 when it is full), or -1 when the connection is lost (reported).
ssize_t TcpModule::try_write(Endpoint *ep, const iovec *iov, int n) {
    msghdr mh{};
    mh.msg_iov = const_cast<iovec *>(iov);
    mh.msg_iovlen = static_cast<size_t>(n);
    for (;;) {
        const ssize_t w = ::sendmsg(ep->conn->fd.get(), &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w >= 0) return w;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
        fail_peer(ep, "sending: " + errno_text(errno));
        return -1;
    }
}

void TcpModule::enqueue(Endpoint *ep, OutMessage m) {
    ep->queued_bytes += m.bytes.size();
    ep->queue.push_back(std::move(m));
    ++queued_msgs_;
    if (ep->conn) watch(ep->conn, EPOLLIN | EPOLLOUT);
}

int TcpModule::send(Endpoint *ep, uint8_t tag, const void *hdr, size_t hlen, const void *payload, size_t plen) {
    if ((hlen && !hdr) || (plen && !payload)) return PLEXUS_ERR_BAD_PARAM;
    if (int rc = admit(ep, hlen + plen); rc != PLEXUS_SUCCESS) return rc;
    const FrameHeader fh = message_header(tag, hlen + plen);
    const iovec iov[3] = {{const_cast<FrameHeader *>(&fh), sizeof fh},
                          {const_cast<void *>(hdr), hlen},
                          {const_cast<void *>(payload), plen}};
    const size_t total = sizeof fh + hlen + plen;
    size_t written = 0;
    if (ep->conn && ep->queue.empty() && ep->conn->hs_out.empty()) {
        const ssize_t w = try_write(ep, iov, 3);
        if (w < 0) return PLEXUS_ERR_UNREACH;
        written = static_cast<size_t>(w);
        if (written == total) return PLEXUS_SUCCESS;
    }
    enqueue(ep, rest_of(iov, 3, written));
    return PLEXUS_SUCCESS;
}

// The payload is packed straight into the message's own buffer, which is either written at once
// or kept in the queue as it is.
int TcpModule::send_pack(Endpoint *ep, uint8_t tag, const void *hdr, size_t hlen, plexus_btl_pack_fn_t pack,
                         void *ctx, size_t offset, size_t plen) {
    if ((hlen && !hdr) || (plen && !pack)) return PLEXUS_ERR_BAD_PARAM;
    if (int rc = admit(ep, hlen + plen); rc != PLEXUS_SUCCESS) return rc;
    const FrameHeader fh = message_header(tag, hlen + plen);
    OutMessage m;
    m.bytes.resize(sizeof fh + hlen + plen);
    std::memcpy(m.bytes.data(), &fh, sizeof fh);
    if (hlen) std::memcpy(m.bytes.data() + sizeof fh, hdr, hlen);
    if (plen) pack(ctx, offset, plen, m.bytes.data() + sizeof fh + hlen);
    if (ep->conn && ep->queue.empty() && ep->conn->hs_out.empty()) {
        const iovec iov{m.bytes.data(), m.bytes.size()};
        const ssize_t w = try_write(ep, &iov, 1);
        if (w < 0) return PLEXUS_ERR_UNREACH;
        if (static_cast<size_t>(w) == m.bytes.size()) return PLEXUS_SUCCESS;
        m.sent = static_cast<size_t>(w);
    }
    enqueue(ep, std::move(m));
    return PLEXUS_SUCCESS;
}

// Handshake bytes the socket did not take at once (they precede any frame); true when none is left.
bool TcpModule::flush_records(Conn *c) {
    while (!c->hs_out.empty()) {
        const ssize_t w = ::send(c->fd.get(), c->hs_out.data(), c->hs_out.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return false;
        if (w < 0) {
            const std::string why = "sending the handshake: " + errno_text(errno);
            if (c->role == ConnRole::Out) connect_failed(c, why);
            else if (c->state == ConnState::Established && c->ep) fail_peer(c->ep, why);
            else refuse(c, why);
            return false;
        }
        c->hs_out.erase(c->hs_out.begin(), c->hs_out.begin() + w);
    }
    return true;
}

// Writes the queue until it is empty or the socket is full; returns the messages completed.
int TcpModule::flush(Endpoint *ep) {
    Conn *c = ep->conn;
    if (!c || !flush_records(c) || c->state == ConnState::Dead) return 0;
    int done = 0;
    while (!ep->queue.empty()) {
        iovec iov[kMaxIov];
        int n = 0;
        for (auto it = ep->queue.begin(); it != ep->queue.end() && n < kMaxIov; ++it, ++n)
            iov[n] = {it->bytes.data() + it->sent, it->bytes.size() - it->sent};
        const ssize_t w = try_write(ep, iov, n);
        if (w < 0) return done;
        if (w == 0) break;
        size_t left = static_cast<size_t>(w);
        while (left > 0) {
            OutMessage &m = ep->queue.front();
            const size_t rest = m.bytes.size() - m.sent;
            if (left < rest) {
                m.sent += left;
                break;
            }
            left -= rest;
            ep->queued_bytes -= m.bytes.size();
            ep->queue.pop_front();
            --queued_msgs_;
            ++done;
        }
    }
    watch(c, EPOLLIN | (ep->queue.empty() ? 0u : uint32_t{EPOLLOUT}));
    return done;
}

}  // namespace plexus::btl_tcp
