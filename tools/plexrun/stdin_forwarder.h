// Rank 0's stdin. Ranks run in process groups of their own, so a rank reading plexrun's
// terminal directly would be stopped (SIGTTIN); when stdin is a terminal, plexrun reads it
// and passes the bytes on through a pipe. Any other stdin (file, pipe) is inherited as is.
#pragma once

#include <string>

#include "event_loop.h"
#include "unique_fd.h"

namespace plexrun {

enum class StdinMode {
    Inherit,  // rank 0 gets plexrun's fd 0
    Forward,  // plexrun's fd 0 is its foreground terminal: forward through a pipe
    DevNull,  // no usable stdin (closed, or a terminal plexrun is in the background of)
};

StdinMode choose_stdin_mode();

class StdinForwarder {
public:
    StdinForwarder(EventLoop &loop, UniqueFd to_rank);
    ~StdinForwarder();
    StdinForwarder(const StdinForwarder &) = delete;
    StdinForwarder &operator=(const StdinForwarder &) = delete;

private:
    void on_input();
    void on_writable();
    void stop();

    EventLoop &loop_;
    UniqueFd to_rank_;
    std::string pending_;  // read but not yet taken by the pipe
    bool input_open_ = true;
};

}  // namespace plexrun
