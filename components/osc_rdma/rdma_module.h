// The plexus_osc_module_t the MPI layer holds for one window, and the window behind it (the SDK's
// OscModule: every entry point forwards to the Window's member of the same name).
#pragma once

#include <plexus/osc.h>
#include <plexus/sdk/osc_module.hpp>

#include "rdma_params.h"
#include "rdma_window.h"

namespace plexus::osc_rdma {

using ModuleHandle = plexus::sdk::OscModule<Window>;

// A module for the scope (a dry run's scope without services gets one that is only destroyed).
ModuleHandle *create_module(const plexus_osc_scope_t &scope, const Config &config,
                            const plexus_host_api_t *host);

}  // namespace plexus::osc_rdma
