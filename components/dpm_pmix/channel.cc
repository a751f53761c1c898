// The two channels.
#include "channel.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace plexus::dpm_pmix {

int NameChannel::send(const std::string &message) {
    const std::string key = out_ + "." + std::to_string(sent_++);
    return s_->publish_as(key.c_str(), message.c_str(), PLEXUS_DPM_PERSIST_FIRST_READ);
}

int NameChannel::recv(std::string *message) {
    const std::string key = in_ + "." + std::to_string(received_++);
    char *value = nullptr;
    if (int rc = s_->lookup_wait(key.c_str(), timeout_ms_, &value)) return rc;
    message->assign(value);
    std::free(value);
    return PLEXUS_DPM_SUCCESS;
}

void NameChannel::abandon() {
    // Read messages are gone already; withdrawing them too is harmless (and costs a round trip
    // each only on this failure path).
    for (unsigned n = 0; n < sent_; ++n) withdraw(s_, out_ + "." + std::to_string(n));
}

void withdraw(const plexus_dpm_services_t *s, const std::string &key) {
    // A core older than services 1.3 cannot withdraw: the message then stays until the job ends.
    if (s->minor >= 3 && s->struct_size >= offsetof(plexus_dpm_services_t, unpublish_as) + sizeof s->unpublish_as &&
        s->unpublish_as)
        s->unpublish_as(key.c_str());
}

namespace {
// The largest message accepted from a peer (a group of a few thousand processes).
constexpr uint32_t kMaxMessage = 16u << 20;
}  // namespace

bool FdChannel::ready(short events, const char *what) {
    struct pollfd p{fd_, events, 0};
    int n;
    do n = ::poll(&p, 1, timeout_ms_);
    while (n < 0 && errno == EINTR);
    if (n == 0) {
        s_->set_error("waited %d ms (dpm_base_connect_timeout) for the other process to %s over fd %d", timeout_ms_,
                      what, fd_);
        return false;
    }
    if (n < 0) {
        s_->set_error("poll on fd %d: %s", fd_, std::strerror(errno));
        return false;
    }
    return true;
}

int FdChannel::send(const std::string &message) {
    const uint32_t len = static_cast<uint32_t>(message.size());
    std::string frame(reinterpret_cast<const char *>(&len), sizeof len);
    frame += message;
    size_t done = 0;
    while (done < frame.size()) {
        if (!ready(POLLOUT, "take our data")) return PLEXUS_DPM_ERR_PORT;
        const ssize_t n = ::send(fd_, frame.data() + done, frame.size() - done, MSG_NOSIGNAL);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) {
            s_->set_error("writing to fd %d: %s", fd_, n < 0 ? std::strerror(errno) : "connection closed");
            return PLEXUS_DPM_ERR_PORT;
        }
        done += static_cast<size_t>(n);
    }
    return PLEXUS_DPM_SUCCESS;
}

int FdChannel::recv(std::string *message) {
    auto read_all = [this](char *buf, size_t len) {
        size_t done = 0;
        while (done < len) {
            if (!ready(POLLIN, "answer")) return false;
            const ssize_t n = ::recv(fd_, buf + done, len - done, 0);
            if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            if (n <= 0) {
                s_->set_error("reading from fd %d: %s", fd_,
                              n < 0 ? std::strerror(errno) : "the other process closed the connection");
                return false;
            }
            done += static_cast<size_t>(n);
        }
        return true;
    };
    uint32_t len = 0;
    if (!read_all(reinterpret_cast<char *>(&len), sizeof len)) return PLEXUS_DPM_ERR_PORT;
    if (len > kMaxMessage) {
        s_->set_error("the other process over fd %d sent a %u-byte message: not a Plexus MPI_Comm_join", fd_, len);
        return PLEXUS_DPM_ERR_PORT;
    }
    message->assign(len, '\0');
    return read_all(message->data(), len) ? PLEXUS_DPM_SUCCESS : PLEXUS_DPM_ERR_PORT;
}

}  // namespace plexus::dpm_pmix
