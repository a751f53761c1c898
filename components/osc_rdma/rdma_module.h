// The plexus_osc_module_t the MPI layer holds for one window, and the window behind it.
#pragma once

#include <memory>

#include <plexus/osc.h>

#include "rdma_params.h"
#include "rdma_window.h"

namespace plexus::osc_rdma {

struct ModuleHandle {
    plexus_osc_module_t base;  // first: the MPI layer's pointer is this handle's
    std::unique_ptr<Window> window;
};

// A module for the scope (a dry run's scope without services gets one that is only destroyed).
ModuleHandle *create_module(const plexus_osc_scope_t &scope, const Config &config, const plexus_host_api_t *host);

}  // namespace plexus::osc_rdma
