// The parameters every BTL has, registered by the core for each btl component (as
// <fw>_<name>_priority is for every component), so that no BTL registers its own copy and every
// BTL's are named, typed and explained alike: btl_<name>_eager_limit, btl_<name>_max_send_size,
// btl_<name>_exclusivity. Each defaults to "the component's own" (0, or -1 for exclusivity);
// components read them with plexus::sdk::btl_limits (plexus/sdk/btl_limits.hpp).
#pragma once

#include <string>
#include <vector>

#include <plexus/btl.h>

#include "base/param_registry.h"

namespace plexus::mca {

// Registers the three for btl component `component`; false (and *error) when one is refused.
bool register_btl_common_params(ParamRegistry &params, const std::string &component, std::string *error);

// One warning for each of the three the user set that module m (of btl component m.name) does not
// report: a BTL that never read them would otherwise ignore them in silence.
std::vector<std::string> btl_limits_not_applied(const ParamRegistry &params, const plexus_btl_module_t &m);

}  // namespace plexus::mca
