// A progress callback registered for as long as its owner lives, so that no path out of an
// object (close, a failed open, an exception) leaves the engine polling freed memory.
#pragma once

#include <plexus/component.h>

namespace plexus::sdk {

class ProgressRegistration {
public:
    ProgressRegistration() = default;
    ProgressRegistration(const ProgressRegistration &) = delete;
    ProgressRegistration &operator=(const ProgressRegistration &) = delete;
    ~ProgressRegistration() { reset(); }

    // Registers fn(ctx) (once: a second call while registered does nothing).
    int start(const plexus_host_api_t *host, plexus_progress_fn_t fn, void *ctx) noexcept {
        if (active()) return PLEXUS_SUCCESS;
        if (!host || !host->progress_register || !fn) return PLEXUS_ERR_BAD_PARAM;
        if (int rc = host->progress_register(fn, ctx); rc != PLEXUS_SUCCESS) return rc;
        host_ = host;
        fn_ = fn;
        ctx_ = ctx;
        return PLEXUS_SUCCESS;
    }
    void reset() noexcept {
        if (active() && host_->progress_unregister) host_->progress_unregister(fn_, ctx_);
        host_ = nullptr;
        fn_ = nullptr;
        ctx_ = nullptr;
    }
    bool active() const noexcept { return host_ != nullptr; }

private:
    const plexus_host_api_t *host_ = nullptr;
    plexus_progress_fn_t fn_ = nullptr;
    void *ctx_ = nullptr;
};

// The progress callback for a member function: progress_fn<&Module::progress> polls
// static_cast<Module *>(ctx)->progress().
template <class Module, int (Module::*Progress)()>
int progress_fn(void *ctx) noexcept {
    try {
        return (static_cast<Module *>(ctx)->*Progress)();
    } catch (...) {
        return 0;  // progress is polled again; a C caller cannot take an exception
    }
}

}  // namespace plexus::sdk
