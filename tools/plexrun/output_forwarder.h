// Forwarding the ranks' stdout and stderr to plexrun's: whole lines only, so lines of
// different ranks never mix, optionally tagged "[JOB,RANK]<stdout>: ".
#pragma once

#include <sys/uio.h>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "event_loop.h"
#include "unique_fd.h"

namespace plexrun {

// plexrun's own stdout or stderr.
class OutputSink {
public:
    explicit OutputSink(int fd) : fd_(fd) {}
    // Writes everything (waiting if the reader is slow), or nothing once the reader is gone.
    void write(iovec *iov, int count);

private:
    int fd_;
    bool broken_ = false;
};

// One stream of one rank, cut into lines.
class LineSplitter {
public:
    // A line longer than this is forwarded in pieces (each tagged, when tagging).
    static constexpr size_t kMaxLine = 4 << 20;

    LineSplitter(OutputSink &sink, std::string tag) : sink_(sink), tag_(std::move(tag)) {}
    void consume(const char *data, size_t n);
    // The last line, which had no newline (tagged output gets one).
    void finish();

private:
    void emit(size_t end, bool add_newline);

    OutputSink &sink_;
    std::string tag_;  // empty: untagged
    std::string buffer_;
};

class OutputForwarder {
public:
    OutputForwarder(EventLoop &loop, bool tag_output) : loop_(loop), tag_output_(tag_output) {}

    // Forwards READ_END until EOF.
    void add(UniqueFd read_end, bool is_stderr, int job, uint32_t rank);
    // At exit: reads what is still in every pipe, without waiting for writers that are left
    // (a rank's orphaned children), and flushes the last partial lines.
    void drain_all();

private:
    struct Stream {
        UniqueFd fd;
        LineSplitter lines;
    };
    // Reads until the pipe is empty; false at EOF.
    bool pump(Stream &s);
    void close_stream(int fd);

    EventLoop &loop_;
    bool tag_output_;
    OutputSink stdout_{1};
    OutputSink stderr_{2};
    std::unordered_map<int, std::unique_ptr<Stream>> streams_;
};

}  // namespace plexrun
