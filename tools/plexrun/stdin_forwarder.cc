// Choosing rank 0's stdin, and forwarding a terminal to it.
#include "stdin_forwarder.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace plexrun {

StdinMode choose_stdin_mode() {
    if (::fcntl(0, F_GETFD) < 0) return StdinMode::DevNull;
    if (!::isatty(0)) return StdinMode::Inherit;
    return ::tcgetpgrp(0) == ::getpgrp() ? StdinMode::Forward : StdinMode::DevNull;
}

StdinForwarder::StdinForwarder(EventLoop &loop, UniqueFd to_rank)
    : loop_(loop), to_rank_(std::move(to_rank)) {
    set_nonblocking(to_rank_.get());
    loop_.watch(0, EPOLLIN, [this](uint32_t) { on_input(); });
}

StdinForwarder::~StdinForwarder() {
    stop();
}

void StdinForwarder::stop() {
    if (input_open_) loop_.unwatch(0);
    if (to_rank_) loop_.unwatch(to_rank_.get());
    input_open_ = false;
    to_rank_.reset();
}

void StdinForwarder::on_input() {
    char buf[65536];
    ssize_t n = ::read(0, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (n <= 0) {  // end of input (^D): rank 0 sees EOF once the pipe is drained
        loop_.unwatch(0);
        input_open_ = false;
        if (pending_.empty()) to_rank_.reset();
        return;
    }
    pending_.append(buf, static_cast<size_t>(n));
    // Stop reading until the rank takes what is pending: the terminal buffers meanwhile.
    loop_.unwatch(0);
    loop_.watch(to_rank_.get(), EPOLLOUT, [this](uint32_t) { on_writable(); });
}

void StdinForwarder::on_writable() {
    ssize_t n = ::write(to_rank_.get(), pending_.data(), pending_.size());
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (n < 0) {  // rank 0 closed its stdin or exited: nothing more to forward
        stop();
        return;
    }
    pending_.erase(0, static_cast<size_t>(n));
    if (!pending_.empty()) return;
    loop_.unwatch(to_rank_.get());
    if (input_open_)
        loop_.watch(0, EPOLLIN, [this](uint32_t) { on_input(); });
    else
        to_rank_.reset();
}

}  // namespace plexrun
