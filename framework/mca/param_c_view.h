// Parameters as the C ABI carries them (plexus/param.h) and as the registry keeps them: the one
// translation each way, used by the host API and by tests that stand a host on a registry.
#pragma once

#include <string>

#include <plexus/param.h>

#include "base/param_registry.h"

namespace plexus::mca {

// The spec of desc registered by component <framework>_<component> (full name prefixed).
ParamSpec spec_from_desc(const plexus_param_desc_t &desc, const std::string &framework,
                         const std::string &component);

// What param_lookup hands back for p; the strings stay owned by the registry.
plexus_param_value_t value_of(const Param &p);

}  // namespace plexus::mca
