// UDP sockets, IPv4 multicast membership, and reading with the kernel's drop count.
#include "runtime/dgram/udp_transport.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/errqueue.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace plexus::runtime::dgram {
namespace {

constexpr size_t kIpUdpHeaders = 28;
constexpr size_t kMaxUdpPayload = 65507;
constexpr int kSendWaitMs = 100;  // how long a full socket buffer may hold up one datagram

// What a pending ICMP error makes the next send or receive of an unconnected socket with
// IP_RECVERR return once (the error itself is read from the error queue): not this call's failure.
bool reported_icmp(int err) {
    return err == ECONNREFUSED || err == EHOSTUNREACH || err == ENETUNREACH || err == EHOSTDOWN;
}

Status sys_error(int code, const std::string &what) {
    return Status::error(code, what + ": " + std::strerror(errno));
}

Status set_int(int fd, int level, int opt, int value, const char *what) {
    if (::setsockopt(fd, level, opt, &value, sizeof value) != 0)
        return sys_error(PLEXUS_ERR_NOT_AVAILABLE, what);
    return Status::ok();
}

Status new_socket(size_t receive_buffer, UniqueFd *out) {
    UniqueFd fd(::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (fd.get() < 0) return sys_error(PLEXUS_ERR_OUT_OF_RESOURCE, "socket(AF_INET, SOCK_DGRAM)");
    // The kernel caps the buffer at net.core.rmem_max; a smaller one only means earlier drops.
    const int rcvbuf = static_cast<int>(std::min<size_t>(receive_buffer, 1u << 30));
    (void)::setsockopt(fd.get(), SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    if (Status s = set_int(fd.get(), SOL_SOCKET, SO_RXQ_OVFL, 1, "SO_RXQ_OVFL"); !s) return s;
    *out = std::move(fd);
    return Status::ok();
}

ip_mreqn membership(const sockaddr_in &group, const Ipv4Interface &iface) {
    ip_mreqn m{};
    m.imr_multiaddr = group.sin_addr;
    m.imr_address = iface.address;
    m.imr_ifindex = static_cast<int>(iface.index);
    return m;
}

// A message header over peer (where a datagram goes, or where one came from), the iovecs and a
// control buffer (none for sends).
msghdr message(sockaddr_in *peer, iovec *iov, size_t iovlen, void *control = nullptr, size_t control_len = 0) {
    msghdr msg{};
    msg.msg_name = peer;
    msg.msg_namelen = sizeof *peer;
    msg.msg_iov = iov;
    msg.msg_iovlen = iovlen;
    msg.msg_control = control;
    msg.msg_controllen = control_len;
    return msg;
}

}  // namespace

Address UdpAddress::encode(const sockaddr_in &sa) {
    Address a(kBytes);
    a[0] = kAddressUdp4;
    a[1] = 1;
    std::memcpy(&a[2], &sa.sin_port, 2);  // both already in network order
    std::memcpy(&a[4], &sa.sin_addr, 4);
    return a;
}

bool UdpAddress::decode(const Address &a, sockaddr_in *sa) {
    if (a.size() != kBytes || a[0] != kAddressUdp4 || a[1] != 1) return false;
    *sa = sockaddr_in{};
    sa->sin_family = AF_INET;
    std::memcpy(&sa->sin_port, &a[2], 2);
    std::memcpy(&sa->sin_addr, &a[4], 4);
    return sa->sin_port != 0;
}

Status UdpTransport::open(const Settings &settings, const std::string &interface, uint16_t port,
                          std::unique_ptr<Transport> *out) {
    std::unique_ptr<UdpTransport> t(new UdpTransport);
    if (Status s = find_ipv4_interface(interface, &t->iface_); !s) return s;
    t->ttl_ = settings.multicast_ttl;
    t->receive_buffer_ = settings.receive_buffer;
    const size_t link = t->iface_.mtu > kIpUdpHeaders ? t->iface_.mtu - kIpUdpHeaders : 576 - kIpUdpHeaders;
    t->max_datagram_ = std::min(link, kMaxUdpPayload);
    if (settings.mtu) t->max_datagram_ = std::min(t->max_datagram_, settings.mtu);

    t->epoll_ = UniqueFd(::epoll_create1(EPOLL_CLOEXEC));
    if (t->epoll_.get() < 0) return sys_error(PLEXUS_ERR_OUT_OF_RESOURCE, "epoll_create1");
    auto s = std::make_unique<Socket>();
    if (Status st = new_socket(t->receive_buffer_, &s->fd); !st) return st;
    const int fd = s->fd.get();
    sockaddr_in bind_to{};
    bind_to.sin_family = AF_INET;
    bind_to.sin_addr = t->iface_.address;
    bind_to.sin_port = htons(port);
    if (::bind(fd, reinterpret_cast<sockaddr *>(&bind_to), sizeof bind_to) != 0)
        return sys_error(port ? PLEXUS_ERR_EXISTS : PLEXUS_ERR_NOT_AVAILABLE,
                         "bind to " + interface + " port " + std::to_string(port));
    socklen_t len = sizeof t->local_;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&t->local_), &len);
    // Multicast leaves through the named interface and loops back, so that the other processes
    // of this host that joined receive it too.
    const ip_mreqn via = membership(sockaddr_in{}, t->iface_);
    if (::setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &via, sizeof via) != 0)
        return sys_error(PLEXUS_ERR_NOT_AVAILABLE, "IP_MULTICAST_IF " + t->iface_.name);
    if (Status st = set_int(fd, IPPROTO_IP, IP_MULTICAST_LOOP, 1, "IP_MULTICAST_LOOP"); !st) return st;
    if (Status st = set_int(fd, IPPROTO_IP, IP_MULTICAST_TTL, t->ttl_, "IP_MULTICAST_TTL"); !st) return st;
    // The peer's host answers a datagram to a port nobody listens on (a closed endpoint, an ended
    // process) with ICMP port unreachable; without IP_RECVERR an unconnected socket never hears
    // of it, and a request there waits for its whole timeout.
    (void)set_int(fd, IPPROTO_IP, IP_RECVERR, 1, "IP_RECVERR");
    if (Status st = t->add_socket(std::move(s), {}); !st) return st;
    *out = std::move(t);
    return Status::ok();
}

