// The event loop and its cross-thread work queue.
#include "event_loop.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace plexrun {
namespace {
constexpr uint64_t kWakeId = 0;  // watch ids start at 1
}

EventLoop::EventLoop()
    : epoll_(::epoll_create1(EPOLL_CLOEXEC)), wake_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    if (!epoll_) throw_errno("epoll_create1");
    if (!wake_) throw_errno("eventfd");
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = kWakeId;
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, wake_.get(), &ev) != 0) throw_errno("epoll_ctl");
}

void EventLoop::watch(int fd, uint32_t events, FdHandler handler) {
    uint64_t id = next_watch_++;
    epoll_event ev{};
    ev.events = events;
    ev.data.u64 = id;
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &ev) != 0) throw_errno("epoll_ctl(ADD)");
    watches_[id] = std::make_shared<Watch>(Watch{fd, std::move(handler)});
    watch_of_fd_[fd] = id;
}

void EventLoop::unwatch(int fd) {
    auto it = watch_of_fd_.find(fd);
    if (it == watch_of_fd_.end()) return;
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, fd, nullptr);
    // Events already returned for this id are skipped: the id is never reused, even if the fd is.
    watches_.erase(it->second);
    watch_of_fd_.erase(it);
}

EventLoop::TimerId EventLoop::after(std::chrono::milliseconds delay, Task task) {
    TimerId id = next_timer_++;
    timers_[id] = Timer{Clock::now() + delay, std::move(task)};
    return id;
}

void EventLoop::cancel(TimerId id) {
    timers_.erase(id);
}

void EventLoop::post(Task task) {
    {
        std::lock_guard<std::mutex> lock(queue_mutex_);
        queue_.push_back(std::move(task));
    }
    uint64_t one = 1;
    // A full counter (never in practice) still leaves the fd readable, which is all we need.
    [[maybe_unused]] ssize_t n = ::write(wake_.get(), &one, sizeof one);
}

void EventLoop::run() {
    epoll_event events[64];
    while (!stopped_) {
        int n = ::epoll_wait(epoll_.get(), events, 64, next_timeout_ms());
        if (n < 0 && errno != EINTR) throw_errno("epoll_wait");
        for (int i = 0; i < n && !stopped_; ++i) dispatch(events[i]);
        if (!stopped_) fire_due_timers();
    }
}

void EventLoop::dispatch(const epoll_event &ev) {
    if (ev.data.u64 == kWakeId) {
        drain_queue();
        return;
    }
    auto it = watches_.find(ev.data.u64);
    if (it == watches_.end()) return;
    std::shared_ptr<Watch> keep = it->second;  // alive even if the handler unwatches itself
    keep->handler(ev.events);
}

void EventLoop::drain_queue() {
    uint64_t count;
    [[maybe_unused]] ssize_t n = ::read(wake_.get(), &count, sizeof count);
    std::deque<Task> batch;
    {
        std::lock_guard<std::mutex> lock(queue_mutex_);
        batch.swap(queue_);
    }
    for (Task &task : batch) {
        if (stopped_) return;
        task();
    }
}

int EventLoop::next_timeout_ms() const {
    if (timers_.empty()) return -1;
    auto due = std::min_element(timers_.begin(), timers_.end(), [](auto &a, auto &b) {
                   return a.second.due < b.second.due;
               })->second.due;
    auto left = std::chrono::ceil<std::chrono::milliseconds>(due - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(left, 0, 60'000));
}

void EventLoop::fire_due_timers() {
    auto now = Clock::now();
    std::vector<TimerId> due;
    for (auto &[id, timer] : timers_)
        if (timer.due <= now) due.push_back(id);
    for (TimerId id : due) {
        auto it = timers_.find(id);
        if (it == timers_.end()) continue;  // cancelled by an earlier timer
        Task task = std::move(it->second.task);
        timers_.erase(it);
        task();
        if (stopped_) return;
    }
}

}  // namespace plexrun
