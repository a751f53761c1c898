#include "socket_util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include "interfaces.h"

namespace plexus::btl_tcp {
namespace {

sockaddr_in socket_address(uint32_t addr, uint16_t port) {
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(addr);
    sa.sin_port = htons(port);
    return sa;
}

int set_int(int fd, int level, int name, int value) { return ::setsockopt(fd, level, name, &value, sizeof value); }

Fd new_socket(std::string *why) {
    Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd) *why = "socket: " + errno_text(errno);
    return fd;
}

}  // namespace

void Fd::reset(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
}

std::string errno_text(int err) { return std::strerror(err); }

std::string address_text(uint32_t addr, uint16_t port) { return dotted(addr) + ":" + std::to_string(port); }

void set_buffer_sizes(int fd, const SocketOptions &o) {
    if (o.sndbuf) set_int(fd, SOL_SOCKET, SO_SNDBUF, static_cast<int>(o.sndbuf));
    if (o.rcvbuf) set_int(fd, SOL_SOCKET, SO_RCVBUF, static_cast<int>(o.rcvbuf));
}

int effective_user_timeout_ms(const SocketOptions &o) {
    if (o.user_timeout_ms > 0) return o.user_timeout_ms;
    if (o.keepalive_time <= 0) return 0;
    const int64_t ms = (int64_t{o.keepalive_time} + int64_t{o.keepalive_interval} * o.keepalive_count) * 1000;
    return static_cast<int>(std::min<int64_t>(ms, std::numeric_limits<int>::max()));
}

bool set_connection_options(int fd, const SocketOptions &o, std::string *why) {
    struct Option {
        int level, name, value;
        const char *text;
    };
    const bool keepalive = o.keepalive_time > 0;
    const Option options[] = {
        {IPPROTO_TCP, TCP_NODELAY, 1, "TCP_NODELAY"},
        {SOL_SOCKET, SO_KEEPALIVE, keepalive ? 1 : 0, "SO_KEEPALIVE"},
        {IPPROTO_TCP, TCP_KEEPIDLE, keepalive ? o.keepalive_time : 0, "TCP_KEEPIDLE"},
        {IPPROTO_TCP, TCP_KEEPINTVL, o.keepalive_interval, "TCP_KEEPINTVL"},
        {IPPROTO_TCP, TCP_KEEPCNT, o.keepalive_count, "TCP_KEEPCNT"},
        {IPPROTO_TCP, TCP_USER_TIMEOUT, effective_user_timeout_ms(o), "TCP_USER_TIMEOUT"},
    };
    for (const Option &op : options) {
        if (op.name == TCP_KEEPIDLE && !keepalive) continue;  // 0 is not a valid idle time
        if (set_int(fd, op.level, op.name, op.value) != 0) {
            *why = std::string("setsockopt ") + op.text + " " + std::to_string(op.value) + ": " + errno_text(errno);
            return false;
        }
    }
    return true;
}

bool listen_socket(int64_t port_min, int64_t range, const SocketOptions &o, Fd *out, uint16_t *port, std::string *why) {
    const int64_t first = port_min, last = port_min > 0 ? port_min + range - 1 : 0;
    int err = 0;
    for (int64_t p = first; p <= last; ++p) {
        Fd fd = new_socket(why);
        if (!fd) return false;
        set_int(fd.get(), SOL_SOCKET, SO_REUSEADDR, 1);
        set_buffer_sizes(fd.get(), o);  // inherited by accepted connections
        const sockaddr_in sa = socket_address(INADDR_ANY, static_cast<uint16_t>(p));
        if (::bind(fd.get(), reinterpret_cast<const sockaddr *>(&sa), sizeof sa) != 0) {
            err = errno;
            continue;
        }
        if (::listen(fd.get(), SOMAXCONN) != 0) {
            *why = "listen: " + errno_text(errno);
            return false;
        }
        sockaddr_in bound{};
        socklen_t len = sizeof bound;
        ::getsockname(fd.get(), reinterpret_cast<sockaddr *>(&bound), &len);
        *port = ntohs(bound.sin_port);
        *out = std::move(fd);
        return true;
    }
    *why = port_min > 0 ? "no free port in " + std::to_string(first) + "-" + std::to_string(last) +
                              " (btl_tcp_port_min, btl_tcp_port_range): " + errno_text(err)
                        : "bind: " + errno_text(err);
    return false;
}

bool connect_nonblocking(uint32_t addr, uint16_t port, const SocketOptions &o, Fd *out, std::string *why) {
    Fd fd = new_socket(why);
    if (!fd) return false;
    set_buffer_sizes(fd.get(), o);
    const sockaddr_in sa = socket_address(addr, port);
    if (::connect(fd.get(), reinterpret_cast<const sockaddr *>(&sa), sizeof sa) != 0 && errno != EINPROGRESS) {
        *why = "connect to " + address_text(addr, port) + ": " + errno_text(errno);
        return false;
    }
    *out = std::move(fd);
    return true;
}

int connect_result(int fd) {
    int err = 0;
    socklen_t len = sizeof err;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) return errno;
    return err;
}

std::string peer_address(int fd) {
    sockaddr_in sa{};
    socklen_t len = sizeof sa;
    if (::getpeername(fd, reinterpret_cast<sockaddr *>(&sa), &len) != 0 || sa.sin_family != AF_INET) return "";
    return address_text(ntohl(sa.sin_addr.s_addr), ntohs(sa.sin_port));
}

}  // namespace plexus::btl_tcp
