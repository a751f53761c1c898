// Owning file descriptors (closed when dropped) and the pipes plexrun wires ranks with.
#pragma once

#include <string>
#include <utility>

namespace plexrun {

class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : fd_(fd) {}
    ~UniqueFd() { reset(); }
    UniqueFd(UniqueFd &&other) noexcept : fd_(other.release()) {}
    UniqueFd &operator=(UniqueFd &&other) noexcept {
        if (this != &other) reset(other.release());
        return *this;
    }
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;

    int get() const { return fd_; }
    explicit operator bool() const { return fd_ >= 0; }
    int release() { return std::exchange(fd_, -1); }
    void reset(int fd = -1);

private:
    int fd_ = -1;
};

struct Pipe {
    UniqueFd read_end;
    UniqueFd write_end;
};

// Both ends are close-on-exec: a child gets its copy through dup2, which clears the flag, so no
// rank ever holds another rank's pipe open (that would delay EOF).
Pipe make_pipe();
void set_nonblocking(int fd);
// Throws std::system_error for errno with "what" as its context.
[[noreturn]] void throw_errno(const std::string &what);

}  // namespace plexrun
