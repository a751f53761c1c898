// The progress engine: the callbacks of active components, polled by whoever waits for
// communication to complete.
#pragma once

#include <mutex>
#include <vector>

#include <plexus/component.h>

namespace plexus::runtime {

class ProgressEngine {
public:
    int add(plexus_progress_fn_t fn, void *ctx);     // PLEXUS_ERR_EXISTS when already there
    int remove(plexus_progress_fn_t fn, void *ctx);  // PLEXUS_ERR_NOT_FOUND when absent
    // Calls every callback once; returns the events they reported.
    int poll();
    size_t size() const;

private:
    struct Callback {
        plexus_progress_fn_t fn;
        void *ctx;
    };
    mutable std::mutex lock_;  // guards registration; poll copies nothing on the hot path
    std::vector<Callback> callbacks_;
};

}  // namespace plexus::runtime
