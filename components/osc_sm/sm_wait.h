// How the synchronisation primitives wait: through a function of the host API's progress_wait
// shape (poll a condition, backing off when idle: spin, then yield, then sleep), so that a window
// on a node with more ranks than cores lets the process it waits for run. The module passes the
// host's progress_wait; the tests pass their own bounded loop.
#pragma once

#include <type_traits>

#include <plexus/component.h>

namespace plexus::osc_sm {

using WaitFn = int (*)(plexus_done_fn_t done, void *ctx, int timeout_ms);

// Checks pred once, then lets wait poll it: PLEXUS_SUCCESS or wait's error (PLEXUS_ERR_TIMEOUT).
// Polls a shared word this many times before going through the progress engine: a peer running
// on another core usually answers within a few cache-line transfers, which one poll of every
// BTL would delay; a peer that is not running costs only these polls before the back-off.
constexpr int kSpinPolls = 64;

template <class Pred>
int wait_until(WaitFn wait, Pred &&pred, int timeout_ms = -1) {
    for (int i = 0; i < kSpinPolls; ++i) {
        if (pred()) return PLEXUS_SUCCESS;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    using P = std::remove_reference_t<Pred>;
    return wait([](void *c) -> int { return (*static_cast<P *>(c))() ? 1 : 0; }, &pred, timeout_ms);
}

}  // namespace plexus::osc_sm
