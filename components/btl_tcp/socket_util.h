// The socket calls btl_tcp makes, each with its error in words: a descriptor that closes itself,
// the listening socket, a non-blocking connect, and the options every connection gets
// (TCP_NODELAY, keepalive and a user timeout to notice a vanished host, the buffer sizes the user
// chose).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

namespace plexus::btl_tcp {

class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    Fd(Fd &&o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
    Fd &operator=(Fd &&o) noexcept {
        if (this != &o) reset(std::exchange(o.fd_, -1));
        return *this;
    }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    ~Fd() { reset(); }
    int get() const { return fd_; }
    explicit operator bool() const { return fd_ >= 0; }
    void reset(int fd = -1);

private:
    int fd_ = -1;
};

struct SocketOptions {
    uint64_t sndbuf = 0;  // 0: the kernel's
    uint64_t rcvbuf = 0;
    // A peer whose host vanished without a reset (power, link, a deleted namespace) answers
    // nothing: keepalive probes start after keepalive_time s of silence, every keepalive_interval
    // s, and keepalive_count unanswered ones end the connection (keepalive_time 0: no probes).
    int keepalive_time = 10;
    int keepalive_interval = 5;
    int keepalive_count = 3;
    // TCP_USER_TIMEOUT: ms that sent data may stay unacknowledged (and that an idle connection may
    // stay silent once probed) before the kernel ends the connection; 0: the keepalive's bound.
    int user_timeout_ms = 0;
};

// The bound TCP_USER_TIMEOUT gets: user_timeout_ms, or the keepalive's own (time + interval x
// count) when that is 0; 0 when neither bounds anything (the kernel's retransmission limits).
int effective_user_timeout_ms(const SocketOptions &o);

// A non-blocking socket listening on every address, on any port (port_min 0) or the first free
// one of [port_min, port_min + range). *port is the port taken.
bool listen_socket(int64_t port_min, int64_t range, const SocketOptions &o, Fd *out, uint16_t *port, std::string *why);

// Starts a non-blocking connect to addr:port (host byte order). True when it is under way or
// done (EPOLLOUT says which: connect_result).
bool connect_nonblocking(uint32_t addr, uint16_t port, const SocketOptions &o, Fd *out, std::string *why);
// 0 when the connect finished, else its errno.
int connect_result(int fd);

// TCP_NODELAY, keepalive and TCP_USER_TIMEOUT (with the defaults a peer whose host vanished is
// noticed in about 25 s, idle or sending); buffer sizes are set before listen/connect, where they
// also size the window. False with *why when the kernel refuses an option.
bool set_connection_options(int fd, const SocketOptions &o, std::string *why);
void set_buffer_sizes(int fd, const SocketOptions &o);

// "a.b.c.d:port" of either end (empty when unknown).
std::string peer_address(int fd);
std::string address_text(uint32_t addr, uint16_t port);

std::string errno_text(int err);

}  // namespace plexus::btl_tcp