Status UdpTransport::add_socket(std::unique_ptr<Socket> s, const Address &group) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.ptr = s.get();
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, s->fd.get(), &ev) != 0)
        return sys_error(PLEXUS_ERR_OUT_OF_RESOURCE, "epoll_ctl");
    if (group.empty())
        unicast_ = std::move(s);
    else
        groups_[group] = std::move(s);
    return Status::ok();
}

Status UdpTransport::send(const Address &to, const struct iovec *iov, size_t n) {
    sockaddr_in dest{};
    if (!UdpAddress::decode(to, &dest))
        return Status::error(PLEXUS_ERR_BAD_PARAM, "not a UDP/IPv4 datagram address");
    msghdr msg = message(&dest, const_cast<struct iovec *>(iov), n);
    for (;;) {
        if (::sendmsg(unicast_->fd.get(), &msg, MSG_NOSIGNAL) >= 0) return Status::ok();
        if (errno == EINTR || reported_icmp(errno)) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOBUFS)
            return sys_error(errno == EMSGSIZE ? PLEXUS_ERR_BAD_PARAM : PLEXUS_ERR_UNREACH, "sendmsg");
        pollfd p{unicast_->fd.get(), POLLOUT, 0};
        if (::poll(&p, 1, kSendWaitMs) <= 0)
            return Status::error(PLEXUS_ERR_AGAIN, "the socket's send buffer stayed full");
    }
}

Status UdpTransport::read_one(Socket &s, uint8_t *buf, size_t cap, RawDatagram *out,
                              uint64_t *kernel_drops) {
    sockaddr_in from{};
    iovec iov{buf, cap};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(uint32_t))];
    msghdr msg = message(&from, &iov, 1, control, sizeof control);
    ssize_t n;
    do n = ::recvmsg(s.fd.get(), &msg, MSG_TRUNC);
    while (n < 0 && reported_icmp(errno));
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return Status::ok();
        return sys_error(PLEXUS_ERROR, "recvmsg");
    }
    for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL) {
            uint32_t count;
            std::memcpy(&count, CMSG_DATA(c), sizeof count);
            *kernel_drops += static_cast<uint32_t>(count - s.overflow_seen);  // wraps correctly
            s.overflow_seen = count;
        }
    // A datagram longer than the buffer is cut short (MSG_TRUNC gives its real length): its
    // length then disagrees with its header and it is dropped as malformed.
    out->arrived = true;
    out->len = std::min(static_cast<size_t>(n), cap);
    out->multicast = s.multicast;
    out->from = UdpAddress::encode(from);
    return Status::ok();
}

Status UdpTransport::receive(uint8_t *buf, size_t cap, RawDatagram *out, uint64_t *kernel_drops) {
    *out = RawDatagram{};
    while (!out->arrived) {
        if (ready_.empty()) {
            epoll_event ev[16];
            const int n = ::epoll_wait(epoll_.get(), ev, 16, 0);
            for (int i = 0; i < n; ++i) {
                auto *s = static_cast<Socket *>(ev[i].data.ptr);
                // An error report keeps the socket ready until its queue is read.
                if (ev[i].events & EPOLLERR) read_errors(*s);
                if (ev[i].events & EPOLLIN) ready_.push_back(s);
            }
            if (ready_.empty()) return Status::ok();
        }
        Socket *s = ready_.back();
        if (Status st = read_one(*s, buf, cap, out, kernel_drops); !st) return st;
        if (!out->arrived) ready_.pop_back();  // drained
    }
    return Status::ok();
}

