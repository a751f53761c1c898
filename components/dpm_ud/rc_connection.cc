// The TCP connection of rc mode and its proofs.
#include "rc_connection.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include <plexus/sdk/hmac_sha256.hpp>
#include <plexus/status.h>

namespace plexus::dpm_ud {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kPumpMs = 2;

std::string ip_text(uint32_t ipv4, uint16_t port) {
    char buf[INET_ADDRSTRLEN] = {};
    inet_ntop(AF_INET, &ipv4, buf, sizeof buf);
    return std::string(buf) + ":" + std::to_string(port);
}

void no_delay(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int remaining_ms(Clock::time_point end) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
    return left > 0 ? static_cast<int>(left) : 0;
}

bool same(const Bytes &got, const Mac &want) {
    return got.size() == want.size() && sdk::HmacSha256::equal(got.data(), want.data(), want.size());
}

}  // namespace

Mac proof(const Key &key, const char *role, uint64_t session, const Nonce &starter, const Nonce &answerer) {
    Bytes data(reinterpret_cast<const uint8_t *>("plexus dpm_ud rc "),
               reinterpret_cast<const uint8_t *>("plexus dpm_ud rc ") + 17);
    data.insert(data.end(), role, role + std::strlen(role) + 1);
    for (int i = 0; i < 8; ++i) data.push_back(static_cast<uint8_t>(session >> (8 * i)));
    data.insert(data.end(), starter.begin(), starter.end());
    data.insert(data.end(), answerer.begin(), answerer.end());
    Mac mac{};
    static_assert(sizeof(Mac) == sdk::HmacSha256::kBytes);
    sdk::HmacSha256::once(key.data(), key.size(), data.data(), data.size(), mac.data());
    return mac;
}

int Listener::open(uint32_t ipv4, std::unique_ptr<Listener> *out, std::string *why) {
    auto l = std::make_unique<Listener>();
    l->fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (l->fd_ < 0) return *why = std::string("socket: ") + std::strerror(errno), PLEXUS_ERROR;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = ipv4;
    socklen_t len = sizeof a;
    if (::bind(l->fd_, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 || ::listen(l->fd_, 4) != 0 ||
        ::getsockname(l->fd_, reinterpret_cast<sockaddr *>(&a), &len) != 0)
        return *why = "listening on " + ip_text(ipv4, 0) + ": " + std::strerror(errno), PLEXUS_ERROR;
    l->port_ = ntohs(a.sin_port);
    *out = std::move(l);
    return PLEXUS_SUCCESS;
}

Listener::~Listener() {
    if (fd_ >= 0) ::close(fd_);
}

int Listener::accept(const Key &key, uint64_t session, const Nonce &starter, const Nonce &answerer, int timeout_ms,
                     const std::function<void()> &pump, std::unique_ptr<Stream> *out, int *refused,
                     std::string *why) {
    const Clock::time_point end = Clock::now() + std::chrono::milliseconds(timeout_ms);
    const Mac want = proof(key, "connect", session, starter, answerer);
    for (;;) {
        struct pollfd p{fd_, POLLIN, 0};
        int n;
        do {
            if (pump) pump();
            const int left = remaining_ms(end);
            n = ::poll(&p, 1, pump && left > kPumpMs ? kPumpMs : left);
        } while ((n < 0 && errno == EINTR) || (n == 0 && remaining_ms(end) > 0));
        if (n <= 0)
            return *why = "no connection proving the meeting's key reached port " + std::to_string(port_) + " within " +
                          std::to_string(timeout_ms) + " ms (" + std::to_string(*refused) + " refused)",
                   PLEXUS_ERR_TIMEOUT;
        const int fd = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) continue;
        no_delay(fd);
        // A stranger gets the rest of our time at most, and nothing but the closed connection.
        auto s = std::make_unique<Stream>(fd, true, remaining_ms(end) + 1, "the connecting root");
        Bytes got;
        std::string ignored;
        if (s->recv_frame(&got, want.size(), &ignored) != PLEXUS_SUCCESS || !same(got, want)) {
            ++*refused;
            continue;
        }
        const Mac mine = proof(key, "accept", session, starter, answerer);
        if (int rc = s->send_frame(Bytes(mine.begin(), mine.end()), why)) return rc;
        *out = std::move(s);
        return PLEXUS_SUCCESS;
    }
}

int connect_rc(uint32_t ipv4, uint16_t port, const Key &key, uint64_t session, const Nonce &starter,
               const Nonce &answerer, int timeout_ms, std::unique_ptr<Stream> *out, std::string *why) {
    const std::string peer = ip_text(ipv4, port);
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return *why = std::string("socket: ") + std::strerror(errno), PLEXUS_ERROR;
    auto s = std::make_unique<Stream>(fd, true, timeout_ms, "the answering root at " + peer);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = ipv4;
    a.sin_port = htons(port);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 && errno != EINPROGRESS)
        return *why = "connecting to " + peer + ": " + std::strerror(errno), PLEXUS_ERROR;
    struct pollfd p{fd, POLLOUT, 0};
    int n;
    do n = ::poll(&p, 1, timeout_ms);
    while (n < 0 && errno == EINTR);
    int err = 0;
    socklen_t len = sizeof err;
    if (n <= 0) return *why = "connecting to " + peer + ": no answer within " + std::to_string(timeout_ms) + " ms",
                       PLEXUS_ERR_TIMEOUT;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0)
        return *why = "connecting to " + peer + ": " + std::strerror(err), PLEXUS_ERROR;
    no_delay(fd);
    const Mac mine = proof(key, "connect", session, starter, answerer);
    if (int rc = s->send_frame(Bytes(mine.begin(), mine.end()), why)) return rc;
    Bytes got;
    if (int rc = s->recv_frame(&got, mine.size(), why)) return rc;
    if (!same(got, proof(key, "accept", session, starter, answerer)))
        return *why = peer + " did not prove the meeting's key", PLEXUS_ERROR;
    *out = std::move(s);
    return PLEXUS_SUCCESS;
}

}  // namespace plexus::dpm_ud
