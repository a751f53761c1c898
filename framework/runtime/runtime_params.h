// The runtime's parameters (framework "runtime", component "base"): registered by the MCA core
// with the others, and read by the runtime when it starts before, or without, a core.
#pragma once

#include <optional>

#include "base/param_registry.h"
#include "runtime/backoff.h"
#include "runtime/dgram/dgram_params.h"

namespace plexus::runtime {

struct RuntimeSettings {
    int verbose = 0;                // runtime_base_verbose
    int modex_timeout_ms = 60000;   // runtime_modex_timeout_ms: fetching one peer's card
    // runtime_modex_collect: the init fence ships every card. Unset (the user did not choose):
    // collect when the job spans more than one node (Runtime::fence_init says why).
    std::optional<bool> modex_collect;
    int fence_timeout_ms = 0;       // runtime_fence_timeout_ms: 0 waits as long as it takes
    BackoffPolicy progress;         // runtime_progress_*
    dgram::Settings dgram;          // runtime_dgram_*: the datagram facility
};

void register_runtime_params(mca::ParamRegistry &params);

// From a registry where register_runtime_params has run.
RuntimeSettings runtime_settings(const mca::ParamRegistry &params);

// From this process's own sources (files, environment), for a runtime started without a core.
RuntimeSettings runtime_settings_from_process();

// Milliseconds as PMIx's whole seconds, rounded up so that a short timeout never means "forever".
int timeout_seconds(int timeout_ms);

}  // namespace plexus::runtime
