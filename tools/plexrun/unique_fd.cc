// Owning file descriptors and pipes.
#include "unique_fd.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace plexrun {

void UniqueFd::reset(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
}

Pipe make_pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("pipe2");
    return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

void set_nonblocking(int fd) {
    int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0)
        throw_errno("fcntl(O_NONBLOCK)");
}

void throw_errno(const std::string &what) {
    throw std::system_error(errno, std::generic_category(), what);
}

}  // namespace plexrun