void UdpTransport::read_errors(Socket &s) {
    for (;;) {
        sockaddr_in dest{};  // where the datagram that drew the error was going
        uint8_t scratch[64];
        iovec iov{scratch, sizeof scratch};
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(sock_extended_err) + sizeof(sockaddr_in))];
        msghdr msg = message(&dest, &iov, 1, control, sizeof control);
        if (::recvmsg(s.fd.get(), &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
            if (errno == EINTR) continue;
            break;  // EAGAIN: the queue is empty
        }
        for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level != IPPROTO_IP || c->cmsg_type != IP_RECVERR) continue;
            sock_extended_err e;
            std::memcpy(&e, CMSG_DATA(c), sizeof e);
            // Only "port unreachable" is final; a host or network unreachable may pass (ARP).
            if (e.ee_origin == SO_EE_ORIGIN_ICMP && e.ee_type == ICMP_DEST_UNREACH && e.ee_code == ICMP_PORT_UNREACH &&
                dest.sin_port != 0)
                unreachable_.push_back(UdpAddress::encode(dest));
        }
    }
    // The pending error the queue also set, so that epoll stops reporting it.
    int err = 0;
    socklen_t len = sizeof err;
    (void)::getsockopt(s.fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
}

void UdpTransport::take_unreachable(std::vector<Address> *out) {
    out->insert(out->end(), unreachable_.begin(), unreachable_.end());
    unreachable_.clear();
}

Address UdpTransport::group_address(const uint8_t hash[32]) const {
    // 239.192.0.0/14, the organisation-local scope (RFC 2365), and a port above 20000.
    sockaddr_in g{};
    g.sin_family = AF_INET;
    const uint32_t host = (239u << 24) | (192u << 16) | ((hash[0] & 3u) << 16) | (hash[1] << 8) | hash[2];
    g.sin_addr.s_addr = htonl(host);
    g.sin_port = htons(static_cast<uint16_t>(20000 + ((hash[3] << 8) | hash[4]) % 40000));
    return UdpAddress::encode(g);
}

Status UdpTransport::join(const Address &group) {
    sockaddr_in g{};
    if (!UdpAddress::decode(group, &g) || !IN_MULTICAST(ntohl(g.sin_addr.s_addr)))
        return Status::error(PLEXUS_ERR_BAD_PARAM, "not a UDP/IPv4 multicast group address");
    if (groups_.count(group)) return Status::error(PLEXUS_ERR_EXISTS, "group already joined");
    // Loopback lacks the flag yet loops multicast back; any other interface without it drops it.
    if (!iface_.multicast && !iface_.loopback)
        return Status::error(PLEXUS_ERR_NOT_AVAILABLE, "interface " + iface_.name +
                                                           " does not do multicast (no IFF_MULTICAST; "
                                                           "ip link set " + iface_.name + " multicast on)");
    auto s = std::make_unique<Socket>();
    s->multicast = true;
    if (Status st = new_socket(receive_buffer_, &s->fd); !st) return st;
    const int fd = s->fd.get();
    // Several endpoints of a host (of this job or not) may join one group: each binds it.
    if (Status st = set_int(fd, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR"); !st) return st;
    // Only the group bound, not every group any socket of the host joined on this port.
    if (Status st = set_int(fd, IPPROTO_IP, IP_MULTICAST_ALL, 0, "IP_MULTICAST_ALL"); !st) return st;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&g), sizeof g) != 0)
        return sys_error(PLEXUS_ERR_NOT_AVAILABLE, "bind to the group's address");
    const ip_mreqn m = membership(g, iface_);
    if (::setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &m, sizeof m) != 0)
        return sys_error(PLEXUS_ERR_NOT_AVAILABLE, "IP_ADD_MEMBERSHIP on " + iface_.name);
    return add_socket(std::move(s), group);
}

Status UdpTransport::leave(const Address &group) {
    auto it = groups_.find(group);
    if (it == groups_.end()) return Status::error(PLEXUS_ERR_NOT_FOUND, "group not joined");
    std::erase(ready_, it->second.get());
    // Closing the socket drops its membership and its epoll registration.
    groups_.erase(it);
    return Status::ok();
}

}  // namespace plexus::runtime::dgram
