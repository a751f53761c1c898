// The osc module of one window: the SDK's OscModule, every entry point forwarding to the Window's
// member of the same name.
#pragma once

#include <plexus/component.h>
#include <plexus/osc.h>
#include <plexus/sdk/osc_module.hpp>

#include "sm_window.h"

namespace plexus::osc_sm {

using Module = plexus::sdk::OscModule<Window>;

// A module for the window of scope (nullptr when out of memory); destroy frees it.
Module *create_module(const plexus_osc_scope_t &scope, const plexus_host_api_t *host,
                      const plexus_component_t *self);

}  // namespace plexus::osc_sm
