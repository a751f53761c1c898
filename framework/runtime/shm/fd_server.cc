#include "runtime/shm/fd_server.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

#include "runtime/unique_fd.h"

namespace plexus::runtime {
namespace {

// What a request gets back, before the descriptor (if any) rides along.
enum Answer : uint32_t { kGranted = 0, kUnknownTag = 1 };

// The abstract name of pid's server; returns the address length.
socklen_t address_of(pid_t pid, sockaddr_un *addr) {
    *addr = sockaddr_un{};
    addr->sun_family = AF_UNIX;
    const std::string name = "plexus-shm-" + std::to_string(pid);
    std::memcpy(addr->sun_path + 1, name.data(), name.size());  // sun_path[0] = 0: abstract
    return static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
}

bool peer_has_my_uid(int fd, pid_t want_pid) {
    ucred cred{};
    socklen_t len = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return false;
    return cred.uid == ::geteuid() && (want_pid == 0 || cred.pid == want_pid);
}

void set_timeout(int fd, int ms) {
    timeval tv{ms / 1000, (ms % 1000) * 1000};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

// The descriptors this process offers, and its server (one per process: a forked child that
// offers gets a server of its own, under its own pid).
struct Server {
    std::mutex lock;
    std::map<uint64_t, int> offered;
    pid_t serving_pid = 0;
};

Server &server() {
    static Server *s = new Server;  // never destroyed: the thread may outlive static destruction
    return *s;
}

void answer(int conn) {
    set_timeout(conn, 1000);
    if (!peer_has_my_uid(conn, 0)) return;  // another user: not a word
    uint64_t tag = 0;
    if (::recv(conn, &tag, sizeof tag, MSG_WAITALL) != sizeof tag) return;
    Server &s = server();
    std::lock_guard<std::mutex> guard(s.lock);  // the descriptor stays open while it is sent
    auto it = s.offered.find(tag);
    uint32_t reply = it == s.offered.end() ? kUnknownTag : kGranted;
    iovec iov{&reply, sizeof reply};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    if (reply == kGranted) {
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(c), &it->second, sizeof(int));
    }
    ::sendmsg(conn, &msg, MSG_NOSIGNAL);
}

void serve(int listener) {
    for (;;) {
        UniqueFd conn(::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC));
        if (conn.get() < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            return;
        }
        answer(conn.get());
    }
}

// Called with the lock held.
bool start_server(Server &s, std::string *why) {
    const pid_t self = ::getpid();
    if (s.serving_pid == self) return true;
    s.offered.clear();  // a forked child does not offer its parent's descriptors
    UniqueFd listener(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_un addr;
    const socklen_t len = address_of(self, &addr);
    if (listener.get() < 0 || ::bind(listener.get(), reinterpret_cast<sockaddr *>(&addr), len) != 0 ||
        ::listen(listener.get(), 64) != 0) {
        *why = std::string("cannot serve descriptors on @plexus-shm-") + std::to_string(self) + ": " +
               std::strerror(errno);
        return false;
    }
    try {
        std::thread(serve, listener.release()).detach();  // lives as long as the process
    } catch (const std::exception &e) {
        *why = std::string("cannot start the descriptor server: ") + e.what();
        return false;
    }
    s.serving_pid = self;
    return true;
}

}  // namespace

bool offer_fd(uint64_t tag, int fd, std::string *why) {
    Server &s = server();
    std::lock_guard<std::mutex> guard(s.lock);
    if (!start_server(s, why)) return false;
    s.offered[tag] = fd;
    return true;
}

void withdraw_fd(uint64_t tag) {
    Server &s = server();
    std::lock_guard<std::mutex> guard(s.lock);
    s.offered.erase(tag);
}

int request_fd(pid_t pid, uint64_t tag, int timeout_ms, std::string *why) {
    UniqueFd sock(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (sock.get() < 0) {
        *why = std::string("socket: ") + std::strerror(errno);
        return -1;
    }
    sockaddr_un addr;
    const socklen_t len = address_of(pid, &addr);
    if (::connect(sock.get(), reinterpret_cast<sockaddr *>(&addr), len) != 0) {
        *why = "process " + std::to_string(pid) + " serves no descriptors (" + std::strerror(errno) + ")";
        return -1;
    }
    if (!peer_has_my_uid(sock.get(), pid)) {
        *why = "@plexus-shm-" + std::to_string(pid) + " is not served by that process of this user";
        return -1;
    }
    set_timeout(sock.get(), timeout_ms);
    if (::send(sock.get(), &tag, sizeof tag, MSG_NOSIGNAL) != sizeof tag) {
        *why = std::string("sending the request: ") + std::strerror(errno);
        return -1;
    }
    uint32_t reply = 0;
    iovec iov{&reply, sizeof reply};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    if (::recvmsg(sock.get(), &msg, MSG_CMSG_CLOEXEC | MSG_WAITALL) != sizeof reply) {
        *why = "no answer from process " + std::to_string(pid) + " (" + std::strerror(errno) + ")";
        return -1;
    }
    cmsghdr *c = CMSG_FIRSTHDR(&msg);
    if (reply != kGranted || !c || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int))) {
        *why = "process " + std::to_string(pid) + " offers no segment with that tag";
        return -1;
    }
    int fd = -1;
    std::memcpy(&fd, CMSG_DATA(c), sizeof fd);
    return fd;
}

}  // namespace plexus::runtime
