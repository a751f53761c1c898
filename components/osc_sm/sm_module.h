// The osc module of one window: plexus_osc_module_t's functions over a Window.
#pragma once

#include <memory>

#include <plexus/component.h>
#include <plexus/osc.h>

#include "sm_window.h"

namespace plexus::osc_sm {

struct Module {
    plexus_osc_module_t base;  // first: the MPI layer holds &base
    std::unique_ptr<Window> window;
};

// A module for the window of scope (nullptr when out of memory); destroy frees it.
Module *create_module(const plexus_osc_scope_t &scope, const plexus_host_api_t *host, const plexus_component_t *self);

}  // namespace plexus::osc_sm
