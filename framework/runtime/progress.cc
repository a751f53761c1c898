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

size_t ProgressEngine::size() const {
    std::lock_guard guard(lock_);
    return callbacks_.size();
}

}  // namespace plexus::runtime
