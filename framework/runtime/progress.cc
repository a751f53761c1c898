// Registration and polling of progress callbacks, and the wait loop around them.
#include "runtime/progress.h"

#include <algorithm>

namespace plexus::runtime {

int ProgressEngine::add(plexus_progress_fn_t fn, void *ctx) {
    if (!fn) return PLEXUS_ERR_BAD_PARAM;
    std::lock_guard guard(lock_);
    auto same = [&](const Callback &c) { return c.fn == fn && c.ctx == ctx; };
    if (std::any_of(callbacks_.begin(), callbacks_.end(), same)) return PLEXUS_ERR_EXISTS;
    callbacks_.push_back({fn, ctx});
    return PLEXUS_SUCCESS;
}

int ProgressEngine::remove(plexus_progress_fn_t fn, void *ctx) {
    std::lock_guard guard(lock_);
    auto same = [&](const Callback &c) { return c.fn == fn && c.ctx == ctx; };
    auto it = std::find_if(callbacks_.begin(), callbacks_.end(), same);
    if (it == callbacks_.end()) return PLEXUS_ERR_NOT_FOUND;
    callbacks_.erase(it);
    return PLEXUS_SUCCESS;
}

int ProgressEngine::poll() {
    // Registration happens at open/close, polling all the time: the MPI layer runs with
    // FUNNELED threading, so the callbacks are only ever changed and polled from one thread.
    int events = 0;
    ++stats_.polls;
    for (size_t i = 0; i < callbacks_.size(); ++i) {
        events += callbacks_[i].fn(callbacks_[i].ctx);
    }
    return events;
}

ProgressEngine::Waiter::Waiter(ProgressEngine &engine, std::optional<std::chrono::nanoseconds> timeout)
    : engine_(engine), backoff_(engine.policy_, engine.hooks_, &engine.stats_) {
    if (timeout) deadline_ = std::chrono::steady_clock::now() + *timeout;
}

bool ProgressEngine::Waiter::step() {
    if (engine_.poll() > 0) {
        backoff_.reset();
        return true;
    }
    backoff_.idle();
    return !deadline_ || std::chrono::steady_clock::now() < *deadline_;
}

size_t ProgressEngine::size() const {
    std::lock_guard guard(lock_);
    return callbacks_.size();
}

}  // namespace plexus::runtime
