// Frames over a socket.
#include "stream.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <plexus/status.h>

namespace plexus::dpm_ud {
namespace {
constexpr size_t kMaxFrame = 256u << 20;  // a group of a million processes' cards would not fit
}

Stream::~Stream() {
    if (owned_ && fd_ >= 0) ::close(fd_);
}

bool Stream::ready(short events, const char *what, std::string *why) {
    struct pollfd p{fd_, events, 0};
    int n;
    do n = ::poll(&p, 1, timeout_ms_);
    while (n < 0 && errno == EINTR);
    if (n == 0) return *why = "waited " + std::to_string(timeout_ms_) + " ms for " + peer_ + " to " + what, false;
    if (n < 0) return *why = std::string("poll: ") + std::strerror(errno), false;
    return true;
}

int Stream::send_frame(const Bytes &frame, std::string *why) {
    Bytes out;
    const uint32_t len = static_cast<uint32_t>(frame.size());
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(len >> (8 * i)));
    out.insert(out.end(), frame.begin(), frame.end());
    size_t done = 0;
    while (done < out.size()) {
        if (!ready(POLLOUT, "take our data", why)) return PLEXUS_ERR_TIMEOUT;
        const ssize_t n = ::send(fd_, out.data() + done, out.size() - done, MSG_NOSIGNAL);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) return *why = "writing to " + peer_ + ": " + (n < 0 ? std::strerror(errno) : "closed"), PLEXUS_ERROR;
        done += static_cast<size_t>(n);
    }
    return PLEXUS_SUCCESS;
}

int Stream::recv_frame(Bytes *frame, size_t max, std::string *why) {
    auto read_all = [&](uint8_t *buf, size_t len) {
        size_t done = 0;
        while (done < len) {
            if (!ready(POLLIN, "answer", why)) return PLEXUS_ERR_TIMEOUT;
            const ssize_t n = ::recv(fd_, buf + done, len - done, 0);
            if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            if (n <= 0)
                return *why = "reading from " + peer_ + ": " +
                              (n < 0 ? std::strerror(errno) : "the other side closed the connection"),
                       PLEXUS_ERROR;
            done += static_cast<size_t>(n);
        }
        return PLEXUS_SUCCESS;
    };
    uint8_t head[4];
    if (int rc = read_all(head, sizeof head)) return rc;
    const uint32_t len = uint32_t(head[0]) | uint32_t(head[1]) << 8 | uint32_t(head[2]) << 16 | uint32_t(head[3]) << 24;
    if (len > max || len > kMaxFrame)
        return *why = peer_ + " sent a frame of " + std::to_string(len) + " bytes (at most " +
                      std::to_string(max < kMaxFrame ? max : kMaxFrame) + "): not a dpm_ud peer",
               PLEXUS_ERROR;
    frame->assign(len, 0);
    return read_all(frame->data(), len);
}

int Stream::recv(Message *m, std::string *why) {
    Bytes frame;
    if (int rc = recv_frame(&frame, kMaxFrame, why)) return rc;
    std::optional<Message> got = decode(frame.data(), frame.size(), why);
    if (!got) return *why = peer_ + " sent a malformed message: " + *why, PLEXUS_ERROR;
    *m = std::move(*got);
    return PLEXUS_SUCCESS;
}

}  // namespace plexus::dpm_ud
