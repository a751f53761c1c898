// Line-by-line forwarding of the ranks' output.
#include "output_forwarder.h"

#include <limits.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace plexrun {

void OutputSink::write(iovec *iov, int count) {
    while (count > 0 && !broken_) {
        ssize_t n = ::writev(fd_, iov, count > IOV_MAX ? IOV_MAX : count);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) {  // someone made our stdout non-blocking: wait for room
                pollfd p{fd_, POLLOUT, 0};
                ::poll(&p, 1, -1);
                continue;
            }
            broken_ = true;  // EPIPE and the like: the reader is gone, drop the rest
            return;
        }
        size_t left = static_cast<size_t>(n);
        while (count > 0 && left >= iov->iov_len) {
            left -= iov->iov_len;
            ++iov;
            --count;
        }
        if (count > 0) {
            iov->iov_base = static_cast<char *>(iov->iov_base) + left;
            iov->iov_len -= left;
        }
    }
}

void LineSplitter::consume(const char *data, size_t n) {
    // Only the new bytes can hold a newline: everything before the last one has gone out.
    const void *nl = ::memrchr(data, '\n', n);
    buffer_.append(data, n);
    if (nl)
        emit(buffer_.size() - n + static_cast<size_t>(static_cast<const char *>(nl) - data) + 1,
             false);
    if (buffer_.size() >= kMaxLine) emit(buffer_.size(), !tag_.empty());
}

void LineSplitter::finish() {
    if (!buffer_.empty()) emit(buffer_.size(), !tag_.empty());
}

// Forwards buffer_[0, end) in one go: with a tag before every line when tagging.
void LineSplitter::emit(size_t end, bool add_newline) {
    static char newline = '\n';
    std::vector<iovec> iov;
    auto piece = [&](const char *p, size_t len) {
        iov.push_back(iovec{const_cast<char *>(p), len});
    };
    if (tag_.empty()) {
        piece(buffer_.data(), end);
    } else {
        size_t start = 0;
        while (start < end) {
            size_t nl = buffer_.find('\n', start);
            size_t stop = (nl == std::string::npos || nl >= end) ? end : nl + 1;
            piece(tag_.data(), tag_.size());
            piece(buffer_.data() + start, stop - start);
            start = stop;
        }
    }
    if (add_newline) piece(&newline, 1);
    sink_.write(iov.data(), static_cast<int>(iov.size()));
    buffer_.erase(0, end);
}

void OutputForwarder::add(UniqueFd read_end, bool is_stderr, int job, uint32_t rank) {
    set_nonblocking(read_end.get());
    std::string tag;
    if (tag_output_)
        tag = "[" + std::to_string(job) + "," + std::to_string(rank) + "]" +
              (is_stderr ? "<stderr>: " : "<stdout>: ");
    int fd = read_end.get();
    auto stream = std::make_unique<Stream>(
        Stream{std::move(read_end), LineSplitter(is_stderr ? stderr_ : stdout_, std::move(tag))});
    Stream *s = stream.get();
    streams_[fd] = std::move(stream);
    loop_.watch(fd, EPOLLIN, [this, s, fd](uint32_t) {
        if (!pump(*s)) close_stream(fd);
    });
}

bool OutputForwarder::pump(Stream &s) {
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(s.fd.get(), buf, sizeof buf);
        if (n > 0) {
            s.lines.consume(buf, static_cast<size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return true;
        return false;  // EOF, or an error that no retry will cure
    }
}

void OutputForwarder::close_stream(int fd) {
    auto it = streams_.find(fd);
    if (it == streams_.end()) return;
    loop_.unwatch(fd);
    it->second->lines.finish();
    streams_.erase(it);
}

void OutputForwarder::drain_all() {
    std::vector<int> fds;
    for (auto &[fd, stream] : streams_) {
        pump(*stream);
        fds.push_back(fd);
    }
    for (int fd : fds) close_stream(fd);
}

}  // namespace plexrun
