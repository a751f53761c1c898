// Messages over a connected stream socket: the reliable connection between the two roots in rc
// mode, and the socket MPI_Comm_join is given. Each frame is a 4-byte little-endian length and
// the bytes; every read and write waits at most the timeout and says what it waited for.
#pragma once

#include <string>

#include "wire.h"

namespace plexus::dpm_ud {

class Stream {
public:
    // fd is borrowed unless owned (then closed by the destructor).
    Stream(int fd, bool owned, int timeout_ms, std::string peer) : fd_(fd), owned_(owned), timeout_ms_(timeout_ms),
                                                                   peer_(std::move(peer)) {}
    ~Stream();
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;

    int fd() const { return fd_; }
    const std::string &peer() const { return peer_; }

    // PLEXUS_SUCCESS or an error with *why.
    int send_frame(const Bytes &frame, std::string *why);
    int recv_frame(Bytes *frame, size_t max, std::string *why);
    int send(const Message &m, std::string *why) { return send_frame(encode(m), why); }
    int recv(Message *m, std::string *why);

private:
    bool ready(short events, const char *what, std::string *why);
    int fd_;
    bool owned_;
    int timeout_ms_;
    std::string peer_;
};

}  // namespace plexus::dpm_ud
