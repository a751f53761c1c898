// The one thread plexrun's own work runs on: epoll over file descriptors, timers, and a queue
// that other threads (libpmix's progress thread) hand work to.
#pragma once

#include <sys/epoll.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "unique_fd.h"

namespace plexrun {

class EventLoop {
public:
    using Task = std::function<void()>;
    using FdHandler = std::function<void(uint32_t events)>;
    using TimerId = uint64_t;
    using Clock = std::chrono::steady_clock;

    EventLoop();
    EventLoop(const EventLoop &) = delete;
    EventLoop &operator=(const EventLoop &) = delete;

    // A handler may unwatch its own fd, or any other, while it runs.
    void watch(int fd, uint32_t events, FdHandler handler);
    void unwatch(int fd);
    TimerId after(std::chrono::milliseconds delay, Task task);
    void cancel(TimerId id);
    // Safe from any thread; the task runs on the loop's thread, in posting order.
    void post(Task task);
    // Runs until stop(); tasks posted after that are dropped with the loop.
    void run();
    // Runs the tasks posted so far, now: for a handler that must see every upcall that
    // happened before the event it handles (a finalize or an abort before the exit).
    void run_posted() { drain_queue(); }
    void stop() { stopped_ = true; }

private:
    struct Watch {
        int fd;
        FdHandler handler;
    };
    struct Timer {
        Clock::time_point due;
        Task task;
    };
    void dispatch(const epoll_event &ev);
    void drain_queue();
    int next_timeout_ms() const;
    void fire_due_timers();

    UniqueFd epoll_;
    UniqueFd wake_;  // eventfd: post() makes it readable
    std::unordered_map<uint64_t, std::shared_ptr<Watch>> watches_;  // by watch id
    std::unordered_map<int, uint64_t> watch_of_fd_;
    uint64_t next_watch_ = 1;
    std::map<TimerId, Timer> timers_;
    TimerId next_timer_ = 1;
    std::mutex queue_mutex_;
    std::deque<Task> queue_;
    bool stopped_ = false;
};

}  // namespace plexrun
